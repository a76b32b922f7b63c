// The demo page's script, served as /app.js. The page's import map points the
// client's package name at /client/client.js, which the server provides.
import { createAuthClient } from "@service-stack/auth/client";

const auth = createAuthClient(); // same origin, basePath "/auth"

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`The page has no #${id} element.`);
  return found;
}

/**
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
function showMessage(text, kind = "info") {
  const message = element("message");
  message.textContent = text;
  message.className = kind;
  message.hidden = false;
}

/** @param {{ error: string, error_description?: string, status?: number }} error */
function showError(error) {
  const status = error.status ? ` (HTTP ${error.status})` : "";
  showMessage(`${error.error}: ${error.error_description ?? "no description"}${status}`, "error");
}

/** @param {string} name */
function initials(name) {
  const letters = name.split(/\s+/).filter(Boolean).map((part) => part[0].toUpperCase());
  return letters.slice(0, 2).join("") || "?";
}

async function render() {
  const session = await auth.getSession();
  element("loading").hidden = true;
  element("signed-in").hidden = session === null;
  element("signed-out").hidden = session !== null;
  document.body.dataset.state = session === null ? "signed-out" : "signed-in";
  if (session === null) return;
  const { user } = session;
  const name = user.name ?? user.sub;
  element("user-name").textContent = name;
  element("user-email").textContent = user.email ?? "";
  element("user-sub").textContent = `sub: ${user.sub}`;
  element("avatar").textContent = initials(name);
  const expires = element("expires");
  expires.textContent = new Date(session.expires).toLocaleString();
  expires.setAttribute("datetime", session.expires);
  element("session").textContent = JSON.stringify(session, null, 2);
  /** @type {HTMLInputElement} */ (element("name")).value = user.name ?? "";
}

/**
 * Runs a form's action on submit, with the button disabled meanwhile.
 *
 * @param {string} id
 * @param {(fields: Record<string, string>) => Promise<{ error: null | { error: string, error_description?: string, status?: number } }>} action
 * @param {string} success
 */
function onSubmit(id, action, success) {
  const form = /** @type {HTMLFormElement} */ (element(id));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = Object.fromEntries(
      [...new FormData(form)].map(([key, value]) => [key, String(value)]),
    );
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    button.disabled = true;
    try {
      const { error } = await action(fields);
      if (error) {
        showError(error);
        return;
      }
      if (id !== "update-form") form.reset();
      showMessage(success);
      await render();
    } finally {
      button.disabled = false;
    }
  });
}

element("oauth-sign-in").addEventListener("click", () => {
  // Navigates to /auth/signIn/mock, then the consent page, then back here.
  auth.signIn("mock", { redirectTo: "/?signed-in=oauth" });
});

onSubmit(
  "credentials-form",
  ({ username, password }) => auth.signInCredentials({ username, password }),
  "Signed in with username and password.",
);

onSubmit(
  "sign-up-form",
  ({ name, username, password }) =>
    auth.signUp(name === "" ? { username, password } : { name, username, password }),
  "Account created; you are signed in.",
);

onSubmit(
  "update-form",
  ({ name }) => auth.updateSession({ name }),
  "Name updated: the server issued a new session cookie.",
);

element("sign-out").addEventListener("click", async () => {
  const { error } = await auth.signOut();
  if (error) showError(error);
  else showMessage("Signed out.");
  await render();
});

// The OAuth callback comes back here, with error and error_description on failure.
const query = new URLSearchParams(location.search);
if (query.has("error")) {
  showError({
    error: query.get("error") ?? "",
    error_description: query.get("error_description") ?? undefined,
  });
} else if (query.get("signed-in") === "oauth") {
  showMessage("Signed in through the mock OAuth provider.");
}
if (query.size > 0) history.replaceState(null, "", "/");

await render();
