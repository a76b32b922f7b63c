import assert from "node:assert/strict";
import { compileOriginPatterns, isTrustedOrigin } from "../../src/origins/trusted.ts";

const OWN = "https://app.example.com";
const NONE = compileOriginPatterns([]);
const TRUSTED = compileOriginPatterns(["https://trusted.com", "https://*.partner.com"]);
// ---- compileOriginPatterns ---------------------------------------------------------

Deno.test("an exact pattern matches only that origin", () => {
  const m = compileOriginPatterns(["https://example.com", "http://localhost:3000/"]);
  assert.equal(m("https://example.com"), true);
  assert.equal(m("https://EXAMPLE.com"), true);
  assert.equal(m("https://example.com:443"), true);
  assert.equal(m("http://localhost:3000"), true);
  assert.equal(m("http://example.com"), false);
  assert.equal(m("https://example.com:8443"), false);
  assert.equal(m("https://www.example.com"), false);
  assert.equal(m("http://localhost:3001"), false);
});

Deno.test("a wildcard matches exactly one label on the default port", () => {
  const m = compileOriginPatterns(["https://*.example.com"]);
  assert.equal(m("https://app.example.com"), true);
  assert.equal(m("https://a-b.example.com"), true);
  assert.equal(m("https://example.com"), false);
  assert.equal(m("https://a.b.example.com"), false);
  assert.equal(m("https://app.example.com:8443"), false);
  assert.equal(m("http://app.example.com"), false);
});

Deno.test("a wildcard is never satisfied by suffix tricks", () => {
  const m = compileOriginPatterns(["https://*.example.com"]);
  for (
    const o of [
      "https://evilexample.com",
      "https://app.example.com.evil.com",
      "https://example.com.evil.com",
      "https://evil.com?.example.com",
      "https://evil.com#.example.com",
      "https://evil.com/.example.com",
      "https://app.example.com@evil.com",
      "https://evil.com\\.example.com",
      "https://.example.com",
    ]
  ) {
    assert.equal(m(o), false, o);
  }
});

Deno.test("a port wildcard matches any port including the default", () => {
  const m = compileOriginPatterns(["http://localhost:*"]);
  assert.equal(m("http://localhost"), true);
  assert.equal(m("http://localhost:80"), true);
  assert.equal(m("http://localhost:5173"), true);
  assert.equal(m("https://localhost:5173"), false);
  assert.equal(m("http://localhost.evil.com:5173"), false);
});

Deno.test("a wildcard label and a port wildcard combine", () => {
  const m = compileOriginPatterns(["https://*.example.com:*"]);
  assert.equal(m("https://a.example.com:8443"), true);
  assert.equal(m("https://a.example.com"), true);
  assert.equal(m("https://example.com:8443"), false);
});

Deno.test("a wildcard with an explicit port matches only that port", () => {
  const m = compileOriginPatterns(["https://*.example.com:8443"]);
  assert.equal(m("https://a.example.com:8443"), true);
  assert.equal(m("https://a.example.com"), false);
});

Deno.test("an explicit default port in a pattern equals no port", () => {
  const m = compileOriginPatterns(["https://example.com:443", "https://*.b.com:443"]);
  assert.equal(m("https://example.com"), true);
  assert.equal(m("https://x.b.com"), true);
});

Deno.test("a port with leading zeros in a pattern is that port", () => {
  const m = compileOriginPatterns(["https://example.com:08443", "https://*.b.com:0443"]);
  assert.equal(m("https://example.com:8443"), true);
  assert.equal(m("https://x.b.com"), true);
  assert.equal(m("https://example.com"), false);
});

Deno.test("IDN patterns and origins compare in their punycode form", () => {
  const m = compileOriginPatterns(["https://*.bücher.example"]);
  assert.equal(m("https://shop.xn--bcher-kva.example"), true);
});

Deno.test("the matcher refuses values that are not bare origins", () => {
  const m = compileOriginPatterns(["https://example.com"]);
  for (
    const o of [
      "https://example.com/path",
      "https://example.com?x",
      "https://example.com#x",
      "https://user@example.com",
      "https:example.com",
      "https:///example.com",
      " https://example.com",
      "https://example.com\n",
      "null",
      "",
    ]
  ) {
    assert.equal(m(o), false, JSON.stringify(o));
  }
});

Deno.test("invalid patterns are rejected at compile time naming the pattern", () => {
  const bad = [
    "example.com",
    "*.example.com",
    "ftp://example.com",
    "https://",
    "https://*",
    "https://*.*.example.com",
    "https://a.*.example.com",
    "https://*example.com",
    "https://ex*ample.com",
    "https://example.com/path",
    "https://example.com?x",
    "https://example.com#x",
    "https://user@example.com",
    "https://example.com:0",
    "https://example.com:70000",
    "https://example.com:8a",
    "https://*.1.2.3.4",
    "https://*.[::1]",
    "https://[::1",
    "https://exa mple.com",
    "",
  ];
  for (const pattern of bad) {
    assert.throws(
      () => compileOriginPatterns([pattern]),
      (e: unknown) => e instanceof TypeError && e.message.includes(JSON.stringify(pattern)),
      pattern,
    );
  }
});

Deno.test("a non-string pattern or a non-array list is rejected", () => {
  assert.throws(() => compileOriginPatterns([5 as unknown as string]), TypeError);
  assert.throws(() => compileOriginPatterns("https://a.com" as unknown as string[]), TypeError);
});

Deno.test("IPv6 and IPv4 exact patterns work", () => {
  const m = compileOriginPatterns(["http://[::1]:3000", "http://127.0.0.1:*"]);
  assert.equal(m("http://[::1]:3000"), true);
  assert.equal(m("http://127.0.0.1:9999"), true);
  assert.equal(m("http://[::2]:3000"), false);
});

// ---- isTrustedOrigin -------------------------------------------------------------

Deno.test("the own origin is always trusted", () => {
  assert.equal(isTrustedOrigin(OWN, OWN, NONE), true);
  assert.equal(isTrustedOrigin("https://app.example.com:443", OWN, NONE), true);
});

Deno.test("the opaque origin null is never trusted", () => {
  assert.equal(isTrustedOrigin("null", OWN, NONE), false);
  assert.equal(isTrustedOrigin("null", "null", () => true), false);
});

Deno.test("other origins are trusted only through the matcher", () => {
  assert.equal(isTrustedOrigin("https://trusted.com", OWN, TRUSTED), true);
  assert.equal(isTrustedOrigin("https://x.partner.com", OWN, TRUSTED), true);
  assert.equal(isTrustedOrigin("https://evil.com", OWN, TRUSTED), false);
  assert.equal(isTrustedOrigin("http://app.example.com", OWN, NONE), false);
});

Deno.test("isTrustedOrigin never throws on malformed input", () => {
  for (const o of ["http://[", "%", "https://a.com:99999", "\0", "javascript:alert(1)"]) {
    assert.equal(isTrustedOrigin(o, OWN, TRUSTED), false, o);
  }
  assert.equal(isTrustedOrigin(OWN, "http://[", NONE), false);
});
