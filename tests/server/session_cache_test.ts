// The verified-token cache: bounded, and never grants what the token no longer grants.
import assert from "node:assert/strict";
import { SESSION_CACHE_ENTRIES, SessionCache } from "../../src/session_cache.ts";
import { ADA, Browser, Clock, makeAuth } from "./_helpers.ts";

Deno.test("the session cache keeps at most SESSION_CACHE_ENTRIES tokens, evicting the oldest", () => {
  const cache = new SessionCache();
  for (let i = 0; i < SESSION_CACHE_ENTRIES + 10; i++) cache.set(`token-${i}`, { exp: 100 });
  assert.equal(cache.size, SESSION_CACHE_ENTRIES);
  assert.equal(cache.get("token-0", 1), undefined);
  assert.deepEqual(cache.get(`token-${SESSION_CACHE_ENTRIES + 9}`, 1), { exp: 100 });
});

Deno.test("a cached token past its exp is refused and dropped", () => {
  const cache = new SessionCache();
  cache.set("t", { exp: 100 });
  assert.ok(cache.get("t", 99));
  assert.equal(cache.get("t", 100), undefined);
  assert.equal(cache.size, 0);
});

Deno.test("a cached token's serialized session is computed once and reused", () => {
  const cache = new SessionCache();
  const kept = cache.set("t", { exp: 100, sub: "a" });
  let calls = 0;
  const serialize = (payload: { sub?: string }) => `${payload.sub}-${++calls}`;
  assert.equal(cache.serialized("t", kept, serialize), "a-1");
  assert.equal(cache.serialized("t", kept, serialize), "a-1");
  assert.equal(calls, 1);
});

Deno.test("a payload other than the cached one, or an uncached token, is serialized every time", () => {
  const cache = new SessionCache();
  const kept = cache.set("t", { exp: 100, sub: "a" });
  let calls = 0;
  const serialize = () => String(++calls);
  cache.serialized("t", { ...kept, sub: "b" }, serialize);
  cache.serialized("t", { ...kept, sub: "b" }, serialize);
  cache.serialized("other", kept, serialize);
  assert.equal(calls, 3);
  cache.delete("t");
  cache.serialized("t", kept, serialize);
  assert.equal(calls, 4);
});

Deno.test("a session update is served fresh, never the earlier session's cached text", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  assert.equal((await (await browser.fetch("GET", "/auth/session")).json()).user.name, ADA.name);
  await browser.fetch("GET", "/auth/session"); // second read: served from the cached text
  const updated = await browser.fetch("POST", "/auth/session", {
    json: { user: { name: "Grace" } },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  assert.equal(updated.status, 200);
  assert.equal((await (await browser.fetch("GET", "/auth/session")).json()).user.name, "Grace");
});

Deno.test("a session read from the cache still ends at its expiry", async () => {
  const clock = new Clock();
  const auth = makeAuth({ clock: clock.fn, session: { maxAge: 3600, updateAge: 3599 } });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn(); // the issuing instance caches the new token
  assert.equal((await browser.fetch("GET", "/auth/session")).status, 200);
  clock.advance(3600);
  const expired = await browser.fetch("GET", "/auth/session");
  assert.equal(expired.status, 200);
  assert.equal(await expired.json(), null);
});

Deno.test("fields authorize returns beyond sub, name, email and image never enter the session", async () => {
  const auth = makeAuth({
    jwt: { mode: "signed" },
    credentials: {
      authorize: () => ({ ...ADA, passwordHash: "$pbkdf2-sha256$secret", role: "admin" }),
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.signIn();
  assert.deepEqual((await response.json()).user, ADA);
  // In signed mode the payload is readable: the hash must not be in it.
  const token = browser.cookies.get("service-stack.session_token")!;
  const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
  assert.equal(payload.passwordHash, undefined);
  assert.equal(payload.role, undefined);
});
