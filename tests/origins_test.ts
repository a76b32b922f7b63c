import assert from "node:assert/strict";
import {
  compileOriginPatterns,
  forwardedClientAddress,
  isTrustedOrigin,
  refererTarget,
  requestOrigin,
  safeRedirectTarget,
} from "../src/origins.ts";

const OWN = "https://app.example.com";
const NONE = compileOriginPatterns([]);
const TRUSTED = compileOriginPatterns(["https://trusted.com", "https://*.partner.com"]);

function origin(url: string, headers: Record<string, string>, trust: boolean) {
  const request = new Request(url, { headers });
  return requestOrigin(request, new URL(request.url), trust);
}

// ---- requestOrigin ------------------------------------------------------------

Deno.test("requestOrigin without proxy trust uses the URL only", () => {
  assert.deepEqual(origin("http://localhost:8000/auth/session", {}, false), {
    origin: "http://localhost:8000",
    secure: false,
  });
  assert.deepEqual(origin("https://app.example.com/auth", {}, false), {
    origin: OWN,
    secure: true,
  });
});

Deno.test("requestOrigin ignores every forwarding header when trust is off", () => {
  const headers = {
    forwarded: "proto=https;host=evil.com",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "evil.com",
  };
  assert.deepEqual(origin("http://internal:8080/auth", headers, false), {
    origin: "http://internal:8080",
    secure: false,
  });
});

Deno.test("requestOrigin with proxy trust but no forwarding header uses the URL", () => {
  assert.deepEqual(origin("http://localhost:8000/auth", {}, true), {
    origin: "http://localhost:8000",
    secure: false,
  });
  assert.deepEqual(origin("https://app.example.com/auth", {}, true), { origin: OWN, secure: true });
});

Deno.test("requestOrigin reads X-Forwarded-Proto and X-Forwarded-Host when trusted", () => {
  const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com" };
  assert.deepEqual(origin("http://internal:8080/auth", headers, true), {
    origin: OWN,
    secure: true,
  });
});

Deno.test("requestOrigin takes the first value of a comma-separated X-Forwarded list", () => {
  const headers = { "x-forwarded-proto": "https, http", "x-forwarded-host": "a.example.com, b" };
  assert.deepEqual(origin("http://internal/", headers, true), {
    origin: "https://a.example.com",
    secure: true,
  });
});

Deno.test("requestOrigin prefers Forwarded over X-Forwarded-* and reads its first element", () => {
  const headers = {
    forwarded: 'for=192.0.2.60;proto=https;host="app.example.com:8443", proto=http;host=b.com',
    "x-forwarded-proto": "http",
    "x-forwarded-host": "evil.com",
  };
  assert.deepEqual(origin("http://internal/", headers, true), {
    origin: "https://app.example.com:8443",
    secure: true,
  });
});

Deno.test("requestOrigin never mixes Forwarded with X-Forwarded-Host", () => {
  const headers = { forwarded: "for=1.2.3.4;proto=https", "x-forwarded-host": "evil.com" };
  assert.deepEqual(origin("http://app.example.com/", headers, true), { origin: OWN, secure: true });
});

Deno.test("requestOrigin handles quoted Forwarded values and case-insensitive names", () => {
  const headers = { forwarded: 'For="[2001:db8:cafe::17]:4711"; Proto="HTTPS"; Host="[::1]:3000"' };
  assert.deepEqual(origin("http://internal/", headers, true), {
    origin: "https://[::1]:3000",
    secure: true,
  });
});

Deno.test("requestOrigin drops the default port from a forwarded host", () => {
  const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com:443" };
  assert.deepEqual(origin("http://internal/", headers, true), { origin: OWN, secure: true });
});

Deno.test("requestOrigin falls back to the URL for an invalid forwarded protocol", () => {
  for (const proto of ["ftp", "javascript", "https:", "", "http s"]) {
    assert.deepEqual(
      origin("http://app.example.com/", { "x-forwarded-proto": proto }, true),
      { origin: "http://app.example.com", secure: false },
      proto,
    );
  }
});

Deno.test("requestOrigin falls back to the URL for an invalid forwarded host", () => {
  const bad = [
    "evil.com/path",
    "evil.com@x",
    "user@evil.com",
    "evil.com:99999",
    "evil.com:0",
    "evil.com:",
    "evil .com",
    "evil.com.",
    "-evil.com",
    "[::1",
    "::1",
    "[zz::1]",
    "999.1.1.1",
    "a_b.com",
    "evil.com\\x",
    "evil.com?x",
    "evil.com#x",
    "%65vil.com",
    "",
  ];
  for (const host of bad) {
    assert.deepEqual(
      origin("https://app.example.com/", { "x-forwarded-host": host }, true),
      { origin: OWN, secure: true },
      host,
    );
  }
});

Deno.test("requestOrigin falls back to the URL for a malformed Forwarded header", () => {
  const bad = [
    'proto=https;host="evil.com',
    "proto=https;host=evil.com;host=other.com",
    "proto https",
    "proto=https;;=x",
    "host=evil.com/x",
    "proto=ftp;host=evil.com/x",
  ];
  for (const forwarded of bad) {
    const result = origin("http://app.example.com/", { forwarded }, true);
    assert.equal(result.origin, "http://app.example.com", forwarded);
    assert.equal(result.secure, false, forwarded);
  }
});

