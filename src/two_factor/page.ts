/**
 * The built-in second-step page (`GET {basePath}/twoFactor`): two small
 * forms, no script, that post a code or a backup code to
 * `POST {basePath}/twoFactor/verify` with the CSRF token in a hidden field.
 * Every text is escaped; served with the HTML headers (`Cache-Control:
 * no-store`, a CSP that loads and runs nothing).
 *
 * @module
 */

import { escapeHtml } from "../error_page.ts";
import { htmlResponse, type ResponseHeaders } from "../http.ts";

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2328}" +
  "h1{font-size:1.5rem}button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.375rem;background:#0b5cad;color:#fff;cursor:pointer}" +
  "label{display:block;margin:1rem 0 .25rem}input{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}" +
  "p.error{color:#b42318}details{margin-top:2rem}";

/** What the page shows. */
export interface SecondStepPageInput {
  /** `POST {basePath}/twoFactor/verify`. */
  action: string;
  /** A CSRF token for the hidden field. */
  csrfToken: string;
  /** A sentence about the last try (a wrong code), or none. */
  message?: string;
  /** The status: 200, or 400 after a wrong code. */
  status?: number;
}

/**
 * Renders the second-step page.
 *
 * @param out The response headers and cookies of the request.
 * @param input The form's action, its CSRF token and an optional message.
 * @returns The HTML response.
 *
 * @example
 * ```ts
 * import { responseHeaders } from "../http.ts";
 * import { secondStepPage } from "./page.ts";
 * const response = secondStepPage(responseHeaders(), {
 *   action: "/auth/twoFactor/verify",
 *   csrfToken: "token",
 * });
 * response.headers.get("Content-Type"); // "text/html; charset=utf-8"
 * ```
 */
export function secondStepPage(out: ResponseHeaders, input: SecondStepPageInput): Response {
  const action = escapeHtml(input.action);
  const csrf = `<input type="hidden" name="csrfToken" value="${escapeHtml(input.csrfToken)}">`;
  const message = input.message === undefined
    ? ""
    : `<p class="error" role="alert">${escapeHtml(input.message)}</p>\n`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Enter your code</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Enter your code</h1>
${message}<p>Open your authenticator app and enter the 6-digit code it shows for this site.</p>
<form method="post" action="${action}">
${csrf}
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<p><button type="submit">Continue</button></p>
</form>
<details>
<summary>Use a backup code instead</summary>
<form method="post" action="${action}">
${csrf}
<label for="backupCode">Backup code</label>
<input id="backupCode" name="backupCode" autocomplete="off" maxlength="32" required>
<p><button type="submit">Continue</button></p>
</form>
</details>
</body>
</html>
`;
  return htmlResponse(out, html, input.status ?? 200);
}
