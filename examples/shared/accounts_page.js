// The demo page's linked accounts, served as /accounts.js: the user's accounts, a button
// that links another mock account, unlink buttons, and a call to the provider's API made
// by the server with the user's token (GET /demo/provider-token). It shares the page's client.
import { auth, clearMessages, describe, say, sessionEnded } from "./app.js";

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`The page has no #${id} element.`);
  return found;
}

/** Lists the user's linked accounts, each with an unlink button. */
async function renderAccounts() {
  const { data, error } = await auth.accounts.list();
  if (error) {
    if (error.status === 401) return sessionEnded();
    say("accounts-message", describe(error), "error");
    return;
  }
  element("accounts").replaceChildren(...data.accounts.map((account) => {
    const item = document.createElement("li");
    item.className = "device";
    item.dataset.account = `${account.provider}:${account.providerAccountId}`;
    const text = document.createElement("div");
    const name = document.createElement("strong");
    name.textContent = `${account.provider}: ${account.providerAccountId}`;
    const since = document.createElement("span");
    since.className = "muted";
    since.textContent = `Linked ${new Date(account.createdAt).toLocaleString()}`;
    text.append(name, since);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = "Unlink";
    button.addEventListener("click", async () => {
      clearMessages();
      const done = await auth.accounts.unlink(account.provider, account.providerAccountId);
      if (done.error) return say("accounts-message", describe(done.error), "error");
      await renderAccounts();
      say("accounts-message", `Unlinked ${name.textContent}.`);
    });
    item.append(text, button);
    return item;
  }));
  element("accounts-empty").hidden = data.accounts.length > 0;
}

element("account-link").addEventListener("click", async () => {
  clearMessages();
  // Off to the mock provider: pick another account there; it comes back linked.
  const { error } = await auth.linkAccount("mock", { redirectTo: "/" });
  if (error) say("accounts-message", describe(error), "error");
});

element("account-token").addEventListener("click", async () => {
  clearMessages();
  const response = await fetch("/demo/provider-token", { credentials: "same-origin" });
  const body = await response.json();
  if (!response.ok) return say("accounts-message", body.error ?? "The call failed.", "error");
  const who = body.profile?.name ?? body.profile?.sub ?? "someone";
  say(
    "accounts-message",
    `The provider says this token belongs to ${who} (expires ${body.expiresAt ?? "never"}).`,
  );
});

let lastState = "";
function onState() {
  const state = document.body.dataset.state ?? "";
  if (state === lastState) return;
  lastState = state;
  if (state === "signed-in") renderAccounts();
}
new MutationObserver(onState).observe(document.body, { attributeFilter: ["data-state"] });
onState();
