/**
 * HTML pages of the mock authorization server: the error page shown when the
 * client or redirect URI cannot be trusted, and the interactive consent page.
 *
 * @module
 */

const HTML_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
};

// One small inline stylesheet (the CSP allows nothing else): readable on a phone, large tap
// targets, visible focus, and the system's dark mode.
const STYLE = [
  ":root{color-scheme:light dark;--ink:#1d2433;--muted:#5b6478;--line:#d0d6e2;--paper:#fff;" +
  "--back:#f3f5f9;--accent:#2f5bd3;--accent-ink:#fff;--pick:#eef3ff}",
  "@media (prefers-color-scheme:dark){:root{--ink:#e8ebf2;--muted:#a3acbf;--line:#3a4254;" +
  "--paper:#1b2030;--back:#11151f;--accent:#7d9cf0;--accent-ink:#0b1020;--pick:#24304d}}",
  "*{box-sizing:border-box}",
  "body{margin:0;padding:1.5rem 1rem;font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;" +
  "color:var(--ink);background:var(--back)}",
  "main{max-width:26rem;margin:0 auto;padding:1.5rem 1.25rem;background:var(--paper);" +
  "border:1px solid var(--line);border-radius:12px}",
  "h1{margin:0 0 .5rem;font-size:1.35rem;line-height:1.3}",
  "p{margin:.5rem 0}.muted{color:var(--muted)}",
  "code{font-family:ui-monospace,Menlo,monospace;font-size:.9em;overflow-wrap:anywhere}",
  ".scopes{display:flex;flex-wrap:wrap;gap:.35rem;margin:.5rem 0 1rem;padding:0;list-style:none}",
  ".scopes li{padding:.1rem .55rem;border:1px solid var(--line);border-radius:999px;" +
  "font-size:.9rem}",
  "fieldset{margin:0 0 1rem;padding:0;border:0}",
  "legend{margin-bottom:.5rem;padding:0;font-weight:600}",
  ".account{display:flex;gap:.75rem;align-items:center;min-height:3rem;margin:.5rem 0;" +
  "padding:.6rem .8rem;border:1px solid var(--line);border-radius:10px;cursor:pointer}",
  ".account:has(input:checked){border-color:var(--accent);background:var(--pick)}",
  ".account input{flex:none;width:1.25rem;height:1.25rem;margin:0;accent-color:var(--accent)}",
  ".account span{display:flex;flex-direction:column;min-width:0;overflow-wrap:anywhere}",
  ".account small{color:var(--muted);font-size:.875rem}",
  ".actions{display:flex;flex-wrap:wrap;gap:.75rem}",
  "button{flex:1 1 8rem;min-height:2.75rem;padding:.6rem 1rem;font:inherit;font-weight:600;" +
  "border-radius:8px;cursor:pointer}",
  "button[value=approve]{color:var(--accent-ink);background:var(--accent);" +
  "border:1px solid var(--accent)}",
  "button[value=deny]{color:var(--ink);background:transparent;border:1px solid var(--line)}",
  ":focus-visible{outline:3px solid var(--accent);outline-offset:2px}",
].join("");

const HEAD = `<!doctype html><html lang="en"><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="robots" content="noindex">`;

/**
 * Escapes text for an HTML text node or a double-quoted attribute value.
 *
 * @example
 * ```ts
 * import { escapeHTML } from "./pages.ts";
 *
 * escapeHTML('<a href="x">'); // "&lt;a href=&quot;x&quot;&gt;"
 * ```
 */
