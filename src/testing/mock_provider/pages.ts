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

const STYLE =
  "body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}" +
  "button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}label{display:block;margin:.25rem 0}";

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
  const body = `<!doctype html><html lang="en"><meta charset="utf-8">` +
    `<title>Authorization error</title><style>${STYLE}</style>` +
    `<h1>Authorization error</h1><p><code>${escapeHTML(error)}</code></p>` +
    `<p>${escapeHTML(description)}</p></html>`;
  return new Response(body, { status: 400, headers: HTML_HEADERS });
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
  const hidden = Object.entries(input.params)
    .map(([name, value]) =>
      `<input type="hidden" name="${escapeHTML(name)}" value="${escapeHTML(value)}">`
    )
    .join("");
  const accounts = input.accounts
    .map(([sub, label]) =>
      `<label><input type="radio" name="user" value="${escapeHTML(sub)}"${
        sub === input.selected ? " checked" : ""
      }> ${escapeHTML(label)}</label>`
    )
    .join("");
  const body = `<!doctype html><html lang="en"><meta charset="utf-8">` +
    `<title>Sign in with ${escapeHTML(input.providerName)}</title><style>${STYLE}</style>` +
    `<h1>Sign in with ${escapeHTML(input.providerName)}</h1>` +
    `<p>An application asks for: <code>${escapeHTML(input.scope)}</code></p>` +
    `<form method="post" action="${escapeHTML(input.action)}">${hidden}` +
    `<fieldset><legend>Account</legend>${accounts}</fieldset><p>` +
    `<button type="submit" name="decision" value="approve">Approve</button>` +
    `<button type="submit" name="decision" value="deny">Deny</button></p></form></html>`;
  return new Response(body, { status: 200, headers: HTML_HEADERS });
}
