// The demo page's script, served as /app.js. The page's import map points the
// client's package name at /client/client.js, which the server provides.
import { createAuthClient } from "@service-stack/auth/client";

const auth = createAuthClient(); // same origin, basePath "/auth"

/** Shown when a signed-in action finds the session gone (signed out elsewhere, or ended). */
const SESSION_ENDED = "Your session has ended (signed out in another tab or on another device). " +
  "Sign in again.";

/**
 * @typedef {{ error: string, error_description?: string, status?: number }} ErrorBody
 * @typedef {{ id: string, createdAt: string, expiresAt: string, userAgent?: string,
 *   current: boolean }} Device
 */

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`The page has no #${id} element.`);
  return found;
}

/** Hides every message, so that only the latest action's message shows. */
function clearMessages() {
  for (const message of document.querySelectorAll(".message")) {
    /** @type {HTMLElement} */ (message).hidden = true;
  }
}

/**
 * Shows `text` in the message element next to what caused it.
 *
 * @param {string} id
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
function say(id, text, kind = "info") {
  const message = element(id);
  message.textContent = text;
  message.classList.toggle("error", kind === "error");
  message.classList.toggle("info", kind === "info");
  message.hidden = false;
}

/** @param {ErrorBody} error */
function describe(error) {
  const status = error.status ? ` (HTTP ${error.status})` : "";
  return `${error.error}: ${error.error_description ?? "no description"}${status}`;
}

/** @param {string} name */
function initials(name) {
  const letters = name.split(/\s+/).filter(Boolean).map((part) => part[0].toUpperCase());
  return letters.slice(0, 2).join("") || "?";
}

/**
 * Shows the signed-in or signed-out part of the page.
 *
 * @param {import("@service-stack/auth/client").Session | null} session
 */
function show(session) {
  element("loading").hidden = true;
  element("signed-in").hidden = session === null;
  element("signed-out").hidden = session !== null;
  document.body.dataset.state = session === null ? "signed-out" : "signed-in";
  if (session === null) return;
  const { user } = session;
  const name = user.name ?? user.sub;
  element("user-name").textContent = name;
  element("user-email").textContent = user.email ?? "";
  element("user-email").hidden = !user.email;
  showEmailState(user);
  element("user-sub").textContent = `sub: ${user.sub}`;
  element("avatar").textContent = initials(name);
  const expires = element("expires");
  expires.textContent = new Date(session.expires).toLocaleString();
  expires.setAttribute("datetime", session.expires);
  element("session").textContent = JSON.stringify(session, null, 2);
  /** @type {HTMLInputElement} */ (element("name")).value = user.name ?? "";
}

/**
 * Reads the session again and shows it, then `message`, then the devices
 * list when signed in: the message is on the page as soon as the state is.
 *
 * @param {{ where: string, text: string }} [message]
 */
async function render(message) {
  const session = await auth.getSession();
  show(session);
  if (message) say(message.where, message.text);
  if (session !== null) await renderDevices();
}

/** The page of a tab whose session ended elsewhere: signed out, saying why. */
function sessionEnded() {
  show(null);
  clearMessages();
  say("signed-out-message", SESSION_ENDED, "error");
}

/**
 * Calls one of the demo server's device endpoints (`/demo/sessions...`), as
 * JSON. Same-origin `fetch` sends the `Origin` header the server checks.
 *
 * @param {string} path
 * @param {unknown} [body] Present for a POST.
 * @returns {Promise<{ data: any, error: ErrorBody | null }>}
 */
async function demoCall(path, body) {
  /** @type {RequestInit} */
  const init = body === undefined ? { headers: { accept: "application/json" } } : {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, { ...init, cache: "no-store" });
  } catch {
    return {
      data: null,
      error: { error: "server_error", error_description: "No answer.", status: 0 },
    };
  }
  const data = await response.json().catch(() => null);
  if (response.ok) return { data, error: null };
  return {
    data: null,
    error: {
      error: typeof data?.error === "string" ? data.error : "server_error",
      error_description: typeof data?.error_description === "string"
        ? data.error_description
        : undefined,
      status: response.status,
    },
  };
}

/**
 * "Chrome on Linux" from a User-Agent header; the whole header is in the item's title.
 *
 * @param {string | undefined} userAgent
 */
