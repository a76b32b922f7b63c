// The /twoFactor routes: enroll, confirm, verify, disable, their refusals, and the fail-closed
// answers for a stored value the library did not seal or a save that throws.
import assert from "node:assert/strict";
import { memoryStore } from "../../mod.ts";
import { signInAs } from "../../testing.ts";
import { assertError, bioSchema, makeAuth } from "../server/_helpers.ts";
import {
  ADA,
  assertPending,
  Browser,
  codeAt,
  enroll,
  nextStep,
  post,
  SESSION_COOKIE,
  sessionOf,
  TWO_FACTOR_COOKIE,
  verify,
  world,
} from "./_world.ts";

/** A browser of `w` with a pending sign-in for Ada (credentials). */
async function pendingBrowser(w: ReturnType<typeof world>): Promise<Browser> {
  const browser = w.browser();
  const response = await browser.signIn();
  assert.deepEqual(await response.json(), { twoFactorRequired: true });
  return browser;
}

Deno.test("enroll answers the secret and an otpauth URI with the issuer; confirm saves a sealed factor", async () => {
  const w = world();
  const browser = w.browser();
  await browser.signIn();
  const started = await post(browser, "/auth/twoFactor/enroll");
  assert.equal(started.status, 200);
  assert.equal(started.headers.get("Cache-Control"), "no-store");
  const { secret, uri } = await started.json();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.equal(
    uri,
    `otpauth://totp/Test%20App:ada%40example.com?secret=${secret}&issuer=Test%20App&algorithm=SHA1&digits=6&period=30`,
  );
  assert.ok(browser.cookies.has(TWO_FACTOR_COOKIE));
  assert.equal(w.records.size, 0, "nothing is saved before confirm");
  const confirmed = await post(browser, "/auth/twoFactor/confirm", {
    code: await codeAt(w, secret),
  });
  assert.equal(confirmed.status, 200);
  const { backupCodes } = await confirmed.json();
  assert.equal(backupCodes.length, 10);
  assert.ok(!browser.cookies.has(TWO_FACTOR_COOKIE), "the enrollment cookie is cleared");
  const stored = w.records.get(ADA.sub)!;
  // Opaque: a JWE, with neither the secret nor any backup code readable in it.
  assert.equal(stored.split(".").length, 5);
  assert.ok(!stored.includes(secret));
  for (const code of backupCodes) assert.ok(!stored.includes(code.replace("-", "")));
});

Deno.test("enroll needs a session signed in within 10 minutes, CSRF, and no factor yet", async () => {
  const w = world();
  const anonymous = w.browser();
  await assertError(await post(anonymous, "/auth/twoFactor/enroll"), 401, "invalid_session_token");
  const browser = w.browser();
  await browser.signIn();
  await assertError(
    await browser.fetch("POST", "/auth/twoFactor/enroll"),
    403,
    "invalid_csrf_token",
  );
  w.clock.advance(601);
  await assertError(await post(browser, "/auth/twoFactor/enroll"), 403, "access_denied");
  await enroll(w);
  const again = w.browser();
  await again.signIn(); // pending now: no session, so enroll is refused as anonymous
  await assertError(await post(again, "/auth/twoFactor/enroll"), 401, "invalid_session_token");
});

Deno.test("enroll is refused while a factor is saved (replacing it would skip disable's code)", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = await pendingBrowser(w);
  assert.equal((await verify(browser, { code: await codeAt(w, secret) })).status, 200);
  await assertError(await post(browser, "/auth/twoFactor/enroll"), 400, "invalid_request");
});

Deno.test("confirm refuses a wrong code, another user's enrollment cookie and bad input", async () => {
  const w = world();
  const browser = w.browser();
  await browser.signIn();
  const { secret } = await (await post(browser, "/auth/twoFactor/enroll")).json();
  const wrong = (Number(await codeAt(w, secret)) + 1) % 1_000_000;
  for (
    const code of [String(wrong).padStart(6, "0"), "abcdef", "12345", "１２３４５６", "١٢٣٤٥٦"]
  ) {
    await assertError(
      await post(browser, "/auth/twoFactor/confirm", { code }),
      400,
      "invalid_grant",
    );
  }
  await assertError(
    await post(browser, "/auth/twoFactor/confirm", { code: 123456 }),
    400,
    "invalid_request",
  );
  await assertError(
    await post(browser, "/auth/twoFactor/confirm", { code: "123456", extra: 1 }),
    400,
    "invalid_request",
  );
  // The enrollment cookie moved to another signed-in user's browser is refused there.
  const cookie = browser.cookies.get(TWO_FACTOR_COOKIE)!;
  const carol = w.browser();
  for (const pair of (await signInAs(w.auth, { sub: "carol" })).split("; ")) {
    const index = pair.indexOf("=");
    carol.cookies.set(pair.slice(0, index), pair.slice(index + 1));
  }
  carol.cookies.set(TWO_FACTOR_COOKIE, cookie);
  await assertError(
    await post(carol, "/auth/twoFactor/confirm", { code: await codeAt(w, secret) }),
    400,
    "invalid_grant",
  );
  assert.equal(w.records.get("carol"), undefined);
});