Deno.test("requestOrigin keeps a valid Forwarded field when the other is invalid", () => {
  const headers = { forwarded: 'proto=https;host="evil.com/path"' };
  assert.deepEqual(origin("http://app.example.com/", headers, true), { origin: OWN, secure: true });
});

Deno.test("requestOrigin returns a frozen value", () => {
  assert.ok(Object.isFrozen(origin("http://a.com/", {}, false)));
  assert.ok(Object.isFrozen(origin("http://a.com/", {}, true)));
  assert.ok(Object.isFrozen(origin("http://a.com/", { "x-forwarded-proto": "https" }, true)));
});

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

// ---- safeRedirectTarget ----------------------------------------------------------

Deno.test("a relative path with a single leading slash is accepted and kept relative", () => {
  assert.equal(safeRedirectTarget("/", OWN, NONE), "/");
  assert.equal(safeRedirectTarget("/dashboard", OWN, NONE), "/dashboard");
  assert.equal(safeRedirectTarget("/a/b?c=1&d=2#e", OWN, NONE), "/a/b?c=1&d=2#e");
  assert.equal(safeRedirectTarget("/a//b", OWN, NONE), "/a//b");
});

Deno.test("a relative path is normalized and percent-encoded for the Location header", () => {
  assert.equal(safeRedirectTarget("/a/../b", OWN, NONE), "/b");
  assert.equal(safeRedirectTarget("/café?q=日本", OWN, NONE), "/caf%C3%A9?q=%E6%97%A5%E6%9C%AC");
  assert.equal(safeRedirectTarget("/search?q=a b", OWN, NONE), "/search?q=a%20b");
  assert.equal(safeRedirectTarget("/100%25", OWN, NONE), "/100%25");
});

Deno.test("an absolute URL on the own or a trusted origin is accepted and normalized", () => {
  assert.equal(
    safeRedirectTarget("https://app.example.com/x", OWN, NONE),
    "https://app.example.com/x",
  );
  assert.equal(
    safeRedirectTarget("HTTPS://APP.example.com:443", OWN, NONE),
    "https://app.example.com/",
  );
  assert.equal(
    safeRedirectTarget("https://trusted.com/p?q#h", OWN, TRUSTED),
    "https://trusted.com/p?q#h",
  );
  assert.equal(
    safeRedirectTarget("https://a.partner.com/", OWN, TRUSTED),
    "https://a.partner.com/",
  );
});

Deno.test("scheme-relative and backslash targets are refused", () => {
  for (
    const t of [
      "//evil.com",
      "///evil.com",
      "/\\evil.com",
      "\\\\evil.com",
      "\\/evil.com",
      "/\\/evil.com",
      "//trusted.com",
    ]
  ) {
    assert.equal(safeRedirectTarget(t, OWN, TRUSTED), null, t);
  }
});

Deno.test("encoded slashes, backslashes and dots cannot produce a scheme-relative target", () => {
  for (
    const t of [
      "/%2F%2Fevil.com",
      "/%2f%2fevil.com",
      "/%2Fevil.com",
      "/%5Cevil.com",
      "/%5cevil.com",
      "/%252F%252Fevil.com",
      "/%25252F%25252Fevil.com",
      "/.//evil.com",
      "/./%2Fevil.com",
      "/%2E/%2Fevil.com",
      "/a/..//evil.com",
      "/%2e%2e//evil.com",
      "/%C0%AFevil.com",
      "/%c0%af%c0%afevil.com",
    ]
  ) {
    assert.equal(safeRedirectTarget(t, OWN, NONE), null, t);
  }
});

Deno.test("control characters, tabs and newlines anywhere are refused", () => {
  for (
    const t of [
      "/\tevil",
      "/\t/evil.com",
      "/\n/evil.com",
      "/a\r\nSet-Cookie: x=y",
      "/\0",
      "/\x7f",
      "/%09/evil.com",
      "/%0a/evil.com",
      "/%00",
      "https://app.example.com/\n",
      "\t//evil.com",
    ]
  ) {
    assert.equal(safeRedirectTarget(t, OWN, NONE), null, JSON.stringify(t));
  }
});

Deno.test("leading or trailing spaces are refused", () => {
  for (const t of [" /x", "/x ", " //evil.com", " https://app.example.com/"]) {
    assert.equal(safeRedirectTarget(t, OWN, NONE), null, JSON.stringify(t));
  }
});

Deno.test("scheme tricks are refused", () => {
  for (
    const t of [
      "https:evil.com",
      "https:/evil.com",
      "https:///evil.com",
      "https:app.example.com",
      "https:/app.example.com",
      "http:\\\\evil.com",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
      "ftp://app.example.com/",
      "blob:https://app.example.com/uuid",
      "file:///etc/passwd",
    ]
  ) {
    assert.equal(safeRedirectTarget(t, OWN, NONE), null, t);
  }
});

