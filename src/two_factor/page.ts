/**
 * The built-in second-step page (`GET {basePath}/twoFactor`): two small
 * forms, no script, that post a code or a backup code to
 * `POST {basePath}/twoFactor/verify` with the CSRF token in a hidden field.
 * Every text is escaped; served with the HTML headers (`Cache-Control:
 * no-store`, a CSP that loads and runs nothing).
 *
 * @module
 */

import { cardPage, escapeHtml } from "../error_page.ts";
import { htmlResponse, type ResponseHeaders } from "../http.ts";

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
  /** The app's name above the heading. */
  appName?: string;
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
    : `<p class="message" role="alert">${escapeHtml(input.message)}</p>\n`;
  const html = cardPage({
    title: "Enter your code",
    appName: input.appName,
    body:
      `${message}<p>Open your authenticator app and enter the 6-digit code it shows for this site.</p>
<form method="post" action="${action}">
${csrf}
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<button type="submit">Continue</button>
</form>
<details>
<summary>Use a backup code instead</summary>
<form method="post" action="${action}">
${csrf}
<label for="backupCode">Backup code</label>
<input id="backupCode" name="backupCode" autocomplete="off" maxlength="32" required>
<button type="submit">Continue</button>
</form>
</details>`,
  });
  return htmlResponse(out, html, input.status ?? 200);
}