Deno.test("verify: a wrong code keeps the pending sign-in; bad input is 400 and never 5xx", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = await pendingBrowser(w);
  const right = await codeAt(w, secret);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
  for (const code of [wrong, "abcdef", "12345", "1234567", "١٢٣٤٥٦"]) {
    await assertError(await verify(browser, { code }), 400, "invalid_grant");
    assert.ok(browser.cookies.has(TWO_FACTOR_COOKIE), "a wrong code keeps the cookie");
    // Each try counts: start a fresh pending sign-in before the fifth.
    if (code === "12345") {
      await browser.signIn();
    }
  }
  for (const answer of [{ code: 123456 }, {}, { code: right, backupCode: "x" }, { other: 1 }]) {
    const response = await verify(browser, answer);
    assert.equal(response.status, 400);
    assert.equal((await response.json()).error, "invalid_request");
  }
  const done = await verify(browser, { code: right });
  assert.equal(done.status, 200);
  assert.ok(!browser.cookies.has(TWO_FACTOR_COOKIE), "the cookie is cleared on success");
});

Deno.test("verify: a code two steps away and a reused code are refused", async () => {
  const w = world();
  const { secret } = await enroll(w);
  for (const offset of [-2, 2]) {
    const browser = await pendingBrowser(w);
    await assertError(
      await verify(browser, { code: await codeAt(w, secret, offset) }),
      400,
      "invalid_grant",
    );
  }
  const first = await pendingBrowser(w);
  const code = await codeAt(w, secret);
  assert.equal((await verify(first, { code })).status, 200);
  const second = await pendingBrowser(w);
  await assertError(await verify(second, { code }), 400, "invalid_grant");
  // The previous and next steps are accepted (clock drift), each once.
  const early = await pendingBrowser(w);
  assert.equal((await verify(early, { code: await codeAt(w, secret, 1) })).status, 200);
});

Deno.test("verify: the sixth try ends the pending sign-in (429, cookie cleared) even with the right code", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = await pendingBrowser(w);
  const cookie = browser.cookies.get(TWO_FACTOR_COOKIE)!;
  for (let i = 0; i < 5; i++) {
    await assertError(await verify(browser, { code: "000000" }), 400, "invalid_grant");
  }
  const response = await verify(browser, { code: await codeAt(w, secret) });
  await assertError(response, 429, "access_denied");
  assert.ok(!browser.cookies.has(TWO_FACTOR_COOKIE));
  // Replaying the cookie does not reset the count.
  browser.cookies.set(TWO_FACTOR_COOKIE, cookie);
  await assertError(await verify(browser, { code: await codeAt(w, secret) }), 429, "access_denied");
  assert.equal(await sessionOf(browser), null);
});

Deno.test("verify: a backup code works once; the factor is saved without it", async () => {
  const w = world();
  const { backupCodes } = await enroll(w);
  const before = w.records.get(ADA.sub);
  const browser = await pendingBrowser(w);
  const done = await verify(browser, { backupCode: backupCodes[0].toUpperCase() });
  assert.equal(done.status, 200);
  assert.equal((await done.json()).user.sub, ADA.sub);
  assert.notEqual(w.records.get(ADA.sub), before, "the factor was saved again");
  const again = await pendingBrowser(w);
  await assertError(await verify(again, { backupCode: backupCodes[0] }), 400, "invalid_grant");
  assert.equal((await verify(again, { backupCode: backupCodes[1] })).status, 200);
});