export function escapeHTML(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * The 400 page for an authorization request that must not be redirected
 * (unknown client, missing or invalid redirect URI).
 *
 * @example
 * ```ts
 * import { errorPage } from "./pages.ts";
 *
 * const response = errorPage("invalid_request", "Unknown client_id.");
 * console.log(response.status); // 400
 * ```
 */
export function errorPage(error: string, description: string): Response {
  const body = `${HEAD}<title>Authorization error</title><style>${STYLE}</style>` +
    `<main><h1>Authorization error</h1><p><code>${escapeHTML(error)}</code></p>` +
    `<p>${escapeHTML(description)}</p></main></html>`;
  return new Response(body, { status: 400, headers: HTML_HEADERS });
}

/** Hidden form fields, escaped. */
function hiddenInputs(fields: [string, string][]): string {
  return fields
    .map(([name, value]) =>
      `<input type="hidden" name="${escapeHTML(name)}" value="${escapeHTML(value)}">`
    )
    .join("");
}

/** The one script any mock page runs: it submits the form_post page's form. */
const SUBMIT_SCRIPT = "document.forms[0].submit();";
/** Its CSP hash, `sha256` of {@link SUBMIT_SCRIPT} in base64. */
const SUBMIT_SCRIPT_HASH = "sha256-8lDeP0UDwCO6/RhblgeH/ctdBzjVpJxrXizsnIk3cEQ=";

/**
 * The `form_post` answer (OAuth 2.0 Form Post Response Mode): a page whose
 * form posts `fields` to the client's redirect URI, submitted by a script the
 * CSP allows by hash, or by its button without scripts.
 *
 * @example
 * ```ts
 * import { formPostPage } from "./pages.ts";
 *
 * const response = formPostPage("http://localhost:8000/auth/callback/mock", [["code", "c"], ["state", "s"]]);
 * console.log(response.status); // 200
 * ```
 */
export function formPostPage(action: string, fields: [string, string][]): Response {
  const hidden = hiddenInputs(fields);
  const body = `${HEAD}<title>Signing in</title><style>${STYLE}</style>` +
    `<main><form method="post" action="${escapeHTML(action)}">${hidden}` +
    `<p>Returning to the application…</p><button type="submit">Continue</button></form></main>` +
    `<script>${SUBMIT_SCRIPT}</script></html>`;
  return new Response(body, {
    status: 200,
    headers: {
      ...HTML_HEADERS,
      "Content-Security-Policy":
        `default-src 'none'; style-src 'unsafe-inline'; script-src '${SUBMIT_SCRIPT_HASH}'; frame-ancestors 'none'`,
      "Referrer-Policy": "no-referrer",
    },
  });
}

/** An account label, `Name <email>` shown as the name over the address. */
function accountText(label: string): string {
  const match = /^(.*) <([^<>]+)>$/.exec(label);
  if (match === null) return `<span>${escapeHTML(label)}</span>`;
  return `<span>${escapeHTML(match[1])}<small>${escapeHTML(match[2])}</small></span>`;
}

/** What the consent page shows and posts back. */
export interface ConsentPageInput {
  /** The display name of the mock provider. */
  providerName: string;
  /** The authorization endpoint the form posts to. */
  action: string;
  /** The validated authorization request parameters, re-sent as hidden fields. */
  params: Record<string, string>;
  /** The requested scopes. */
  scope: string;
  /** The accounts to choose from, as `[sub, label]` pairs. */
  accounts: [string, string][];
  /** The `sub` of the preselected account. */
  selected: string | undefined;
}

/**
 * The interactive consent page: account choice and Approve / Deny buttons
 * that post the request back to the authorization endpoint.
 *
 * @example
 * ```ts
 * import { consentPage } from "./pages.ts";
 *
 * const response = consentPage({
 *   providerName: "Mock",
 *   action: "http://mock-oauth.localhost/authorize",
 *   params: { client_id: "mock-client" },
 *   scope: "openid",
 *   accounts: [["u1", "Ada"]],
 *   selected: "u1",
 * });
 * ```
 */
export function consentPage(input: ConsentPageInput): Response {
  const hidden = hiddenInputs(Object.entries(input.params));
  const accounts = input.accounts
    .map(([sub, label]) =>
      `<label class="account"><input type="radio" name="user" value="${escapeHTML(sub)}"${
        sub === input.selected ? " checked" : ""
      }>${accountText(label)}</label>`
    )
    .join("");
  const scopes = input.scope.split(" ").filter((scope) => scope !== "")
    .map((scope) => `<li><code>${escapeHTML(scope)}</code></li>`)
    .join("");
  const name = escapeHTML(input.providerName);
  const body = `${HEAD}<title>Sign in with ${name}</title><style>${STYLE}</style>` +
    `<main><h1>Sign in with ${name}</h1>` +
    `<p class="muted">An application asks to sign you in and to read:</p>` +
    `<ul class="scopes" aria-label="Requested scopes">${scopes || "<li>no scope</li>"}</ul>` +
    `<form method="post" action="${escapeHTML(input.action)}">${hidden}` +
    `<fieldset><legend>Choose an account</legend>${accounts}</fieldset>` +
    `<div class="actions">` +
    `<button type="submit" name="decision" value="approve">Approve</button>` +
    `<button type="submit" name="decision" value="deny">Deny</button></div></form></main></html>`;
  return new Response(body, { status: 200, headers: HTML_HEADERS });
}
