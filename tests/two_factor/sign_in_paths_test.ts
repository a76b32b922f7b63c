// Every first factor of an enrolled user stops at the second step: no session, a sealed
// two_factor cookie, `{ twoFactorRequired: true }` for JSON or a 302 to the second-step page;
// POST /twoFactor/verify then makes the session. One test per sign-in path (docs/two-factor.md table).
import assert from "node:assert/strict";
import {
  ADA,
  assertPending,
  codeAt,
  enroll,
  oauthCallback,
  post,
  sessionOf,
  verify,
  world,
} from "./_world.ts";

async function signedInWithCode(
  w: ReturnType<typeof world>,
  browser: ReturnType<ReturnType<typeof world>["browser"]>,
  secret: string,
): Promise<void> {
  const done = await verify(browser, { code: await codeAt(w, secret) });
  assert.equal(done.status, 200, await done.clone().text());
  assert.equal((await done.json()).user.sub, ADA.sub);
  assert.equal((await sessionOf(browser))?.user.sub, ADA.sub);
}

Deno.test("path: credentials JSON answers { twoFactorRequired: true } and no session", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = w.browser();
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { twoFactorRequired: true });
  await assertPending(browser, response);
  await signedInWithCode(w, browser, secret);
});

Deno.test("path: credentials form post (redirect=true) goes to the built-in page, then to its target", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = w.browser();
  const csrf = await browser.csrf();
  const response = await browser.fetch(
    "POST",
    "/auth/signIn/credentials?redirect=true&redirectTo=%2Faccount",
    { form: { username: "ada", password: "correct horse", csrfToken: csrf } },
  );
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/auth/twoFactor");
  await assertPending(browser, response);
  const page = await browser.fetch("GET", "/auth/twoFactor");
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<form method="post" action="\/auth\/twoFactor\/verify">/);
  assert.doesNotMatch(html, /<script/i);
  const token = /name="csrfToken" value="([^"]+)"/.exec(html)![1];
  const done = await browser.fetch("POST", "/auth/twoFactor/verify", {
    form: { code: await codeAt(w, secret), csrfToken: token },
  });
  assert.equal(done.status, 302);
  assert.equal(done.headers.get("Location"), "/account");
  assert.equal((await sessionOf(browser))?.user.sub, ADA.sub);
});

Deno.test('path: api.signIn("credentials") answers { twoFactorRequired: true } and no session', async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = w.browser();
  const response = await w.auth.api.signIn("credentials", {
    request: new Request("http://localhost:8000/app/login", { method: "POST" }),
    credentials: { username: "ada", password: "correct horse" },
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { twoFactorRequired: true });
  browser.store(response);
  await assertPending(browser, response);
  await signedInWithCode(w, browser, secret);
});

for (
  const [name, id] of [
    ["OAuth GET callback", "mock"],
    ["OIDC callback", "oidc"],
    ["form_post POST callback", "post"],
  ] as const
) {
  Deno.test(`path: ${name} redirects to the second step, then lands on its target`, async () => {
    const w = world();
    const { secret } = await enroll(w);
    const browser = w.browser();
    const response = await oauthCallback(w, browser, id);
    assert.equal(response.status, 302, await response.clone().text());
    assert.equal(response.headers.get("Location"), "/auth/twoFactor");
    await assertPending(browser, response);
    const page = await browser.fetch("GET", "/auth/twoFactor");
    const token = /name="csrfToken" value="([^"]+)"/.exec(await page.text())![1];
    const done = await browser.fetch("POST", "/auth/twoFactor/verify", {
      form: { code: await codeAt(w, secret), csrfToken: token },
    });
    assert.equal(done.status, 302);
    assert.equal(done.headers.get("Location"), "/home");
    assert.equal((await sessionOf(browser))?.user.sub, ADA.sub);
  });
}

Deno.test("path: email link (JSON and form post) stops at the second step", async () => {
  const w = world();
  const { secret } = await enroll(w);
  for (const form of [false, true]) {
    const asker = w.browser();
    assert.equal((await post(asker, "/auth/signIn/email", { email: ADA.email })).status, 200);
    const token = new URL(w.outbox.last().url).searchParams.get("token")!;
    const browser = w.browser();
    const response = form
      ? await browser.fetch("POST", "/auth/callback/email", { form: { token } })
      : await browser.fetch("POST", "/auth/callback/email", { json: { token } });
    if (form) {
      assert.equal(response.status, 302);
      assert.equal(response.headers.get("Location"), "/auth/twoFactor");
    } else {
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { twoFactorRequired: true });
    }
    await assertPending(browser, response);
    await signedInWithCode(w, browser, secret);
    w.clock.advance(30);
  }
});

Deno.test("path: email code stops at the second step", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = w.browser();
  assert.equal((await post(browser, "/auth/signIn/email", { email: ADA.email })).status, 200);
  const response = await browser.fetch("POST", "/auth/callback/email", {
    json: { code: w.outbox.last().code },
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { twoFactorRequired: true });
  await assertPending(browser, response);
  await signedInWithCode(w, browser, secret);
});

Deno.test("without two-factor for the user every path signs in directly", async () => {
  const w = world();
  const browser = w.browser();
  const response = await browser.signIn();
  assert.equal((await response.json()).user.sub, ADA.sub);
  const oauth = await oauthCallback(w, w.browser(), "oidc");
  assert.equal(oauth.headers.get("Location"), "/home");
  assert.ok(oauth.headers.getSetCookie().some((line) => line.includes("session_token=")));
});

Deno.test("path: sign-up whose onCreateUser answers with an enrolled account stops at the second step", async () => {
  // An app whose sign-up hook hands back an existing account must not open it without its code.
  const w = world({ config: { signUp: { onCreateUser: () => ADA } } });
  const { secret } = await enroll(w);
  const browser = w.browser();
  const response = await post(browser, "/auth/signUp", { name: "Ada" });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { twoFactorRequired: true });
  await assertPending(browser, response);
  await signedInWithCode(w, browser, secret);
});
