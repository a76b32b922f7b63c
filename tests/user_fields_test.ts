import assert from "node:assert/strict";
import { imageURL, isPlainEmail, userFieldProblem } from "../src/user_fields.ts";

Deno.test("isPlainEmail accepts one plain address, internationalised domains included", () => {
  for (const ok of ["ada@example.com", "a.b+tag@sub.example.co", "ada@bücher.example"]) {
    assert.equal(isPlainEmail(ok), true, ok);
  }
});

Deno.test("isPlainEmail refuses lists, display names, quotes and control characters", () => {
  for (
    const bad of [
      "ada@example.test,attacker@evil.example",
      "ada@example.test;attacker@evil.example",
      "Ada <ada@example.com>",
      '"ada"@example.com',
      "ada@example.com\r\nBcc: x@evil.example",
      "ada @example.com",
      "ada@example.com\u200b",
      "ada@@example.com",
      "@example.com",
      "ada@localhost",
      ".ada@example.com",
      "a..da@example.com",
      "",
      "a".repeat(65) + "@example.com",
      `ada@${"a".repeat(250)}.com`,
    ]
  ) {
    assert.equal(isPlainEmail(bad), false, JSON.stringify(bad));
  }
  assert.equal(isPlainEmail(42), false);
});

Deno.test("isPlainEmail refuses what NFKC would change rather than folding it", () => {
  for (
    const folded of [
      "ｂoss@corp.example", // full-width b
      "ᵇoss@corp.example", // modifier letter small b
      "boss＠corp.example", // full-width @
      "ﬁnance@corp.example", // fi ligature
      "boss@corp．example", // full-width dot
      "boss@ｃorp.example",
      "user１@corp.example", // full-width digit
    ]
  ) {
    assert.equal(isPlainEmail(folded), false, folded);
  }
});

Deno.test("imageURL keeps absolute http(s) URLs and refuses other schemes and shapes", () => {
  assert.equal(imageURL("https://example.com/a.png"), "https://example.com/a.png");
  assert.equal(imageURL("http://example.com/a b.png"), "http://example.com/a%20b.png");
  for (
    const bad of [
      "javascript:alert(document.cookie)",
      "JaVaScRiPt:alert(1)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "vbscript:x",
      "/relative.png",
      "//example.com/a.png",
      "https://user:pw@example.com/a.png",
      " https://example.com/a.png",
      "https://example.com/\na.png",
      `https://example.com/${"a".repeat(2100)}`,
    ]
  ) {
    assert.equal(imageURL(bad), undefined, bad);
  }
});

Deno.test("userFieldProblem names the first breaking field and what it must be", () => {
  assert.equal(userFieldProblem({ sub: "1", name: "Ada", email: "ada@example.com" }), undefined);
  assert.deepEqual(userFieldProblem({ sub: "1", name: "Ada\r\nSet-Cookie: x" }), {
    field: "name",
    expected: "a string without control characters",
  });
  assert.equal(userFieldProblem({ sub: "1", name: "a".repeat(257) })?.field, "name");
  assert.equal(userFieldProblem({ sub: "s".repeat(256) })?.field, "sub");
  assert.equal(userFieldProblem({ sub: "1", roles: ["ok", "bad\u0000"] })?.field, "roles");
  assert.equal(
    userFieldProblem({ sub: "1", profile: { bio: "x".repeat(9000) } })?.field,
    "profile",
  );
});