function deviceName(userAgent) {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
    ? "Firefox"
    : /Chrom(e|ium)\//.test(userAgent)
    ? "Chrome"
    : /Safari\//.test(userAgent)
    ? "Safari"
    : /^curl\//.test(userAgent)
    ? "curl"
    : "A browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
    ? "iOS"
    : /Windows/.test(userAgent)
    ? "Windows"
    : /Mac OS X|Macintosh/.test(userAgent)
    ? "macOS"
    : /Linux/.test(userAgent)
    ? "Linux"
    : "";
  return system === "" ? browser : `${browser} on ${system}`;
}

/** @param {string} iso */
function when(iso) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Lists the user's sessions, this one first, then the newest. */
async function renderDevices() {
  const list = element("devices");
  const { data, error } = await demoCall("/demo/sessions");
  if (error) {
    if (error.status === 401) return sessionEnded();
    list.replaceChildren();
    say("devices-message", describe(error), "error");
    return;
  }
  /** @type {Device[]} */
  const devices = data.sessions;
  devices.sort((a, b) =>
    Number(b.current) - Number(a.current) || b.createdAt.localeCompare(a.createdAt)
  );
  list.replaceChildren(...devices.map(deviceItem));
}

/** @param {Device} device */
function deviceItem(device) {
  const item = document.createElement("li");
  item.className = "device";
  item.dataset.sessionId = device.id;
  if (device.current) item.dataset.current = "";
  const text = document.createElement("div");
  const title = document.createElement("span");
  title.className = "device-name";
  const name = document.createElement("strong");
  name.textContent = deviceName(device.userAgent);
  name.title = device.userAgent ?? "";
  title.append(name);
  const since = document.createElement("span");
  since.className = "muted";
  since.textContent = `Signed in ${when(device.createdAt)}`;
  const ends = document.createElement("span");
  ends.className = "muted";
  ends.textContent = `Ends ${when(device.expiresAt)}`;
  text.append(title, since, ends);
  item.append(text);
  if (device.current) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = "This device";
    title.append(badge);
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary end-session";
    button.textContent = "End";
    button.setAttribute(
      "aria-label",
      `End the session of ${name.textContent}, signed in ${when(device.createdAt)}`,
    );
    button.addEventListener("click", () => endSession(device, button));
    item.append(button);
  }
  return item;
}

/**
 * @param {Device} device
 * @param {HTMLButtonElement} button
 */
async function endSession(device, button) {
  clearMessages();
  button.disabled = true;
  const { error } = await demoCall("/demo/sessions/end", { id: device.id });
  if (error) {
    button.disabled = false;
    if (error.status === 401) return sessionEnded();
    say("devices-message", describe(error), "error");
    return;
  }
  await renderDevices();
  say("devices-message", `Ended the session of ${deviceName(device.userAgent)}.`);
}

/**
 * Runs a form's action on submit, with the button disabled meanwhile; its
 * message shows next to the form, or, once the page changes sides, next to
 * what replaced it.
 *
 * @param {string} id
 * @param {(fields: Record<string, string>) => Promise<{ data?: unknown, error: null | ErrorBody }>} action
 * @param {{ text: string, where: string }} success
 */
