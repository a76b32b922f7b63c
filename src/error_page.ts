/**
 * The small HTML page a browser gets when a browser-facing route fails with
 * no trusted place to send it back to. Every text is escaped; the page
 * loads nothing and runs nothing.
 *
 * @module
 */

import type { AuthError } from "./errors.ts";
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

/** The HTML error page for an `AuthError`, with a link back to `home`. */
export function errorPageResponse(
  out: ResponseHeaders,
  error: AuthError,
  home: string,
): Response {
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign-in failed</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25rem}a{color:#0b5cad}</style>
</head>
<body>
<h1>Sign-in failed</h1>
<p>${escapeHtml(error.description)}</p>
<p>Error code: <code>${escapeHtml(error.code)}</code></p>
<p><a href="${escapeHtml(home)}">Back to the start</a></p>
</body>
</html>
`;
  return htmlResponse(out, body, error.status);
}
