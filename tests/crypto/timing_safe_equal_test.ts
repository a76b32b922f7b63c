import assert from "node:assert/strict";
import { timingSafeEqual } from "../../src/crypto/timing_safe_equal.ts";

Deno.test("timingSafeEqual: two different lone surrogates are different strings", () => {
  // Encoded as UTF-8, every lone surrogate becomes U+FFFD: the old comparison called these equal.
  assert.equal(timingSafeEqual("\uD800", "\uD801"), false);
  assert.equal(timingSafeEqual("a\uDC00b", "a\uDFFFb"), false);
  assert.equal(timingSafeEqual("\uD800", "\uFFFD"), false);
  assert.equal(timingSafeEqual("x\uD83D", "x\uDE00"), false);
  assert.equal(timingSafeEqual("\uD800", "\uD800"), true);
  assert.equal(timingSafeEqual("\uD83D\uDE00", "\uD83D\uDE00"), true);
  assert.equal(timingSafeEqual("\uD83D\uDE00", "\uD83D\uDE01"), false);
});

Deno.test("timingSafeEqual: strings compare code unit by code unit, whatever their lengths", () => {
  const cases: [string, string, boolean][] = [
    ["", "", true],
    ["", "a", false],
    ["a", "", false],
    ["abc", "abc", true],
    ["abc", "abd", false],
    ["abc", "ab", false],
    ["ab", "abc", false],
    ["abc\0", "abc", false],
    ["abc", "abc\0", false],
    // One code unit against two (the same UTF-8 length of 3 against 2 bytes is not what counts).
    ["\u00e9", "e\u0301", false],
    ["é", "é", true],
    ["\u0100", "\u0000", false],
    ["\uFFFF", "\u00FF", false],
    ["a".repeat(1000), "a".repeat(999), false],
    ["a".repeat(999) + "b", "a".repeat(1000), false],
    ["a".repeat(1000), "a".repeat(1000), true],
  ];
  for (const [actual, expected, equal] of cases) {
    assert.equal(timingSafeEqual(actual, expected), equal, JSON.stringify([actual, expected]));
  }
});

Deno.test("timingSafeEqual: byte arrays of the same or mixed lengths", () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  assert.equal(timingSafeEqual(bytes(), bytes()), true);
  assert.equal(timingSafeEqual(bytes(1, 2, 3), bytes(1, 2, 3)), true);
  assert.equal(timingSafeEqual(bytes(1, 2, 3), bytes(1, 2, 4)), false);
  assert.equal(timingSafeEqual(bytes(1, 2), bytes(1, 2, 0)), false);
  assert.equal(timingSafeEqual(bytes(1, 2, 0), bytes(1, 2)), false);
  assert.equal(timingSafeEqual(bytes(0), bytes()), false);
  assert.equal(timingSafeEqual(bytes(), bytes(0)), false);
  assert.equal(timingSafeEqual(bytes(0x80), bytes(0x00)), false);
  // A view over a larger buffer compares its own bytes only.
  const buffer = bytes(9, 1, 2, 9);
  assert.equal(timingSafeEqual(buffer.subarray(1, 3), bytes(1, 2)), true);
});

Deno.test("timingSafeEqual: a string never equals bytes, even of the same UTF-8 text", () => {
  const compare = timingSafeEqual as (a: unknown, b: unknown) => boolean;
  assert.equal(compare("ab", new TextEncoder().encode("ab")), false);
  assert.equal(compare(new TextEncoder().encode("ab"), "ab"), false);
  assert.equal(compare("", new Uint8Array(0)), false);
});
