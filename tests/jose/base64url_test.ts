import assert from "node:assert/strict";
import { decodeBase64Url, encodeBase64Url } from "../../jose.ts";
import { decodeBase64UrlPortable, encodeBase64UrlPortable } from "../../src/jose/base64url.ts";

const INVALID = [
  "AA==",
  "A+8",
  "A/8",
  "A",
  "AB C",
  " AB",
  "AB\n",
  "AB!",
  "AR",
  "AAB",
  "é",
  "QUJD=",
];

for (
  const [name, encode, decode] of [
    ["public (native where available)", encodeBase64Url, decodeBase64Url],
    ["portable", encodeBase64UrlPortable, decodeBase64UrlPortable],
  ] as const
) {
  Deno.test(`${name} base64url round-trips every length without padding`, () => {
    for (let length = 0; length < 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      const text = encode(bytes);
      assert.doesNotMatch(text, /[=+/]/);
      assert.deepEqual(decode(text), bytes);
    }
  });

  Deno.test(`${name} base64url decoding refuses padding, other alphabets, bad lengths and stray bits`, () => {
    for (const bad of INVALID) {
      assert.throws(() => decode(bad), { code: "ERR_JOSE_INVALID" }, bad);
    }
  });
}

Deno.test("the native and portable codecs agree", () => {
  for (let i = 0; i < 200; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(i % 67));
    const text = encodeBase64UrlPortable(bytes);
    assert.equal(encodeBase64Url(bytes), text);
    assert.deepEqual(decodeBase64Url(text), decodeBase64UrlPortable(text));
  }
});
