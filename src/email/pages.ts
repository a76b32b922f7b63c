/**
 * The small HTML pages of the email flows: the confirmation page a link
 * opens (its one button posts the token, so a mail scanner that opens the
 * link uses nothing up), the built-in password reset form, and the page a
 * finished reset shows, in the card of the error page with the app's name.
 * No script; every text is escaped; served with the
 * HTML headers (`Cache-Control: no-store`, `Referrer-Policy: no-referrer`,
 * a CSP that loads nothing).
 *
 * @module
 */

import { cardPage, escapeHtml } from "../error_page.ts";
import { htmlResponse, type ResponseHeaders } from "../http.ts";

function page(title: string, body: string, appName: string | undefined): string {
  return cardPage({ title, body, appName });
}

/** What the confirmation page confirms. */
export type ConfirmationKind = "sign-in" | "verify-email" | "change-email";

const CONFIRM_TEXT: Readonly<Record<ConfirmationKind, [string, string, string]>> = {
  "sign-in": ["Sign in", "Continue to sign in with your email address.", "Sign in"],
  "verify-email": ["Confirm your email address", "Confirm that this address is yours.", "Confirm"],
  "change-email": [
    "Confirm your new email address",
    "Confirm the change of your account's email address.",
    "Confirm",
  ],
};

/** The page `GET /callback/email` answers: one button that posts the token. */
export function confirmationPage(
  out: ResponseHeaders,
  input: { kind: ConfirmationKind; action: string; token: string; appName?: string },
): Response {
  const [title, text, button] = CONFIRM_TEXT[input.kind];
  return htmlResponse(
    out,
    page(
      title,
      `<p>${escapeHtml(text)}</p>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<button type="submit">${escapeHtml(button)}</button>
</form>`,
      input.appName,
    ),
    200,
  );
}

/** The built-in form `GET /password/reset` answers. */
export function resetFormPage(
  out: ResponseHeaders,
  input: { action: string; token: string; appName?: string },
): Response {
  return htmlResponse(
    out,
    page(
      "Choose a new password",
      `<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<label for="password">New password</label>
<input type="password" id="password" name="password" autocomplete="new-password" required maxlength="1024">
<p><button type="submit">Save the new password</button></p>
</form>`,
      input.appName,
    ),
    200,
  );
}

/** A page that says something is done, with a link to go on. */
export function donePage(
  out: ResponseHeaders,
  input: { title: string; text: string; next: string; appName?: string },
): Response {
  return htmlResponse(
    out,
    page(
      input.title,
      `<p>${escapeHtml(input.text)}</p>
<p><a class="button" href="${escapeHtml(input.next)}">Continue</a></p>`,
      input.appName,
    ),
    200,
  );
}
