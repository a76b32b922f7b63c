import assert from "node:assert/strict";
import { CookieJar, parseSetCookie } from "./cookie_jar.ts";

const ORIGIN = "http://127.0.0.1:8000";

Deno.test("a cookie is sent back to the host that set it", () => {
  const jar = new CookieJar();
  jar.storeHeader("sid=abc; Path=/", `${ORIGIN}/auth/callback`);
  assert.equal(jar.header(`${ORIGIN}/anything`), "sid=abc");
  assert.equal(jar.header("http://127.0.0.2:8000/"), "");
});

Deno.test("a cookie without Path defaults to the request's directory", () => {
  const jar = new CookieJar();
  jar.storeHeader("state=1", `${ORIGIN}/auth/signin/mock`);
  assert.equal(jar.header(`${ORIGIN}/auth/signin/other`), "state=1");
  assert.equal(jar.header(`${ORIGIN}/auth/session`), "");
});

Deno.test("Path matches whole segments only", () => {
  const jar = new CookieJar();
  jar.storeHeader("a=1; Path=/auth", ORIGIN);
  assert.equal(jar.header(`${ORIGIN}/auth/session`), "a=1");
  assert.equal(jar.header(`${ORIGIN}/authx`), "");
});

Deno.test("longer paths come first in the Cookie header", () => {
  const jar = new CookieJar();
  jar.storeHeader("root=1; Path=/", ORIGIN);
  jar.storeHeader("deep=2; Path=/auth", ORIGIN);
  assert.equal(jar.header(`${ORIGIN}/auth/x`), "deep=2; root=1");
});

Deno.test("Max-Age=0 deletes a stored cookie", () => {
  const jar = new CookieJar();
  jar.storeHeader("sid=abc; Path=/", ORIGIN);
  jar.storeHeader("sid=; Path=/; Max-Age=0", ORIGIN);
  assert.equal(jar.get("sid"), undefined);
});

Deno.test("an Expires date in the past deletes a stored cookie", () => {
  const jar = new CookieJar();
  jar.storeHeader("sid=abc; Path=/", ORIGIN);
  jar.storeHeader("sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT", ORIGIN);
  assert.equal(jar.get("sid"), undefined);
});

Deno.test("a cookie stops being sent once it expires", () => {
  let now = 1_000_000;
  const jar = new CookieJar({ now: () => now });
  jar.storeHeader("sid=abc; Path=/; Max-Age=60", ORIGIN);
  assert.equal(jar.header(ORIGIN), "sid=abc");
  now += 61_000;
  assert.equal(jar.header(ORIGIN), "");
});

Deno.test("Max-Age takes precedence over Expires", () => {
  const cookie = parseSetCookie(
    "a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=100",
    new URL(ORIGIN),
    5_000,
  );
  assert.equal(cookie?.expires, 105_000);
});

Deno.test("a same-named cookie with another path is kept separately", () => {
  const jar = new CookieJar();
  jar.storeHeader("a=root; Path=/", ORIGIN);
  jar.storeHeader("a=auth; Path=/auth", ORIGIN);
  assert.equal(jar.header(`${ORIGIN}/auth/x`), "a=auth; a=root");
});

Deno.test("Secure cookies are kept for loopback but refused from other http hosts", () => {
  const jar = new CookieJar();
  jar.storeHeader("__Secure-a=1; Path=/; Secure", ORIGIN);
  jar.storeHeader("b=2; Path=/; Secure", "http://app.test/");
  assert.equal(jar.header(`${ORIGIN}/`), "__Secure-a=1");
  assert.equal(jar.header("http://app.test/"), "");
});

Deno.test("a Domain cookie is sent to subdomains; a foreign Domain is refused", () => {
  const jar = new CookieJar();
  jar.storeHeader("a=1; Path=/; Domain=app.test", "http://login.app.test/");
  jar.storeHeader("b=2; Path=/; Domain=evil.test", "http://login.app.test/");
  assert.equal(jar.header("http://api.app.test/"), "a=1");
  assert.equal(jar.get("b"), undefined);
});

Deno.test("attributes are recorded for assertions", () => {
  const cookie = parseSetCookie("sid=x; Path=/; HttpOnly; SameSite=Lax; Secure", new URL(ORIGIN));
  assert.deepEqual(
    { httpOnly: cookie?.httpOnly, sameSite: cookie?.sameSite, secure: cookie?.secure },
    { httpOnly: true, sameSite: "lax", secure: true },
  );
});

Deno.test("store reads every Set-Cookie header of a response", () => {
  const headers = new Headers();
  headers.append("set-cookie", "a=1; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT");
  headers.append("set-cookie", "b=2; Path=/");
  const jar = new CookieJar();
  jar.store(new Response(null, { headers }), ORIGIN);
  assert.equal(jar.header(ORIGIN), "a=1; b=2");
});

Deno.test("a header without a name=value pair is ignored", () => {
  assert.equal(parseSetCookie("garbage", new URL(ORIGIN)), null);
  assert.equal(parseSetCookie("=value", new URL(ORIGIN)), null);
});
