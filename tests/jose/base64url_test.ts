import assert from "node:assert/strict";
import { decodeBase64Url, encodeBase64Url } from "../../jose.ts";
import {
  decodeBase64UrlInto,
  decodeBase64UrlPortable,
  decodedBase64UrlLength,
  encodeBase64UrlPortable,
} from "../../src/jose/base64url.ts";
import { JoseError } from "../../src/jose/errors.ts";

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
    for (let length = 0; length < 200; length++) {
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

Deno.test("the native and portable encoders agree", () => {
  for (let i = 0; i < 200; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(i % 67));
    assert.equal(encodeBase64Url(bytes), encodeBase64UrlPortable(bytes));
  }
});

Deno.test("the native and portable decoders agree on random near-base64 text", () => {
  const chars =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= \n\t\u00c1\u0141";
  const outcome = (decode: (text: string) => Uint8Array, text: string) => {
    try {
      return Array.from(decode(text)).join(",");
    } catch (error) {
      return (error as { code?: string }).code ?? "other";
    }
  };
  for (let i = 0; i < 3000; i++) {
    const length = 120 + (i % 80);
    let text = encodeBase64Url(crypto.getRandomValues(new Uint8Array(length)));
    // Corrupt about half of them in one place.
    if (i % 2 === 0) {
      const at = Math.floor(Math.random() * (text.length + 1));
      const char = chars[Math.floor(Math.random() * chars.length)];
      text = i % 4 === 0
        ? text.slice(0, at) + char + text.slice(at)
        : text.slice(0, at) + char + text.slice(at + 1);
    }
    assert.equal(outcome(decodeBase64Url, text), outcome(decodeBase64UrlPortable, text), text);
  }
});

Deno.test("decoding into a shared buffer follows the same rules as decodeBase64Url", () => {
  const target = new Uint8Array(256);
  for (const text of ["", "-_8", "AQID", "AQIDBA", "AQIDBAU", "A".repeat(200)]) {
    const written = decodeBase64UrlInto(text, target, 3);
    assert.deepEqual(target.subarray(3, 3 + written), decodeBase64Url(text), text);
    assert.equal(written, decodedBase64UrlLength(text));
  }
  for (
    const text of [
      "A",
      "AB==",
      "AB C",
      "AB+/",
      "AQI=",
      "AR",
      "ARJ",
      " AQID",
      `${"A".repeat(198)}B`,
      `${"A".repeat(196)} AA`,
    ]
  ) {
    assert.throws(() => decodeBase64UrlInto(text, new Uint8Array(256), 0), JoseError, text);
  }
});

Deno.test("decoding into a buffer without room for the bytes is refused, writing nothing", () => {
  const target = new Uint8Array(4);
  assert.throws(() => decodeBase64UrlInto("AQIDBAU", target, 0), JoseError);
  assert.throws(() => decodeBase64UrlInto("AQID", target, 2), JoseError);
  assert.deepEqual(target, new Uint8Array(4));
});