Deno.test("verify: a tampered, missing, expired or replayed cookie is 400 invalid_grant and cleared", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = await pendingBrowser(w);
  const cookie = browser.cookies.get(TWO_FACTOR_COOKIE)!;
  browser.cookies.set(
    TWO_FACTOR_COOKIE,
    cookie.slice(0, -2) + (cookie.endsWith("A") ? "BB" : "AA"),
  );
  await assertError(await verify(browser, { code: await codeAt(w, secret) }), 400, "invalid_grant");
  assert.ok(!browser.cookies.has(TWO_FACTOR_COOKIE));
  await assertError(await verify(browser, { code: await codeAt(w, secret) }), 400, "invalid_grant");
  // Replayed after success: no second session.
  browser.cookies.set(TWO_FACTOR_COOKIE, cookie);
  assert.equal((await verify(browser, { code: await codeAt(w, secret) })).status, 200);
  nextStep(w);
  const thief = w.browser();
  thief.cookies.set(TWO_FACTOR_COOKIE, cookie);
  await assertError(await verify(thief, { code: await codeAt(w, secret) }), 400, "invalid_grant");
  // Expired after five minutes.
  const late = await pendingBrowser(w);
  w.clock.advance(301);
  await assertError(await verify(late, { code: await codeAt(w, secret) }), 400, "invalid_grant");
  assert.equal(await sessionOf(late), null);
});

Deno.test("verify: one user's pending sign-in does not take another user's code", async () => {
  const users = new Map([["ada", ADA], ["bob", { sub: "user-2", name: "Bob" }]]);
  const w = world({
    config: {
      credentials: {
        authorize: ({ username, password }) =>
          password === "correct horse" ? users.get(username) ?? null : null,
      },
    },
  });
  const { secret: adaSecret } = await enroll(w);
  // Bob enrolls too.
  const bobBrowser = w.browser();
  let csrf = await bobBrowser.csrf();
  await bobBrowser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "bob", password: "correct horse" },
    headers: { "X-CSRF-Token": csrf },
  });
  const { secret: bobSecret } = await (await post(bobBrowser, "/auth/twoFactor/enroll")).json();
  await post(bobBrowser, "/auth/twoFactor/confirm", { code: await codeAt(w, bobSecret) });
  nextStep(w);
  const browser = w.browser();
  csrf = await browser.csrf();
  await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "bob", password: "correct horse" },
    headers: { "X-CSRF-Token": csrf },
  });
  await assertPending(browser, new Response());
  await assertError(
    await verify(browser, { code: await codeAt(w, adaSecret) }),
    400,
    "invalid_grant",
  );
  const done = await verify(browser, { code: await codeAt(w, bobSecret) });
  assert.equal((await done.json()).user.sub, "user-2");
});

Deno.test("verify needs CSRF", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = await pendingBrowser(w);
  const response = await browser.fetch("POST", "/auth/twoFactor/verify", {
    json: { code: await codeAt(w, secret) },
  });
  await assertError(response, 403, "invalid_csrf_token");
});

Deno.test("the form post of a wrong code shows the form again with a message; too many ends it", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = await pendingBrowser(w);
  for (let i = 0; i < 5; i++) {
    const csrf = await browser.csrf();
    const response = await browser.fetch("POST", "/auth/twoFactor/verify", {
      form: { code: "000000", csrfToken: csrf },
    });
    assert.equal(response.status, 400);
    const html = await response.text();
    assert.match(html, /That code is not right/);
    assert.doesNotMatch(html, /000000/);
  }
  const csrf = await browser.csrf();
  const over = await browser.fetch("POST", "/auth/twoFactor/verify", {
    form: { code: await codeAt(w, secret), csrfToken: csrf },
    headers: { Accept: "text/html" },
  });
  assert.equal(over.status, 429);
  assert.ok(!browser.cookies.has(TWO_FACTOR_COOKIE));
  assert.equal(await sessionOf(browser), null);
});

Deno.test("GET /twoFactor without a pending sign-in is a failure page; pages.twoFactor moves the redirect", async () => {
  const w = world({ config: { pages: { twoFactor: "/second-step" } } });
  const page = await w.browser().fetch("GET", "/auth/twoFactor", {
    headers: { Accept: "text/html" },
  });
  assert.equal(page.status, 400);
  await enroll(w);
  const browser = w.browser();
  const csrf = await browser.csrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials?redirect=true", {
    form: { username: "ada", password: "correct horse", csrfToken: csrf },
  });
  assert.equal(response.headers.get("Location"), "/second-step");
});

