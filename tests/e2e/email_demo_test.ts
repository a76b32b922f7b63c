/**
 * The demo's email part (`examples/shared/email_demo.mjs`), called in-process
 * like `examples_test.ts` does: the development outbox page, sign-in by
 * link and code over the demo's user table, sign-up with an address,
 * verification, change of address and password reset. The browser test
 * clicks through the same flows in Chromium.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { createDemo } from "../../examples/shared/demo.mjs";
import { OUTBOX_SIZE, outboxPage } from "../../examples/shared/email_demo.mjs";
import { HttpClient } from "../support/http_client.ts";
import { currentSession, demoPassword, mutate } from "../runtimes/_demo_flow.ts";

const ORIGIN = "http://127.0.0.1:8000";
const SECRET = "email-demo-test-secret-0123456789abcdef-0123456789";

async function demoApp() {
  const output: string[] = [];
  const demo = await createDemo({
    origin: ORIGIN,
    env: {},
    runtime: "Test 1.0",
    clientModules: new Map([["client.js", "export const createAuthClient = 1;\n"]]),
    log: (line: string) => output.push(line),
  });
  const auth = createAuth({ ...demo.authConfig, secret: SECRET, logger: false });
  const handleDemo = demo.handler(auth);
  const serve = async (request: Request) =>
    new URL(request.url).pathname.startsWith("/auth/")
      ? await auth.handlers.ALL(request)
      : await handleDemo(request);
  const browser = () => new HttpClient({ headers: { origin: ORIGIN }, fetch: serve });
  return { client: browser(), browser, output, password: demoPassword(output.join("\n")) };
}

interface OutboxRow {
  kind: string;
  to: string;
  url: string;
  code?: string;
}

/** The outbox page's messages, newest first, read back from its HTML. */
async function outbox(client: HttpClient): Promise<OutboxRow[]> {
  const response = await client.fetch(`${ORIGIN}/demo/outbox`);
  assert.equal(response.status, 200);
  const html = await response.text();
  const rows: OutboxRow[] = [];
  for (const item of html.matchAll(/<li class="card outbox-message"[\s\S]*?<\/li>/g)) {
    const text = item[0];
    const pick = (pattern: RegExp) => pattern.exec(text)?.[1]?.replaceAll("&#38;", "&");
    rows.push({
      kind: pick(/class="outbox-kind">([^<]*)</)!,
      to: pick(/class="outbox-to">([^<]*)</)!,
      url: pick(/class="outbox-link" href="([^"]*)"/)!,
      ...(/outbox-code/.test(text) ? { code: pick(/class="outbox-code">(\d{6})</) } : {}),
    });
  }
  return rows;
}

function tokenOf(url: string): string {
  return new URL(url).searchParams.get("token")!;
}

