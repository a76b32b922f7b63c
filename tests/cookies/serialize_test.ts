import assert from "node:assert/strict";
import { serializeCookie } from "../../src/cookies/serialize.ts";
import { EPOCH, NOW } from "./_helpers.ts";

// ---- serializeCookie --------------------------------------------------------

Deno.test("serializeCookie computes Expires from now and maxAge", () => {
  assert.equal(
    serializeCookie({ name: "a", value: "b", attributes: { maxAge: 86400 } }, NOW),
    "a=b; Max-Age=86400; Expires=Thu, 02 Jan 2025 12:00:00 GMT",
  );
});

Deno.test("serializeCookie with maxAge 0 or less expires at the epoch", () => {
  assert.equal(
    serializeCookie({ name: "a", value: "", attributes: { maxAge: 0 } }, NOW),
    `a=; Max-Age=0; Expires=${EPOCH}`,
  );
  assert.equal(
    serializeCookie({ name: "a", value: "", attributes: { maxAge: -5 } }, NOW),
    `a=; Max-Age=0; Expires=${EPOCH}`,
  );
});

Deno.test("serializeCookie prefers maxAge over a fixed expires", () => {
  assert.equal(
    serializeCookie(
      { name: "a", value: "b", attributes: { maxAge: 60, expires: new Date(0) } },
      NOW,
    ),
    "a=b; Max-Age=60; Expires=Wed, 01 Jan 2025 12:01:00 GMT",
  );
});

Deno.test("serializeCookie accepts base64url and dot values", () => {
  const value = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-_DEF";
  assert.equal(serializeCookie({ name: "t", value: value, attributes: {} }, NOW), `t=${value}`);
});

Deno.test("serializeCookie rejects values that are not cookie octets", () => {
  for (const bad of ["a b", "a;b", "a,b", 'a"b', "a\\b", "a\nb", "é", "a\x7fb"]) {
    assert.throws(
      () => serializeCookie({ name: "t", value: bad, attributes: {} }, NOW),
      TypeError,
      JSON.stringify(bad),
    );
  }
});

Deno.test("serializeCookie rejects names that are not tokens", () => {
  for (const bad of ["", "a b", "a=b", "a;b", "a\tb", "(x)"]) {
    assert.throws(
      () => serializeCookie({ name: bad, value: "v", attributes: {} }, NOW),
      TypeError,
      JSON.stringify(bad),
    );
  }
});

Deno.test("serializeCookie rejects attribute injection through path or domain", () => {
  assert.throws(
    () =>
      serializeCookie({ name: "t", value: "v", attributes: { path: "/; Domain=evil.com" } }, NOW),
    TypeError,
  );
  assert.throws(
    () => serializeCookie({ name: "t", value: "v", attributes: { domain: "a.com; Secure" } }, NOW),
    TypeError,
  );
});

Deno.test("serializeCookie rejects a non-finite maxAge or an out-of-range expiry", () => {
  assert.throws(
    () => serializeCookie({ name: "t", value: "v", attributes: { maxAge: NaN } }, NOW),
    TypeError,
  );
  assert.throws(
    () => serializeCookie({ name: "t", value: "v", attributes: { maxAge: 1e15 } }, NOW),
    TypeError,
  );
});
