// Session renewal, the absolute cap (first issue + maxAge) and `expires`
// updates, with a controllable clock.
import assert from "node:assert/strict";
import {
  assertError,
  assertNoSession,
  Browser,
  Clock,
  makeAuth,
  setCookieLine,
} from "./_helpers.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";
const MAX_AGE = 3600;
const UPDATE_AGE = 600;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function setup() {
  const clock = new Clock();
  const start = clock.now;
  const auth = makeAuth({ clock: clock.fn, session: { maxAge: MAX_AGE, updateAge: UPDATE_AGE } });
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  const cap = new Date(start + MAX_AGE * 1000).toISOString();
  return { clock, start, auth, browser, cap, first: await response.json() };
}

function maxAgeOf(response: Response, name = SESSION): number {
  const line = setCookieLine(response, name);
  assert.ok(line, `no Set-Cookie for ${name}`);
  return Number(/; Max-Age=(\d+)/.exec(line)![1]);
}

function patch(browser: Browser, json: unknown): Promise<Response> {
  return browser.fetch("PATCH", "/auth/session", {
    json,
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
}

Deno.test("expires is an ISO 8601 UTC string at first issue + maxAge", async () => {
  const { first, cap } = await setup();
  assert.match(first.expires, ISO);
  assert.equal(first.expires, cap);
});

Deno.test("the session cookie's Max-Age at sign-in equals maxAge", async () => {
  const clock = new Clock();
  const auth = makeAuth({ clock: clock.fn, session: { maxAge: MAX_AGE, updateAge: UPDATE_AGE } });
  const response = await new Browser(auth.handlers.ALL).signIn();
  assert.equal(maxAgeOf(response), MAX_AGE);
});

Deno.test("GET /session before updateAge sets no cookie", async () => {
  const { clock, browser } = await setup();
  clock.advance(UPDATE_AGE - 1);
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(response.status, 200);
  assert.deepEqual(response.headers.getSetCookie(), []);
});

Deno.test("GET /session after updateAge sets a new cookie with the same expires", async () => {
  const { clock, browser, cap } = await setup();
  const before = browser.cookies.get(SESSION);
  clock.advance(UPDATE_AGE);
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(response.status, 200);
  assert.equal((await response.json()).expires, cap);
  const lines = response.headers.getSetCookie();
  assert.equal(lines.length, 1);
  assert.ok(browser.cookies.get(SESSION));
  assert.notEqual(browser.cookies.get(SESSION), before);
});

Deno.test("a renewed cookie's Max-Age equals the remaining lifetime", async () => {
  const { clock, browser } = await setup();
  clock.advance(1234);
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(maxAgeOf(response), MAX_AGE - 1234);
});

Deno.test("a renewed token is not renewed again before another updateAge", async () => {
  const { clock, browser } = await setup();
  clock.advance(UPDATE_AGE);
  await browser.fetch("GET", "/auth/session");
  clock.advance(UPDATE_AGE - 1);
  const response = await browser.fetch("GET", "/auth/session");
  assert.deepEqual(response.headers.getSetCookie(), []);
});

Deno.test("renewals never extend the session past first issue + maxAge", async () => {
  const { clock, browser, cap } = await setup();
  for (let elapsed = 0; elapsed + UPDATE_AGE < MAX_AGE; elapsed += UPDATE_AGE) {
    clock.advance(UPDATE_AGE);
    const response = await browser.fetch("GET", "/auth/session");
    assert.equal(response.status, 200);
    assert.equal((await response.json()).expires, cap);
  }
  clock.advance(MAX_AGE);
  await assertNoSession(await browser.fetch("GET", "/auth/session"));
});

Deno.test("the CSRF token stays valid across a renewal (same session id)", async () => {
  const { clock, browser } = await setup();
  clock.advance(UPDATE_AGE);
  await browser.fetch("GET", "/auth/session");
  const response = await patch(browser, { user: { name: "Renewed" } });
  assert.equal(response.status, 200);
});

Deno.test("PATCH never extends the session past first issue + maxAge", async () => {
  const { clock, start, browser, cap } = await setup();
  clock.advance(1000);
  const far = new Date(start + 10 * MAX_AGE * 1000).toISOString();
  const response = await patch(browser, { user: { name: "Later" }, expires: far });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).expires, cap);
  assert.equal(maxAgeOf(response), MAX_AGE - 1000);
});

Deno.test("PATCH without expires keeps expires and sets Max-Age to the remaining lifetime", async () => {
  const { clock, browser, cap } = await setup();
  clock.advance(100);
  const response = await patch(browser, { user: { name: "Same" } });
  assert.equal((await response.json()).expires, cap);
  assert.equal(maxAgeOf(response), MAX_AGE - 100);
});

