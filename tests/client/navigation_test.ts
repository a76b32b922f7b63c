import assert from "node:assert/strict";
import { isSafeRedirectTarget, navigate, reload } from "../../src/client/navigation.ts";
import { stubLocation } from "./fake_auth_server.ts";

Deno.test("paths on this site and http(s) URLs are safe redirect targets", () => {
  for (
    const target of [
      "/",
      "/dashboard?tab=1#top",
      "/%2F%2Fstill-a-path",
      "https://app.example.com/x",
      "HTTP://localhost:3000/",
    ]
  ) {
    assert.equal(isSafeRedirectTarget(target), true, target);
  }
});

Deno.test("scheme-relative, backslash, script and malformed targets are refused", () => {
  for (
    const target of [
      "",
      "dashboard",
      "//evil.test",
      "/\\evil.test",
      "\\\\evil.test",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>1</script>",
      "https:evil.test",
      "https://trusted.test@evil.test/",
      "https://a:b@evil.test/",
      "http://[",
      " /path",
      "/a\nb",
      "/a\tb",
      "/a\x00b",
      "/a\x7fb",
      "https://evil.test\\@trusted.test",
      undefined,
      42,
    ]
  ) {
    assert.equal(isSafeRedirectTarget(target), false, JSON.stringify(target));
  }
});

Deno.test("navigate and reload report false without a browser location", () => {
  assert.equal((globalThis as { location?: unknown }).location, undefined);
  assert.equal(navigate("/x"), false);
  assert.equal(reload(), false);
});

Deno.test("navigate and reload report false when location refuses", () => {
  const location = stubLocation({ throwing: true });
  try {
    assert.equal(navigate("/x"), false);
    assert.equal(reload(), false);
  } finally {
    location.restore();
  }
});

Deno.test("navigate calls location.assign and reload calls location.reload", () => {
  const location = stubLocation();
  try {
    assert.equal(navigate("/x"), true);
    assert.equal(reload(), true);
    assert.deepEqual(location.assigned, ["/x"]);
    assert.equal(location.reloads, 1);
  } finally {
    location.restore();
  }
});
