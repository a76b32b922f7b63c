import assert from "node:assert/strict";
import { hmacSha256, sha256 } from "../../src/crypto/sha256.ts";

const encoder = new TextEncoder();
const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text: string) => new Uint8Array(text.match(/../g)!.map((h) => parseInt(h, 16)));

async function subtleDigest(data: Uint8Array): Promise<string> {
  return hex(
    new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>)),
  );
}

async function subtleHmac(key: Uint8Array, data: Uint8Array): Promise<string> {
  const imported = await crypto.subtle.importKey(
    "raw",
    key.length === 0 ? new Uint8Array(1) : key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256", length: key.length === 0 ? undefined : key.length * 8 },
    false,
    ["sign"],
  );
  return hex(
    new Uint8Array(await crypto.subtle.sign("HMAC", imported, data as Uint8Array<ArrayBuffer>)),
  );
}

Deno.test("sha256: FIPS 180-4 examples", () => {
  assert.equal(
    hex(sha256(encoder.encode("abc"))),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    hex(sha256(new Uint8Array(0))),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assert.equal(
    hex(sha256(encoder.encode("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("sha256: equals crypto.subtle for every length around the block edges and random data", async () => {
  const lengths = [...Array(200).keys(), 447, 448, 511, 512, 1000, 4096, 65_536];
  for (const length of lengths) {
    const data = crypto.getRandomValues(new Uint8Array(length));
    assert.equal(hex(sha256(data)), await subtleDigest(data), `length ${length}`);
  }
  // A subarray with an offset hashes its own bytes only.
  const big = crypto.getRandomValues(new Uint8Array(300));
  assert.equal(hex(sha256(big.subarray(7, 250))), await subtleDigest(big.slice(7, 250)));
});

Deno.test("hmacSha256: RFC 4231 test cases 1, 2, 4 and 6 (a key longer than a block)", () => {
  const cases = [
    [
      "0b".repeat(20),
      hex(encoder.encode("Hi There")),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    ],
    [
      hex(encoder.encode("Jefe")),
      hex(encoder.encode("what do ya want for nothing?")),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    ],
    [
      "0102030405060708090a0b0c0d0e0f10111213141516171819",
      "cd".repeat(50),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
    ],
    [
      "aa".repeat(131),
      hex(encoder.encode("Test Using Larger Than Block-Size Key - Hash Key First")),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    ],
  ];
  for (const [key, data, mac] of cases) {
    assert.equal(hex(hmacSha256(fromHex(key))(fromHex(data))), mac);
  }
});

Deno.test("hmacSha256: equals crypto.subtle for keys of 1 to 130 bytes, and a key reused many times", async () => {
  for (const keyLength of [1, 16, 31, 32, 33, 63, 64, 65, 100, 130]) {
    const key = crypto.getRandomValues(new Uint8Array(keyLength));
    const mac = hmacSha256(key);
    for (const length of [0, 1, 55, 56, 64, 119, 200, 1025]) {
      const data = crypto.getRandomValues(new Uint8Array(length));
      assert.equal(hex(mac(data)), await subtleHmac(key, data), `key ${keyLength}, data ${length}`);
      // The precomputed states are copied per call: the same input gives the same MAC again.
      assert.equal(hex(mac(data)), await subtleHmac(key, data));
    }
  }
  // Changing the caller's key bytes afterwards changes nothing.
  const key = crypto.getRandomValues(new Uint8Array(32));
  const kept = key.slice();
  const mac = hmacSha256(key);
  key.fill(0);
  const data = encoder.encode("payload");
  assert.equal(hex(mac(data)), await subtleHmac(kept, data));
});
