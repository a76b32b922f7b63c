// The demo page's tokens for other services and API keys, served as /service_tokens.js: get an
// access token for the sample API and call it; create, list and delete API keys, with a curl
// line for each new key. It shares the page's client (one client: its calls take turns).
import { auth, describe, say, sessionEnded } from "./app.js";

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`The page has no #${id} element.`);
  return found;
}

async function callApi() {
  const answer = await fetch("/demo/token", { method: "POST" });
  if (answer.status === 401) return sessionEnded();
  const { token } = await answer.json();
  const api = await fetch("/demo/api/hello", { headers: { Authorization: `Bearer ${token}` } });
  const result = element("api-result");
  result.hidden = false;
  result.textContent = `Token: ${token}\n\nGET /demo/api/hello → ${api.status}\n` +
    JSON.stringify(await api.json(), null, 2);
}

async function renderKeys() {
  const { data, error } = await auth.apiKeys.list();
  if (error) {
    if (error.status === 401) return sessionEnded();
    say("api-keys-message", describe(error), "error");
    return;
  }
  element("api-keys").replaceChildren(...data.apiKeys.map((apiKey) => {
    const item = document.createElement("li");
    item.className = "device";
    item.dataset.apiKeyId = apiKey.id;
    const name = document.createElement("strong");
    name.textContent = apiKey.name;
    const since = document.createElement("span");
    since.className = "muted";
    since.textContent = ` ${apiKey.id}, last used ${apiKey.lastUsedAt ?? "never"}`;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "secondary";
    remove.textContent = "Delete";
    remove.addEventListener("click", async () => {
      const { error } = await auth.apiKeys.delete(apiKey.id);
      if (error) say("api-keys-message", describe(error), "error");
      await renderKeys();
    });
    item.append(name, since, remove);
    return item;
  }));
  element("api-keys-empty").hidden = data.apiKeys.length > 0;
}

async function createKey() {
  const input = /** @type {HTMLInputElement} */ (element("api-key-name"));
  const { data, error } = await auth.apiKeys.create({
    name: input.value || "Demo key",
    scopes: ["hello:read"],
  });
  if (error) {
    if (error.status === 401) return sessionEnded();
    say("api-keys-message", describe(error), "error");
    return;
  }
  element("api-key-curl").textContent =
    `curl -H "Authorization: Bearer ${data.key}" ${location.origin}/demo/api/hello`;
  element("api-key-new").hidden = false;
  await renderKeys();
}

element("api-call").addEventListener("click", () => void callApi());
element("api-key-create").addEventListener("click", () => void createKey());
// The list is drawn when the signed-in part shows up.
new MutationObserver(() => {
  if (!element("signed-in").hidden) void renderKeys();
}).observe(element("signed-in"), { attributes: true, attributeFilter: ["hidden"] });
