import assert from "node:assert/strict";
import { compileOriginPatterns } from "../../src/origins/trusted.ts";
import { refererTarget, safeRedirectTarget } from "../../src/origins/redirect_target.ts";

const OWN = "https://app.example.com";
const NONE = compileOriginPatterns([]);
const TRUSTED = compileOriginPatterns(["https://trusted.com", "https://*.partner.com"]);
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