Deno.test("disable needs a session, CSRF and a current code; then sign-in needs no second step", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const browser = await pendingBrowser(w);
  assert.equal((await verify(browser, { code: await codeAt(w, secret) })).status, 200);
  nextStep(w);
  await assertError(
    await post(w.browser(), "/auth/twoFactor/disable", { code: await codeAt(w, secret) }),
    401,
    "invalid_session_token",
  );
  await assertError(
    await browser.fetch("POST", "/auth/twoFactor/disable", { json: { code: "000000" } }),
    403,
    "invalid_csrf_token",
  );
  await assertError(
    await post(browser, "/auth/twoFactor/disable", { code: "000000" }),
    400,
    "invalid_grant",
  );
  assert.ok(w.records.get(ADA.sub));
  const done = await post(browser, "/auth/twoFactor/disable", { code: await codeAt(w, secret) });
  assert.equal(done.status, 200);
  assert.deepEqual(await done.json(), { ok: true });
  assert.equal(w.records.get(ADA.sub), null);
  const after = await w.browser().signIn();
  assert.equal((await after.json()).user.sub, ADA.sub);
});

Deno.test("a stored value the library did not seal fails closed: 500, logged, no session", async () => {
  const w0 = world({ config: { secret: "another-secret-0123456789abcdef-0123456789abcdef" } });
  await enroll(w0);
  const otherKey = w0.records.get(ADA.sub)!; // Ada's, sealed under another instance's key
  for (const value of ["off", "", "eyJhbGciOiJub25lIn0.e30.", 0, false, {}, otherKey]) {
    const w = world({ load: () => value });
    const browser = w.browser();
    const response = await browser.signIn();
    await assertError(response, 500, "server_error");
    assert.ok(!response.headers.getSetCookie().some((l) => l.startsWith(SESSION_COOKIE)));
    assert.ok(!browser.cookies.has(TWO_FACTOR_COOKIE));
    assert.ok(
      w.logs.some((entry) => entry.level === "error" && /two-factor/.test(entry.message)),
      `not logged for ${JSON.stringify(value)}`,
    );
  }
});

Deno.test("another user's sealed factor (same key) is refused, never two-factor off", async () => {
  const w = world();
  await enroll(w);
  const ada = w.records.get(ADA.sub)!;
  w.records.set("user-2", ada);
  const users = new Map([["bob", { sub: "user-2", name: "Bob" }]]);
  const w2 = world({
    clock: w.clock,
    load: (sub) => w.records.get(sub) ?? null,
    config: {
      credentials: {
        authorize: ({ username }) => users.get(username) ?? null,
      },
    },
  });
  const browser = w2.browser();
  const csrf = await browser.csrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "bob", password: "x" },
    headers: { "X-CSRF-Token": csrf },
  });
  await assertError(response, 500, "server_error");
});

Deno.test("a save that throws: no session, 500, nothing saved", async () => {
  let fail = false;
  const records = new Map<string, string | null>();
  const w = world({
    load: (sub) => records.get(sub) ?? null,
    save: (sub, value) => {
      if (fail) throw new Error("database down");
      records.set(sub, value);
    },
  });
  const browser = w.browser();
  await browser.signIn();
  const { secret } = await (await post(browser, "/auth/twoFactor/enroll")).json();
  fail = true;
  await assertError(
    await post(browser, "/auth/twoFactor/confirm", { code: await codeAt(w, secret) }),
    500,
    "server_error",
  );
  assert.equal(records.size, 0);
  fail = false;
  nextStep(w);
  const { backupCodes } = await (await post(browser, "/auth/twoFactor/confirm", {
    code: await codeAt(w, secret),
  })).json();
  const saved = records.get(ADA.sub);
  fail = true;
  const pending = await pendingBrowser(w);
  await assertError(await verify(pending, { backupCode: backupCodes[0] }), 500, "server_error");
  assert.equal(await sessionOf(pending), null);
  assert.equal(records.get(ADA.sub), saved);
});

Deno.test("no code, secret or backup code appears in a log entry or an error", async () => {
  const w = world();
  const { secret, backupCodes } = await enroll(w);
  const browser = await pendingBrowser(w);
  const wrong = "987654";
  const texts: string[] = [];
  texts.push(await (await verify(browser, { code: wrong })).text());
  texts.push(await (await verify(browser, { backupCode: "zzzzz-zzzzz" })).text());
  const right = await codeAt(w, secret);
  texts.push(await (await verify(browser, { code: right })).text());
  const logged = JSON.stringify(w.logs);
  for (const secretText of [wrong, "zzzzz", right, secret, ...backupCodes]) {
    assert.ok(!logged.includes(secretText), `logged: ${secretText}`);
    for (const text of texts.slice(0, 2)) assert.ok(!text.includes(secretText));
  }
});