Deno.test("an expires update shortens the session and Max-Age follows", async () => {
  const { start, browser } = await setup();
  const shorter = new Date(start + 1800 * 1000).toISOString();
  const response = await patch(browser, { expires: shorter });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).expires, shorter);
  assert.equal(maxAgeOf(response), 1800);
});

Deno.test("an expires update can only shorten: a later one keeps the earlier expiry", async () => {
  const { start, browser } = await setup();
  const shorter = new Date(start + 1800 * 1000).toISOString();
  await patch(browser, { expires: shorter });
  const later = new Date(start + 3000 * 1000).toISOString();
  const response = await patch(browser, { expires: later });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).expires, shorter);
});

Deno.test("a renewal keeps a shortened expiry", async () => {
  const { clock, start, browser } = await setup();
  const shorter = new Date(start + 1800 * 1000).toISOString();
  await patch(browser, { expires: shorter });
  clock.advance(UPDATE_AGE + 1);
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(response.status, 200);
  assert.equal((await response.json()).expires, shorter);
  assert.equal(maxAgeOf(response), 1800 - UPDATE_AGE - 1);
});

Deno.test("a shortened session ends at its expires", async () => {
  const { clock, start, browser } = await setup();
  const shorter = new Date(start + 1800 * 1000).toISOString();
  await patch(browser, { expires: shorter });
  clock.advance(1800);
  await assertNoSession(await browser.fetch("GET", "/auth/session"));
});

Deno.test("a shortened session ends at its expires on an instance that never saw it", async () => {
  const { clock, start, browser } = await setup();
  const shorter = new Date(start + 1800 * 1000).toISOString();
  await patch(browser, { expires: shorter });
  clock.advance(1801);
  const fresh = makeAuth({ clock: clock.fn, session: { maxAge: MAX_AGE, updateAge: UPDATE_AGE } });
  const request = new Request("http://localhost:8000/auth/session", {
    headers: { Cookie: browser.cookieHeader() },
  });
  assert.equal(await fresh.api.getSession(request), null);
  await assertNoSession(await fresh.handlers.ALL(request));
});

Deno.test("an expires update in the past or not a date is 400 and changes nothing", async () => {
  const { start, browser, cap } = await setup();
  for (const expires of [new Date(start - 1000).toISOString(), "tomorrow", 12345, ""]) {
    await assertError(await patch(browser, { expires }), 400, "invalid_request");
  }
  assert.equal((await (await browser.fetch("GET", "/auth/session")).json()).expires, cap);
});

Deno.test("after maxAge GET /session is 200 null and clears the session cookie", async () => {
  const { clock, browser } = await setup();
  clock.advance(MAX_AGE);
  const response = await browser.fetch("GET", "/auth/session");
  await assertNoSession(response);
  assert.equal(
    setCookieLine(response, SESSION),
    `${SESSION}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax`,
  );
  assert.equal(browser.cookies.has(SESSION), false);
});

Deno.test("after maxAge an instance that never saw the token refuses it too", async () => {
  const { clock, browser } = await setup();
  clock.advance(MAX_AGE);
  const fresh = makeAuth({ clock: clock.fn, session: { maxAge: MAX_AGE, updateAge: UPDATE_AGE } });
  const request = new Request("http://localhost:8000/auth/session", {
    headers: { Cookie: browser.cookieHeader() },
  });
  assert.equal(await fresh.api.getSession(request), null);
});

Deno.test("after maxAge PATCH is refused: 403 for the CSRF token bound to the dead session, then 401", async () => {
  const { clock, browser } = await setup();
  clock.advance(MAX_AGE + 1);
  // CSRF is checked before the session: the old token is bound to a session that no longer counts.
  await assertError(await patch(browser, { user: { name: "Late" } }), 403, "invalid_csrf_token");
  await browser.csrf();
  await assertError(await patch(browser, { user: { name: "Late" } }), 401, "invalid_session_token");
});

Deno.test("api.updateSession never extends past first issue + maxAge", async () => {
  const { clock, start, auth, browser, cap } = await setup();
  clock.advance(500);
  const request = new Request("http://localhost:8000/", {
    headers: { Cookie: browser.cookieHeader() },
  });
  const far = new Date(start + 100 * MAX_AGE * 1000).toISOString();
  const session = await auth.api.updateSession(request, { name: "Api" }, { expires: far });
  assert.equal(session?.expires, cap);
});
