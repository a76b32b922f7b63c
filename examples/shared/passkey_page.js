// The demo page's passkey parts, served as /passkey.js: sign in with a passkey (a button,
// and autofill on the username field), register one, list and delete them. It shares the
// page's client (one client: its calls take turns with the CSRF token).
import { auth, clearMessages, describe, render, say, sessionEnded } from "./app.js";

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`The page has no #${id} element.`);
  return found;
}

/** @param {number} seconds */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

/** Lists the user's passkeys, each with a delete button. */
async function renderPasskeys() {
  const list = element("passkeys");
  const { data, error } = await auth.passkey.list();
  if (error) {
    if (error.status === 401) return sessionEnded();
    say("passkeys-message", describe(error), "error");
    return;
  }
  list.replaceChildren(...data.passkeys.map((passkey) => {
    const item = document.createElement("li");
    item.className = "device";
    item.dataset.passkeyId = passkey.id;
    const text = document.createElement("div");
    const name = document.createElement("strong");
    name.textContent = passkey.name || "Passkey";
    const since = document.createElement("span");
    since.className = "muted";
    since.textContent = `Added ${when(passkey.createdAt)}` +
      (passkey.lastUsedAt ? `, last used ${when(passkey.lastUsedAt)}` : "");
    text.append(name, since);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary delete-passkey";
    button.textContent = "Delete";
    button.setAttribute("aria-label", `Delete the passkey ${name.textContent}`);
    button.addEventListener("click", async () => {
      clearMessages();
      button.disabled = true;
      const deleted = await auth.passkey.delete(passkey.id);
      if (deleted.error) {
        button.disabled = false;
        say("passkeys-message", describe(deleted.error), "error");
        return;
      }
      await renderPasskeys();
      say("passkeys-message", `Deleted the passkey ${name.textContent}.`);
    });
    item.append(text, button);
    return item;
  }));
  element("passkeys-empty").hidden = data.passkeys.length > 0;
}

element("passkey-register").addEventListener("click", async () => {
  clearMessages();
  const input = /** @type {HTMLInputElement} */ (element("passkey-name"));
  const button = /** @type {HTMLButtonElement} */ (element("passkey-register"));
  button.disabled = true;
  try {
    const { data, error } = await auth.passkey.register({ name: input.value.trim() });
    if (error) {
      if (error.status === 401) return sessionEnded();
      say("passkeys-message", describe(error), "error");
      return;
    }
    input.value = "";
    await renderPasskeys();
    say("passkeys-message", `Added the passkey ${data.passkey.name || "Passkey"}.`);
  } finally {
    button.disabled = false;
  }
});

/**
 * Signs in with a passkey: from the button (a dialog) or from autofill.
 *
 * @param {boolean} autofill
 */
async function passkeySignIn(autofill) {
  const { error } = await auth.passkey.signIn({ autofill });
  if (error) {
    // A cancelled autofill (the button took over, or the page moved on) says nothing.
    if (autofill && error.status === 0) return;
    clearMessages();
    say("passkey-message", describe(error), "error");
    return;
  }
  clearMessages();
  await render({ where: "signed-in-message", text: "Signed in with a passkey." });
}

element("passkey-sign-in").addEventListener("click", () => passkeySignIn(false));

// Each time the page changes sides: the list when signed in, autofill when signed out.
let lastState = "";
function onState() {
  const state = document.body.dataset.state ?? "";
  if (state === lastState) return;
  lastState = state;
  if (state === "signed-in") renderPasskeys();
  if (state === "signed-out") passkeySignIn(true);
}
new MutationObserver(onState).observe(document.body, { attributeFilter: ["data-state"] });
onState();
