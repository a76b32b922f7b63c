// The main user journeys through the handlers, called as functions.
import assert from "node:assert/strict";
import { ADA, Browser, makeAuth } from "./_helpers.ts";

Deno.test("credentials sign-in returns the session and sets session and CSRF cookies", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(body.user, ADA);
  assert.match(body.expires, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(browser.cookies.has("service-stack.session_token"));
  assert.ok(browser.cookies.has("service-stack.csrf_token"));
});

Deno.test("GET /session returns the signed-in user", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("Cache-Control"), "no-store");
  assert.deepEqual((await response.json()).user, ADA);
});

Deno.test("PATCH /session updates the name and keeps the user signed in", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const token = await browser.csrf();
  const response = await browser.fetch("PATCH", "/auth/session", {
    json: { user: { name: "Ada Lovelace" } },
    headers: { "X-CSRF-Token": token },
  });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).user.name, "Ada Lovelace");
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.name, "Ada Lovelace");
  assert.equal(session.user.sub, ADA.sub);
});

Deno.test("sign-up creates the user and answers 201 with the session", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  const response = await browser.fetch("POST", "/auth/signUp", {
    json: { name: "Linus" },
    headers: { "X-CSRF-Token": token },
  });
  assert.equal(response.status, 201);
  assert.deepEqual((await response.json()).user, { sub: "new-user", name: "Linus" });
});

Deno.test("sign-out clears the session and CSRF cookies", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const token = await browser.csrf();
  const response = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": token },
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ok: true });
  assert.ok(!browser.cookies.has("service-stack.session_token"));
  assert.ok(!browser.cookies.has("service-stack.csrf_token"));
  const after = await browser.fetch("GET", "/auth/session");
  assert.equal(after.status, 200);
  assert.equal(await after.json(), null);
});

Deno.test("api.getSession reads the session cookie and returns null without one", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const request = new Request("http://localhost:8000/", {
    headers: { Cookie: browser.cookieHeader() },
  });
  assert.deepEqual((await auth.api.getSession(request))?.user, ADA);
  assert.equal(await auth.api.getSession(new Request("http://localhost:8000/")), null);
  const garbage = new Request("http://localhost:8000/", {
    headers: { Cookie: "service-stack.session_token=%%%" },
  });
  assert.equal(await auth.api.getSession(garbage), null);
});