Deno.test("userinfo tricks are refused", () => {
  for (
    const t of [
      "https://trusted.com@evil.com",
      "https://app.example.com@evil.com",
      "https://user:pass@app.example.com/",
      "https://user@app.example.com/",
      "https://trusted.com%40evil.com",
      "https://trusted.com:443@evil.com",
    ]
  ) {
    assert.equal(safeRedirectTarget(t, OWN, TRUSTED), null, t);
  }
});

Deno.test("suffix, query and fragment tricks against trusted patterns are refused", () => {
  for (
    const t of [
      "https://trusted.com.evil.com/",
      "https://trusted.evil/",
      "https://eviltrusted.com/",
      "https://evil.com?https://trusted.com",
      "https://evil.com#https://trusted.com",
      "https://evil.com/?.partner.com",
      "https://evil.com#.partner.com",
      "https://evil.com?.partner.com",
      "https://partner.com/",
      "https://a.b.partner.com/",
      "https://a.partner.com.evil.com/",
      "http://trusted.com/",
      "https://trusted.com:8443/",
    ]
  ) {
    assert.equal(safeRedirectTarget(t, OWN, TRUSTED), null, t);
  }
});

Deno.test("malformed URLs are refused without throwing", () => {
  for (
    const t of [
      "http://[",
      "https://[::1",
      "https://%",
      "http://a b.com/",
      "https://:80/",
      "https://",
    ]
  ) {
    assert.equal(safeRedirectTarget(t, OWN, TRUSTED), null, t);
  }
});

Deno.test("anything that is neither a rooted path nor an http(s) URL is refused", () => {
  for (const t of ["", "dashboard", "./x", "../x", "?x=1", "#frag", "evil.com", "@evil.com"]) {
    assert.equal(safeRedirectTarget(t, OWN, NONE), null, JSON.stringify(t));
  }
});

Deno.test("a relative target is refused when the own origin is unusable", () => {
  assert.equal(safeRedirectTarget("/x", "null", NONE), null);
  assert.equal(safeRedirectTarget("/x", "http://[", NONE), null);
});

Deno.test("non-string targets are refused without throwing", () => {
  assert.equal(safeRedirectTarget(undefined as unknown as string, OWN, NONE), null);
  assert.equal(safeRedirectTarget(["/x"] as unknown as string, OWN, NONE), null);
});

// ---- refererTarget ---------------------------------------------------------------

Deno.test("refererTarget accepts a same-origin or trusted Referer", () => {
  assert.equal(
    refererTarget("https://app.example.com/settings?a=1", OWN, NONE),
    "https://app.example.com/settings?a=1",
  );
  assert.equal(refererTarget("https://x.partner.com/p", OWN, TRUSTED), "https://x.partner.com/p");
});

Deno.test("refererTarget refuses a missing, relative or foreign Referer", () => {
  for (const r of [null, "", "/settings", "//app.example.com/", "https://evil.com/", "http://["]) {
    assert.equal(refererTarget(r, OWN, TRUSTED), null, String(r));
  }
});

Deno.test("refererTarget refuses a Referer with userinfo or an untrusted scheme", () => {
  assert.equal(refererTarget("https://u@app.example.com/", OWN, NONE), null);
  assert.equal(refererTarget("http://app.example.com/", OWN, NONE), null);
});

// ---- forwardedClientAddress ------------------------------------------------------

function client(headers: Record<string, string>, trust = true): string | undefined {
  return forwardedClientAddress(new Request("http://internal/", { headers }), trust);
}

Deno.test("forwardedClientAddress is undefined when proxy headers are not trusted", () => {
  assert.equal(client({ "x-forwarded-for": "203.0.113.7" }, false), undefined);
  assert.equal(client({ forwarded: "for=203.0.113.7" }, false), undefined);
});

Deno.test("forwardedClientAddress reads the first X-Forwarded-For value", () => {
  assert.equal(client({ "x-forwarded-for": " 203.0.113.7 , 10.0.0.1" }), "203.0.113.7");
  assert.equal(client({ "x-forwarded-for": "2001:DB8::1" }), "2001:db8::1");
});

Deno.test("forwardedClientAddress prefers Forwarded and strips port and brackets", () => {
  const headers = {
    forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https',
    "x-forwarded-for": "1.1.1.1",
  };
  assert.equal(client(headers), "2001:db8:cafe::17");
  assert.equal(client({ forwarded: 'for="192.0.2.43:47011", for=198.51.100.17' }), "192.0.2.43");
});

Deno.test("forwardedClientAddress refuses values that are not IP addresses", () => {
  for (
    const v of [
      "unknown",
      "_hidden",
      "evil.com",
      "999.1.1.1",
      "1.2.3",
      "01.2.3.4",
      "<script>",
      "[::1",
      "",
    ]
  ) {
    assert.equal(client({ "x-forwarded-for": v }), undefined, v);
  }
  assert.equal(client({ forwarded: "for=unknown" }), undefined);
  assert.equal(client({ forwarded: 'for="_gazonk"' }), undefined);
});