async function signIn(client: HttpClient, username: string, password: string): Promise<number> {
  const response = await mutate(client, `${ORIGIN}/auth/signIn/credentials`, {
    body: { username, password },
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("email demo: the outbox page says what it is, escapes, and answers GET and HEAD only", async () => {
  const { client } = await demoApp();
  const response = await client.fetch(`${ORIGIN}/demo/outbox`);
  const html = await response.text();
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
  assert.equal(response.headers.get("cache-control"), "no-store");
  assert.equal(response.headers.get("referrer-policy"), "no-referrer");
  assert.match(response.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  assert.match(
    html,
    /Development outbox: these messages were not sent; a real app delivers them through email\.send\./,
  );
  assert.match(html, /No messages yet\./);
  assert.doesNotMatch(html, /<script/);
  const head = await client.fetch(`${ORIGIN}/demo/outbox`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  const post = await client.fetch(`${ORIGIN}/demo/outbox`, { method: "POST", body: "x" });
  await post.body?.cancel();
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
});

Deno.test("email demo: outboxPage escapes every value and links only http(s) URLs", () => {
  const evil = `"><script>alert(1)</script>`;
  const html = outboxPage([
    {
      kind: evil,
      to: `${evil}@example.com`,
      url: `https://example.com/?q=${evil}`,
      code: evil,
      expiresAt: new Date(0),
      sentAt: new Date(0),
    },
    {
      kind: "sign-in",
      to: "a@example.com",
      url: "javascript:alert(1)",
      expiresAt: new Date(0),
      sentAt: new Date(0),
    },
  ]);
  assert.doesNotMatch(html, /<script/);
  assert.doesNotMatch(html, /href="javascript:/);
  assert.match(html, /<code>javascript:alert\(1\)<\/code>/);
  assert.match(html, /href="https:\/\/example\.com\/\?q=&#34;&#62;&#60;script&#62;/);
});

Deno.test("email demo: the outbox keeps the newest messages only", async () => {
  const { client } = await demoApp();
  // Three messages per address per window: distinct addresses.
  for (let i = 0; i < OUTBOX_SIZE + 3; i++) {
    const response = await mutate(client, `${ORIGIN}/auth/password/forgot`, {
      body: { email: `nobody-${i}@example.com` },
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
  const rows = await outbox(client);
  assert.equal(rows.length, OUTBOX_SIZE);
  assert.equal(rows[0].to, `nobody-${OUTBOX_SIZE + 2}@example.com`);
  assert.equal(rows.at(-1)!.to, "nobody-3@example.com");
  assert.ok(rows.every((row) => row.kind === "no-account"));
});

Deno.test("email demo: the demo user signs in by link from the outbox, and by code in the browser that asked", async () => {
  const { client, browser } = await demoApp();
  const asked = await mutate(client, `${ORIGIN}/auth/signIn/email`, {
    body: { email: "Demo@Example.com", redirectTo: "/?signed-in=email" },
  });
  assert.equal(asked.status, 200);
  assert.deepEqual(await asked.json(), { ok: true });
  const [message] = await outbox(client);
  assert.equal(message.kind, "sign-in");
  assert.equal(message.to, "Demo@Example.com");
  assert.match(message.url, /^http:\/\/127\.0\.0\.1:8000\/auth\/callback\/email\?token=/);
  assert.match(message.code ?? "", /^\d{6}$/);

  // The link, from another browser: the page changes nothing, its button signs in.
  const other = browser();
  const page = await other.fetch(message.url);
  assert.match(await page.text(), /<button type="submit">Sign in<\/button>/);
  assert.equal(await currentSession(other, ORIGIN), null);
  const posted = await other.fetch(`${ORIGIN}/auth/callback/email`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: tokenOf(message.url) }).toString(),
  });
  await posted.body?.cancel();
  assert.equal(posted.status, 302);
  assert.equal(posted.headers.get("location"), "/?signed-in=email");
  const session = await currentSession(other, ORIGIN);
  assert.ok(typeof session === "object" && session !== null);
  assert.deepEqual(session.user, {
    sub: "user-demo",
    name: "Demo User",
    email: "demo@example.com",
    emailVerified: true,
  });

  // The code of that message was used with the link: a new message's code signs in here.
  await mutate(client, `${ORIGIN}/auth/signIn/email`, { body: { email: "demo@example.com" } });
  const [second] = await outbox(client);
  const byCode = await client.fetch(`${ORIGIN}/auth/callback/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: second.code }),
  });
  assert.equal(byCode.status, 200);
  assert.equal((await byCode.json()).user.sub, "user-demo");
});

Deno.test("email demo: an unknown address gets an account once its code is used, then a password by reset", async () => {
  const { client } = await demoApp();
  await mutate(client, `${ORIGIN}/auth/signIn/email`, { body: { email: "new@example.com" } });
  const [message] = await outbox(client);
  assert.equal(message.kind, "sign-in");
  const byCode = await client.fetch(`${ORIGIN}/auth/callback/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: message.code }),
  });
  assert.equal(byCode.status, 200);
  const { user } = await byCode.json();
  assert.deepEqual(
    { ...user, sub: user.sub.replace(/^user-[\w-]{36}$/, "uuid") },
    { sub: "uuid", name: "new@example.com", email: "new@example.com", emailVerified: true },
  );
  // No password yet: the address does not sign in with one.
  assert.equal(await signIn(client, "new@example.com", "whatever-password"), 401);
  await mutate(client, `${ORIGIN}/auth/password/forgot`, { body: { email: "new@example.com" } });
  const [reset] = await outbox(client);
  assert.equal(reset.kind, "reset-password");
  const done = await client.fetch(`${ORIGIN}/auth/password/reset`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokenOf(reset.url), password: "a-new-password" }),
  });
  assert.equal(done.status, 200);
  await done.body?.cancel();
  assert.equal(await signIn(client, "new@example.com", "a-new-password"), 200);
});

Deno.test("email demo: a reset link opens the demo page; the new password works, the old one not", async () => {
  const { client, password } = await demoApp();
  await mutate(client, `${ORIGIN}/auth/password/forgot`, { body: { email: "demo@example.com" } });
  const [message] = await outbox(client);
  assert.equal(message.kind, "reset-password");
  // pages.resetPassword: the demo page's own form, as an absolute link (a mail app needs one).
  assert.match(message.url, /^http:\/\/127\.0\.0\.1:8000\/reset-password\?token=[\w.-]+$/);
  const page = await client.fetch(message.url);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /id="reset-form"/);

  // Too short for the demo: refused with its reason (and that link is used up).
  const short = await client.fetch(`${ORIGIN}/auth/password/reset`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokenOf(message.url), password: "short" }),
  });
  assert.equal(short.status, 400);
  assert.match((await short.json()).error_description, /8 to 128 characters/);
  assert.equal(await signIn(client, "demo", password), 200);

  await mutate(client, `${ORIGIN}/auth/password/forgot`, { body: { email: "demo@example.com" } });
  const [again] = await outbox(client);
  const done = await client.fetch(`${ORIGIN}/auth/password/reset`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokenOf(again.url), password: "brand-new-password" }),
  });
  assert.equal(done.status, 200);
  await done.body?.cancel();
  // Every session of the user ended, this one included.
  assert.equal(await currentSession(client, ORIGIN), null);
  assert.equal(await signIn(client, "demo", password), 401);
  assert.equal(await signIn(client, "demo", "brand-new-password"), 200);
  assert.equal(await signIn(client, "demo@example.com", "brand-new-password"), 200);
});

