// The demo page's two-factor script, served as /two_factor.js beside /app.js: turning it on
// (a QR code and the secret, then the first code, then the backup codes shown once), turning it
// off, and the second step after a password sign-in ({ twoFactorRequired: true }). An OAuth
// sign-in's second step is the library's own page at /auth/twoFactor.
import { createAuthClient } from "@service-stack/auth/client";

const auth = createAuthClient();

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`The page has no #${id} element.`);
  return found;
}

/**
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

/** @param {{ error: string, error_description?: string, status?: number }} error */
function describe(error) {
  const status = error.status ? ` (HTTP ${error.status})` : "";
  return `${error.error}: ${error.error_description ?? "no description"}${status}`;
}

/** @param {string} id */
function form(id) {
  return /** @type {HTMLFormElement} */ (element(id));
}

/** @param {HTMLFormElement} target */
function field(target, name) {
  return String(new FormData(target).get(name) ?? "").trim();
}

/** Shows whether two-factor is on for the signed-in user, and the matching controls. */
async function renderStatus() {
  element("two-factor-message").hidden = true;
  const response = await fetch("/demo/two-factor/status", { cache: "no-store" });
  if (!response.ok) return;
  const { enabled } = await response.json();
  element("two-factor-status").textContent = enabled
    ? "On: every sign-in asks for a code from your authenticator app."
    : "Off: a password or OAuth sign-in is enough.";
  element("two-factor-card").dataset.enabled = String(enabled);
  element("two-factor-enroll").hidden = enabled;
  form("two-factor-disable-form").hidden = !enabled;
  element("two-factor-setup").hidden = true;
}

element("two-factor-enroll").addEventListener("click", async () => {
  element("two-factor-backup").hidden = true;
  const { data, error } = await auth.twoFactor.enroll();
  if (error) return say("two-factor-message", describe(error), "error");
  element("two-factor-secret").textContent = data.secret;
  const qr = /** @type {HTMLImageElement} */ (element("two-factor-qr"));
  const response = await fetch("/demo/two-factor/qr", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uri: data.uri }),
  });
  const { svg } = response.ok ? await response.json() : { svg: null };
  // An image from a data: URL: the SVG is never parsed into this page's DOM.
  qr.hidden = svg === null;
  if (svg !== null) qr.src = `data:image/svg+xml;base64,${btoa(svg)}`;
  element("two-factor-enroll").hidden = true;
  element("two-factor-setup").hidden = false;
});

form("two-factor-confirm-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const target = form("two-factor-confirm-form");
  const { data, error } = await auth.twoFactor.confirm(field(target, "code"));
  if (error) return say("two-factor-message", describe(error), "error");
  target.reset();
  await renderStatus();
  const list = element("two-factor-backup-codes");
  list.replaceChildren(...data.backupCodes.map((code) => {
    const item = document.createElement("li");
    item.textContent = code;
    return item;
  }));
  element("two-factor-backup").hidden = false;
  say("two-factor-message", "Two-factor sign-in is on.");
});

form("two-factor-disable-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const target = form("two-factor-disable-form");
  const { error } = await auth.twoFactor.disable(field(target, "code"));
  if (error) return say("two-factor-message", describe(error), "error");
  target.reset();
  element("two-factor-backup").hidden = true;
  await renderStatus();
  say("two-factor-message", "Two-factor sign-in is off.");
});

/**
 * Shows or leaves the second step. While it is pending, its card is the only one: the other
 * sign-in forms are hidden (the section's `second-step` class), with a way back to them.
 *
 * @param {boolean} pending
 */
function showSecondStep(pending) {
  element("two-factor-step").hidden = !pending;
  element("signed-out").classList.toggle("second-step", pending);
  if (!pending) element("two-factor-step-message").hidden = true;
}

/**
 * Sends the second step; on success the page loads again, signed in.
 *
 * @param {import("@service-stack/auth/client").TwoFactorAnswer} answer
 */
async function verify(answer) {
  const { error } = await auth.twoFactor.verify(answer, { redirectTo: "/?signed-in=two-factor" });
  if (error) {
    say("two-factor-step-message", describe(error), "error");
    // Too many tries, or the five minutes are over: the password has to be given again.
    if (error.status === 429 || /start again/i.test(error.error_description ?? "")) {
      showSecondStep(false);
      say("signed-out-message", describe(error), "error");
    }
  }
}

form("two-factor-verify-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const target = form("two-factor-verify-form");
  verify({ code: field(target, "code") }).then(() => target.reset());
});

form("two-factor-backup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const target = form("two-factor-backup-form");
  verify({ backupCode: field(target, "backupCode") }).then(() => target.reset());
});

element("two-factor-back").addEventListener("click", () => showSecondStep(false));

document.addEventListener("demo:two-factor-required", () => {
  showSecondStep(true);
  element("two-factor-step-message").hidden = true;
  /** @type {HTMLInputElement} */ (form("two-factor-verify-form").elements.namedItem("code"))
    .focus();
});

// The status is read whenever the page shows the signed-in side.
new MutationObserver(() => {
  if (document.body.dataset.state === "signed-in") {
    showSecondStep(false);
    renderStatus();
  }
}).observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
if (document.body.dataset.state === "signed-in") renderStatus();