function onSubmit(id, action, success) {
  const form = /** @type {HTMLFormElement} */ (element(id));
  const messageId = id.replace(/-form$/, "-message");
  const signedInForm = form.closest("#signed-in") !== null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearMessages();
    const fields = Object.fromEntries(
      [...new FormData(form)].map(([key, value]) => [key, String(value)]),
    );
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button"));
    button.disabled = true;
    try {
      const result = await action(fields);
      const { error } = result;
      // The password was right but a second step is due: /two_factor.js asks for the code.
      if (/** @type {any} */ (result).data?.twoFactorRequired === true) {
        form.reset();
        document.dispatchEvent(new CustomEvent("demo:two-factor-required"));
        return;
      }
      if (error) {
        if (signedInForm && error.status === 401) sessionEnded();
        else say(messageId, describe(error), "error");
        return;
      }
      if (!signedInForm) form.reset();
      await render(success);
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
  ({ username, password }) => auth.signIn.credentials({ username, password }),
  { text: "Signed in with username and password.", where: "signed-in-message" },
);

onSubmit(
  "sign-up-form",
  ({ name, username, password, email }) =>
    auth.signUp({
      username,
      password,
      ...(name === "" ? {} : { name }),
      ...(email === "" ? {} : { email }),
    }),
  { text: "Account created; you are signed in.", where: "signed-in-message" },
);

// Email: sign-in by link or code, a forgotten password, verification and change of address.
// Every message lands in the development outbox (/demo/outbox), not in a mailbox.

const OUTBOX_HINT = "Open the development outbox (link at the top) to read it.";

/** @param {import("@service-stack/auth/client").Session["user"]} user */
function showEmailState(user) {
  const badge = element("email-verified");
  badge.hidden = !user.email;
  badge.textContent = user.emailVerified === true ? "verified" : "not verified";
  badge.dataset.verified = String(user.emailVerified === true);
  element("verify-email").hidden = !user.email || user.emailVerified === true;
}

onSubmit(
  "email-form",
  async ({ email }) => {
    const result = await auth.signIn.email(email, { redirectTo: "/?signed-in=email" });
    if (!result.error) element("email-code-form").hidden = false;
    return result;
  },
  {
    text: `If the address can sign in, a link and a code are on their way. ${OUTBOX_HINT}`,
    where: "email-message",
  },
);

onSubmit(
  "email-code-form",
  async ({ code }) => {
    const result = await auth.verifyEmailCode(code.trim());
    if (!result.error) element("email-code-form").hidden = true;
    return result;
  },
  { text: "Signed in with the emailed code.", where: "signed-in-message" },
);

onSubmit(
  "forgot-form",
  ({ email }) => auth.requestPasswordReset(email),
  {
    text: `If the address has an account, a reset link is on its way. ${OUTBOX_HINT}`,
    where: "forgot-message",
  },
);

onSubmit(
  "change-email-form",
  ({ email }) => auth.changeEmail(email),
  {
    text:
      `A confirmation link went to the new address; the address changes once it is opened. ${OUTBOX_HINT}`,
    where: "change-email-message",
  },
);

element("verify-email").addEventListener("click", async () => {
  clearMessages();
  const { error } = await auth.verifyEmail();
  if (error) {
    if (error.status === 401) return sessionEnded();
    say("verify-email-message", describe(error), "error");
    return;
  }
  say("verify-email-message", `A verification link is on its way. ${OUTBOX_HINT}`);
});

// A reset link lands on /reset-password?token=...: the form shows, and the token leaves the
// address bar (and the history) at once.
const resetToken = location.pathname === "/reset-password"
  ? new URLSearchParams(location.search).get("token")
  : null;
if (location.pathname === "/reset-password") history.replaceState(null, "", "/");
element("reset-form").hidden = resetToken === null;
onSubmit(
  "reset-form",
  async ({ password }) => {
    const result = await auth.resetPassword(resetToken ?? "", password);
    if (!result.error) element("reset-form").hidden = true;
    return result;
  },
  { text: "Password changed. Sign in with the new password.", where: "signed-out-message" },
);

onSubmit(
  "update-form",
  ({ name }) => auth.updateSession({ name }),
  { text: "Name updated: the server issued a new session cookie.", where: "update-message" },
);

element("sign-out").addEventListener("click", async () => {
  clearMessages();
  const { error } = await auth.signOut();
  if (error) {
    say("sign-out-message", describe(error), "error");
    return;
  }
  await render({ where: "signed-out-message", text: "Signed out." });
});

element("sign-out-everywhere").addEventListener("click", async () => {
  clearMessages();
  const { data, error } = await demoCall("/demo/sessions/end-all", {});
  if (error) {
    if (error.status === 401) return sessionEnded();
    say("devices-message", describe(error), "error");
    return;
  }
  const count = data.ended === 1 ? "1 session" : `${data.ended} sessions`;
  await render({ where: "signed-out-message", text: `Signed out everywhere: ${count} ended.` });
});

// A tab left open finds out when it comes back that its session ended elsewhere.
document.addEventListener("visibilitychange", async () => {
  if (document.visibilityState !== "visible" || document.body.dataset.state !== "signed-in") {
    return;
  }
  if (await auth.getSession() === null) sessionEnded();
});

await render();

// The OAuth callback comes back here, with error and error_description on failure.
const query = new URLSearchParams(location.search);
if (query.has("error")) {
  say(
    "oauth-message",
    describe({
      error: query.get("error") ?? "",
      error_description: query.get("error_description") ?? undefined,
    }),
    "error",
  );
} else if (query.get("signed-in") === "oauth" && document.body.dataset.state === "signed-in") {
  say("signed-in-message", "Signed in through the mock OAuth provider.");
} else if (query.get("signed-in") === "email" && document.body.dataset.state === "signed-in") {
  say("signed-in-message", "Signed in with the emailed link.");
} else if (query.get("signed-in") === "two-factor" && document.body.dataset.state === "signed-in") {
  say("signed-in-message", "Signed in with your second factor.");
}
if (query.size > 0) history.replaceState(null, "", "/");

// For the page's other scripts (passkey_page.js): one client, one set of messages.
export { auth, clearMessages, describe, render, say, sessionEnded };
