import assert from "node:assert/strict";
import { encodeBase64Url, secretLooksWeak } from "../../jose.ts";
import { prng } from "../_prng.ts";

Deno.test("32 identical characters look weak", () => {
  assert.equal(secretLooksWeak("a".repeat(32)), true);
  assert.equal(secretLooksWeak(new Uint8Array(32)), true);
});

Deno.test("a short repeated pattern looks weak", () => {
  for (
    const secret of ["ab".repeat(16), "abc".repeat(11), "changeme-".repeat(4), "xyz1".repeat(10)]
  ) {
    assert.equal(secretLooksWeak(secret), true, secret);
  }
});

Deno.test("dictionary-ish strings of low variety look weak", () => {
  for (
    const secret of [
      "passwordpasswordpasswordpassword",
      "secretsecretsecretsecretsecret12",
      "letmein-letmein-letmein-letmein!",
    ]
  ) {
    assert.equal(secretLooksWeak(secret), true, secret);
  }
});

Deno.test("runs of consecutive characters look weak", () => {
  for (
    const secret of [
      "abcdefghijklmnopqrstuvwxyz012345",
      "01234567890123456789012345678901",
      "aaaaaaaaaaaaaaaaaaaaaaaaabcdefgh",
    ]
  ) {
    assert.equal(secretLooksWeak(secret), true, secret);
  }
});

Deno.test("a value a few characters dominate looks weak", () => {
  assert.equal(secretLooksWeak("aaaaaaaaaaaaaaaaaaaaaaaxqzpmwkrt"), true);
});

Deno.test("values like `openssl rand -base64 32` do not look weak", () => {
  const random = prng(7);
  for (let i = 0; i < 1000; i++) {
    const bytes = Uint8Array.from({ length: 32 }, () => Math.floor(random() * 256));
    const base64 = btoa(String.fromCharCode(...bytes));
    assert.equal(secretLooksWeak(base64), false, base64);
  }
});

Deno.test("values like `openssl rand -hex 16`, random bytes and base64url do not look weak", () => {
  const random = prng(11);
  for (let i = 0; i < 1000; i++) {
    const bytes = Uint8Array.from({ length: 32 }, () => Math.floor(random() * 256));
    const hex = [...bytes.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
    assert.equal(secretLooksWeak(hex), false, hex);
    assert.equal(secretLooksWeak(bytes), false);
    assert.equal(secretLooksWeak(encodeBase64Url(bytes)), false);
  }
});

Deno.test("a value that is not a string or bytes throws TypeError", () => {
  assert.throws(() => secretLooksWeak(42 as unknown as string), TypeError);
});
