/**
 * Steps of the demo app's flows, driven over HTTP like a browser would: the
 * consent form of the mock provider, CSRF-protected calls, the demo
 * password from the console. Shared by the runtime matrix and the in-process
 * tests of the examples.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { FollowResult, HttpClient } from "../support/http_client.ts";

/** The demo user's password, read from the console line the demo prints at startup. */
export function demoPassword(output: string): string {
  const match = /Demo user: username "demo", password "([^"]+)"/.exec(output);
  if (match === null) {
    throw new Error(`The demo printed no demo user line; expected one in:\n${output}`);
  }
  return match[1];
}

function unescapeHTML(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39|#(\d+));/g, (entity, code?: string) => {
    if (code !== undefined) return String.fromCharCode(Number(code));
    return { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" }[entity]!;
  });
}

/** The mock provider's consent form: where it posts and its hidden fields. */
export function consentForm(html: string): { action: string; fields: URLSearchParams } {
  const form = /<form method="post" action="([^"]+)">/.exec(html);
  if (form === null) throw new Error(`No consent form in the page; got:\n${html.slice(0, 500)}`);
  const fields = new URLSearchParams();
  for (const input of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields.append(unescapeHTML(input[1]), unescapeHTML(input[2]));
  }
  return { action: unescapeHTML(form[1]), fields };
}

/**
 * Starts the OAuth sign-in at `/auth/signIn/mock`, answers the consent page
 * (`decision` as `account`), and follows the redirects back to the app.
 */
export async function signInWithMock(
  client: HttpClient,
  origin: string,
  options: { account?: string; decision?: "approve" | "deny"; redirectTo?: string } = {},
): Promise<FollowResult> {
  const redirectTo = encodeURIComponent(options.redirectTo ?? "/");
  const consent = await client.follow(`${origin}/auth/signIn/mock?redirectTo=${redirectTo}`);
  assert.equal(consent.response.status, 200, `consent page at ${consent.url}`);
  assert.equal(new URL(consent.url).pathname, "/mock-oauth/authorize");
  const { action, fields } = consentForm(await consent.response.text());
  fields.set("user", options.account ?? "mock-grace");
  fields.set("decision", options.decision ?? "approve");
  return await client.follow(action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: fields.toString(),
  });
}

/** Fetches a CSRF token, then sends `body` as JSON with it (what the browser client does). */
export async function mutate(
  client: HttpClient,
  url: string,
  options: { method?: "POST" | "PATCH"; body?: unknown } = {},
): Promise<Response> {
  const origin = new URL(url).origin;
  const tokenResponse = await client.fetch(`${origin}/auth/csrfToken`);
  assert.equal(tokenResponse.status, 200);
  const { csrfToken } = await tokenResponse.json();
  return await client.fetch(url, {
    method: options.method ?? "POST",
    headers: { "content-type": "application/json", "x-csrf-token": csrfToken },
    body: JSON.stringify(options.body ?? {}),
  });
}

/** The current session, or the status when there is none. */
export async function currentSession(
  client: HttpClient,
  origin: string,
): Promise<{ user: Record<string, string>; expires: string } | null | number> {
  const response = await client.fetch(`${origin}/auth/session`);
  if (response.status !== 200) {
    await response.body?.cancel();
    return response.status;
  }
  return await response.json();
}