Deno.test("without twoFactor the routes are 404 and the config is checked", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  for (
    const path of ["twoFactor/enroll", "twoFactor/confirm", "twoFactor/verify", "twoFactor/disable"]
  ) {
    assert.equal((await post(browser, `/auth/${path}`, {})).status, 404);
  }
  assert.equal((await browser.fetch("GET", "/auth/twoFactor")).status, 404);
  assert.throws(() => makeAuth({ twoFactor: { load: () => null } as never }), TypeError);
  assert.throws(
    () => makeAuth({ twoFactor: { load: () => null, save: () => {}, issuer: "a:b" } }),
    TypeError,
  );
  assert.throws(() => makeAuth({ pages: { twoFactor: "//evil.example" } }), TypeError);
});

Deno.test("a shared store: a code used on one instance is refused on another (memory store shared)", async () => {
  const store = memoryStore();
  const records = new Map<string, string | null>();
  const options = {
    store,
    load: (sub: string) => records.get(sub) ?? null,
    save: (sub: string, value: string | null) => void records.set(sub, value),
  };
  const a = world(options);
  const b = world({ ...options, clock: a.clock });
  const { secret } = await enroll(a);
  const code = await codeAt(a, secret);
  assert.equal((await verify(await pendingBrowser(a), { code })).status, 200);
  await assertError(await verify(await pendingBrowser(b), { code }), 400, "invalid_grant");
});

Deno.test("a load that throws fails closed: 500 server_error, no session, no pending cookie", async () => {
  const w = world({
    load: () => {
      throw new Error("database down");
    },
  });
  const browser = w.browser();
  const response = await browser.signIn();
  await assertError(response, 500, "server_error");
  assert.ok(!browser.cookies.has(SESSION_COOKIE));
  assert.ok(!browser.cookies.has(TWO_FACTOR_COOKIE));
});

Deno.test("a lone asymmetric signing key cannot seal factors: createAuth refuses twoFactor", async () => {
  const pair = await crypto.subtle.generateKey(
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign", "verify"],
  );
  const twoFactor = { load: () => null, save: () => {} };
  assert.throws(
    () => makeAuth({ secret: pair, jwt: { mode: "signed" }, twoFactor }),
    /twoFactor needs values nobody can read/,
  );
  // The same key without twoFactor is accepted: the refusal is about two-factor alone.
  makeAuth({ secret: pair, jwt: { mode: "signed" } });
});

Deno.test("verify: twenty tries per user in 15 minutes across pending sign-ins, then 429 with any code", async () => {
  const w = world();
  const { secret } = await enroll(w);
  for (let pending = 0; pending < 4; pending++) {
    const browser = await pendingBrowser(w);
    for (let i = 0; i < 5; i++) {
      await assertError(await verify(browser, { code: "000000" }), 400, "invalid_grant");
    }
  }
  // A fresh pending sign-in (the password is known) gets no more guesses.
  const browser = await pendingBrowser(w);
  await assertError(await verify(browser, { code: await codeAt(w, secret) }), 429, "access_denied");
  assert.equal(await sessionOf(browser), null);
});

Deno.test("a large user's pending sign-in is kept in chunks and still finishes", async () => {
  const big = { ...ADA, bio: "x".repeat(6000) };
  const w = world({
    config: {
      identity: { schema: bioSchema() },
      credentials: { authorize: () => big },
    },
  });
  const { secret } = await enroll(w);
  const browser = w.browser();
  const response = await browser.signIn();
  assert.deepEqual(await response.json(), { twoFactorRequired: true });
  for (const line of response.headers.getSetCookie()) {
    assert.ok(new TextEncoder().encode(line).length <= 4096, "each Set-Cookie line fits");
  }
  assert.ok([...browser.cookies.keys()].filter((name) => name.includes("two_factor")).length > 1);
  const done = await verify(browser, { code: await codeAt(w, secret) });
  assert.equal(done.status, 200);
  assert.equal((await done.json()).user.bio, big.bio);
  assert.ok(![...browser.cookies.keys()].some((name) => name.includes("two_factor")));
});
