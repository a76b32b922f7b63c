/**
 * The small HTML pages of the email flows: the confirmation page a link
 * opens (its one button posts the token, so a mail scanner that opens the
 * link uses nothing up), the built-in password reset form, and the page a
 * finished reset shows. No script; every text is escaped; served with the
 * HTML headers (`Cache-Control: no-store`, `Referrer-Policy: no-referrer`,
 * a CSP that loads nothing).
 *
 * @module
 */

import { escapeHtml } from "../error_page.ts";
import { htmlResponse, type ResponseHeaders } from "../http.ts";

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2328}" +
  "h1{font-size:1.5rem}button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.375rem;background:#0b5cad;color:#fff;cursor:pointer}" +
  "label{display:block;margin:1rem 0 .25rem}input[type=password]{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}" +
  "a{color:#0b5cad}";

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
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
  input: { kind: ConfirmationKind; action: string; token: string },
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
    ),
    200,
  );
}

/** The built-in form `GET /password/reset` answers. */
export function resetFormPage(
  out: ResponseHeaders,
  input: { action: string; token: string },
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
    ),
    200,
  );
}

/** A page that says something is done, with a link to go on. */
export function donePage(
  out: ResponseHeaders,
  input: { title: string; text: string; next: string },
): Response {
  return htmlResponse(
    out,
    page(
      input.title,
      `<p>${escapeHtml(input.text)}</p>
<p><a href="${escapeHtml(input.next)}">Continue</a></p>`,
    ),
    200,
  );
}