Deno.test("email demo: sign-up with an address sends a verification link; a taken or bad address is refused", async () => {
  const { client } = await demoApp();
  const bad = await mutate(client, `${ORIGIN}/auth/signUp`, {
    body: { username: "ada", password: "analytical-engine", email: "not an address" },
  });
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error_description, /email/);
  const taken = await mutate(client, `${ORIGIN}/auth/signUp`, {
    body: { username: "ada", password: "analytical-engine", email: "DEMO@example.com" },
  });
  assert.equal(taken.status, 409);
  await taken.body?.cancel();

  const created = await mutate(client, `${ORIGIN}/auth/signUp`, {
    body: { username: "ada", password: "analytical-engine", email: "ada@example.com" },
  });
  assert.equal(created.status, 201);
  const { user } = await created.json();
  assert.equal(user.email, "ada@example.com");
  assert.equal(user.emailVerified, undefined);
  const [message] = await outbox(client);
  assert.equal(message.kind, "verify-email");
  assert.equal(message.to, "ada@example.com");
  const confirmed = await client.fetch(`${ORIGIN}/auth/callback/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokenOf(message.url) }),
  });
  assert.equal(confirmed.status, 200);
  await confirmed.body?.cancel();
  const session = await currentSession(client, ORIGIN);
  assert.ok(typeof session === "object" && session !== null);
  assert.equal(session.user.emailVerified, true);
  // A sign-up without an address still works, as before.
  const plain = await mutate(client, `${ORIGIN}/auth/signUp`, {
    body: { username: "grace", password: "compiler-1952" },
  });
  assert.equal(plain.status, 201);
  assert.equal((await plain.json()).user.email, undefined);
});

Deno.test("email demo: a change of address moves the account; another account's address is refused", async () => {
  const { client, browser, password } = await demoApp();
  const other = browser();
  const signedUp = await mutate(other, `${ORIGIN}/auth/signUp`, {
    body: { username: "ada", password: "analytical-engine", email: "ada@example.com" },
  });
  assert.equal(signedUp.status, 201);
  await signedUp.body?.cancel();

  assert.equal(await signIn(client, "demo", password), 200);
  await mutate(client, `${ORIGIN}/auth/email/change`, { body: { email: "ada@example.com" } });
  const [taken] = await outbox(client);
  assert.equal(taken.kind, "change-email");
  const refused = await client.fetch(`${ORIGIN}/auth/callback/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokenOf(taken.url) }),
  });
  assert.equal(refused.status, 409);
  await refused.body?.cancel();

  const asked = await mutate(client, `${ORIGIN}/auth/email/change`, {
    body: { email: "demo2@example.com" },
  });
  assert.equal(asked.status, 200);
  await asked.body?.cancel();
  const [change] = await outbox(client);
  assert.equal(change.to, "demo2@example.com");
  const confirmed = await client.fetch(`${ORIGIN}/auth/callback/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokenOf(change.url) }),
  });
  assert.equal(confirmed.status, 200);
  await confirmed.body?.cancel();
  const session = await currentSession(client, ORIGIN);
  assert.ok(typeof session === "object" && session !== null);
  assert.equal(session.user.email, "demo2@example.com");
  assert.equal(session.user.emailVerified, true);
  const [notice] = await outbox(client);
  assert.deepEqual([notice.kind, notice.to], ["email-changed", "demo@example.com"]);
  // The table follows: the new address signs in, the old one names nobody.
  assert.equal(await signIn(client, "demo2@example.com", password), 200);
  assert.equal(await signIn(client, "demo@example.com", password), 401);
});
