import assert from "node:assert/strict";
import { hmacSha1, sha1 } from "../../src/crypto/sha1.ts";

const encoder = new TextEncoder();
const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text: string) => new Uint8Array(text.match(/../g)!.map((h) => parseInt(h, 16)));

Deno.test("sha1: FIPS 180-4 examples", () => {
  assert.equal(hex(sha1(encoder.encode("abc"))), "a9993e364706816aba3e25717850c26c9cd0d89d");
  assert.equal(hex(sha1(new Uint8Array(0))), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  assert.equal(
    hex(sha1(encoder.encode("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
    "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
  );
});

Deno.test("sha1: equals crypto.subtle for every length around the block edges", async () => {
  for (const length of [...Array(140).keys(), 1000, 4096]) {
    const data = crypto.getRandomValues(new Uint8Array(length));
    const expected = new Uint8Array(await crypto.subtle.digest("SHA-1", data));
    assert.equal(hex(sha1(data)), hex(expected), `length ${length}`);
  }
});

Deno.test("hmacSha1: RFC 2202 test cases 1, 2, 3 and 6 (a key longer than a block)", () => {
  const cases = [
    ["0b".repeat(20), hex(encoder.encode("Hi There")), "b617318655057264e28bc0b6fb378c8ef146be00"],
    [
      hex(encoder.encode("Jefe")),
      hex(encoder.encode("what do ya want for nothing?")),
      "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
    ],
    ["aa".repeat(20), "dd".repeat(50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"],
    [
      "aa".repeat(80),
      hex(encoder.encode("Test Using Larger Than Block-Size Key - Hash Key First")),
      "aa4ae5e15272d00e95705637ce8a3b55ed402112",
    ],
  ];
  for (const [key, data, mac] of cases) {
    assert.equal(hex(hmacSha1(fromHex(key))(fromHex(data))), mac);
  }
});

Deno.test("hmacSha1: equals crypto.subtle for keys of 1 to 100 bytes, each reused", async () => {
  for (const keyLength of [1, 10, 20, 63, 64, 65, 100]) {
    const key = crypto.getRandomValues(new Uint8Array(keyLength));
    const imported = await crypto.subtle.importKey(
      "raw",
      key,
      { name: "HMAC", hash: "SHA-1" },
      false,
      ["sign"],
    );
    const mac = hmacSha1(key);
    for (const length of [0, 8, 55, 64, 200]) {
      const data = crypto.getRandomValues(new Uint8Array(length));
      const expected = hex(new Uint8Array(await crypto.subtle.sign("HMAC", imported, data)));
      assert.equal(hex(mac(data)), expected, `key ${keyLength}, data ${length}`);
      assert.equal(hex(mac(data)), expected);
    }
  }
});
