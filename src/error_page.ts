/**
 * What people read when something fails: the small HTML page a browser gets
 * when a browser-facing route fails with no trusted place to send it back
 * to, and the plain sentence that also goes into the `error_description` of
 * the redirects people land on. Developer detail (what was expected) stays
 * in the logs and in JSON answers. Every text is escaped; the page loads
 * nothing and runs nothing.
 *
 * @module
 */

import { type AuthError, isChosenByApp } from "./errors.ts";
import { htmlResponse, type ResponseHeaders } from "./http.ts";

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Whether the request prefers an HTML answer (a browser navigation). */
export function acceptsHtml(request: Request): boolean {
  return /\btext\/html\b/i.test(request.headers.get("Accept") ?? "");
}

/** The `Retry-After` seconds a response collected, when it did. */
function retryAfterOf(out: ResponseHeaders | undefined): number | undefined {
  const value = out?.headers.find(([name]) => name.toLowerCase() === "retry-after")?.[1];
  const seconds = value === undefined ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function count(n: number, unit: string): string {
  return n === 1 ? `1 ${unit}` : `${n} ${unit}s`;
}

/** A wait in words, rounded up: "45 seconds", "15 minutes", "2 hours". */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return count(Math.max(1, Math.ceil(seconds)), "second");
  if (seconds < 3600) return count(Math.ceil(seconds / 60), "minute");
  return count(Math.ceil(seconds / 3600), "hour");
}

const BY_STATUS: Readonly<Record<number, string>> = {
  404: "This page does not exist.",
  405: "This page cannot be opened this way.",
  408: "Your browser took too long to send the form. Please try again.",
  413: "The form sent too much data. Please try again with less.",
  415: "The form could not be read. Please try again.",
};

const BY_CODE: Readonly<Record<string, string>> = {
  invalid_request: "This sign-in link is not valid or has expired. Please start again.",
  invalid_redirect_to:
    "The page to return to after signing in is not allowed. Please go back and try again.",
  access_denied: "The sign-in was refused. Please check your details and try again.",
  invalid_session_token: "You are not signed in, or your session has ended. Please sign in again.",
  invalid_csrf_token: "This page has expired. Please reload it and try again.",
  invalid_grant: "This link or code has expired or was already used. Please ask for a new one.",
  temporarily_unavailable: "The service is busy right now. Please try again in a moment.",
};

/**
 * The sentence a person reads for an error: the description an app's own
 * code chose, else a plain sentence for the error's code and status (how
 * long to wait for a 429, from the collected `Retry-After`). Never the
 * library's developer text.
 */
export function plainMessage(error: AuthError, out?: ResponseHeaders): string {
  if (isChosenByApp(error)) return error.description;
  if (error.status === 429) {
    const seconds = retryAfterOf(out);
    const wait = seconds === undefined ? "a while" : waitInWords(seconds);
    return `There were too many attempts. Please wait ${wait} before you try again.`;
  }
  if (error.code === "access_denied" && error.status === 403) {
    return "This request came from a page that is not allowed to sign you in.";
  }
  if (error.status === 502) {
    return "The sign-in service did not answer properly. Please try again later.";
  }
  if (error.status >= 500 && error.code !== "temporarily_unavailable") {
    return "Something went wrong on our side. Please try again later.";
  }
  return BY_STATUS[error.status] ?? BY_CODE[error.code] ??
    "The sign-in provider refused the request. Please try again later.";
}

function titleOf(error: AuthError): string {
  if (error.status === 429) return "Too many attempts";
  if (error.status === 503) return "Please try again soon";
  if (error.status >= 500) return "Something went wrong";
  return "Sign-in failed";
}

// The demo's look (examples/shared/page.css), inline: the page's CSP loads nothing.
const STYLE = [
  ":root{color-scheme:light;--ink:#1d2433;--muted:#5b6478;--line:#d9dee8;--accent:#2f5bd3}",
  "*{box-sizing:border-box}",
  "body{margin:0 auto;max-width:34rem;padding:3rem 1.25rem;font:16px/1.5 system-ui,-apple-system,",
  '"Segoe UI",sans-serif;color:var(--ink);background:#f3f5f9}',
  "main{padding:1.5rem 1.5rem 1rem;background:#fff;border:1px solid var(--line);border-radius:10px}",
  "h1{margin:0 0 .75rem;font-size:1.4rem}",
  ".message{margin:0 0 1.25rem;padding:.6rem .9rem;color:#b42318;background:#fef3f2;",
  "border:1px solid;border-radius:8px;overflow-wrap:anywhere}",
  ".button{display:inline-block;padding:.55rem 1.1rem;font-weight:600;color:#fff;",
  "background:var(--accent);border-radius:6px;text-decoration:none}",
  ".muted{margin:1.25rem 0 0;color:var(--muted);font-size:.85rem}",
  "code{font-family:ui-monospace,Menlo,monospace}",
  // The forms of the email and two-factor pages, in the same card.
  ".app{margin:0 0 .25rem;color:var(--muted);font-size:.9rem;font-weight:600}",
  "label{display:block;margin:0 0 .25rem;font-weight:600}",
  "input:not([type=hidden]){display:block;width:100%;margin:0 0 1rem;padding:.5rem .6rem;font:inherit;",
  "border:1px solid var(--line);border-radius:6px}",
  "button{padding:.55rem 1.1rem;font:inherit;font-weight:600;color:#fff;",
  "background:var(--accent);border:0;border-radius:6px;cursor:pointer}",
  "details{margin:1.25rem 0 0}summary{cursor:pointer;color:var(--accent)}",
].join("");

/** What {@link cardPage} shows. */
export interface CardPage {
  /** The page's title and heading. */
  title: string;
  /** The app's name above the heading (`logger.appName`, else `twoFactor.issuer`), if any. */
  appName?: string;
  /** The card's content, already HTML (every text in it escaped). */
  body: string;
}

/**
 * The one look of every page the library shows a person (errors, the email
 * link's confirmation, the reset form, the second step): a card with the
 * app's name, a heading and the content; no script, nothing loaded.
 */
export function cardPage(page: CardPage): string {
  const title = escapeHtml(page.title);
  const app = page.appName ? `<p class="app">${escapeHtml(page.appName)}</p>\n` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.appName ? `${title} - ${escapeHtml(page.appName)}` : title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${app}<h1>${title}</h1>
${page.body}
</main>
</body>
</html>
`;
}

/** Options of {@link errorPageResponse}. */
export interface ErrorPageOptions {
  /** Where the page's one link goes (a path or a trusted URL). */
  home: string;
  /** The link's text; default "Back to the start". */
  linkText?: string;
  /** The app's name above the heading. */
  appName?: string;
}

/**
 * The HTML error page for an `AuthError`: a title and a plain sentence for
 * people (see {@link plainMessage}), the error code for support, and one
 * link. Keeps the response's status and collected headers (`Retry-After`).
 */
export function errorPageResponse(
  out: ResponseHeaders,
  error: AuthError,
  options: ErrorPageOptions,
): Response {
  const body = cardPage({
    title: titleOf(error),
    appName: options.appName,
    body: `<p class="message">${escapeHtml(plainMessage(error, out))}</p>
<p><a class="button" href="${escapeHtml(options.home)}">${
      escapeHtml(options.linkText ?? "Back to the start")
    }</a></p>
<p class="muted">Error code: <code>${escapeHtml(error.code)}</code></p>`,
  });
  return htmlResponse(out, body, error.status);
}
