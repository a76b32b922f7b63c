// The hand-written hashes, as they are written and as they run: the shared checks (vectors, Web
// Crypto differential, TypeErrors, zeroed scratch buffers) that tests/runtimes also runs under
// Node and Bun on the npm build; and the source itself (constants written out).
import assert from "node:assert/strict";
import { hmacSha256, SHA256, sha256 } from "../../src/crypto/sha256.ts";
import { hmacSha1, SHA1, sha1 } from "../../src/crypto/sha1.ts";
import { scratchBuffers } from "../../src/crypto/_block_hash.ts";
import {
  checkHashes,
  differentialLengths,
  LARGE_LENGTH,
} from "../runtimes/fixtures/hash_check.mjs";

Deno.test("hashes under Deno: vectors, Web Crypto at every length 0-300, each block edge and over 1 MiB, TypeErrors, zeroed scratch", async () => {
  const report = await checkHashes({
    sha256,
    hmacSha256,
    sha1,
    hmacSha1,
    SHA256,
    SHA1,
    scratchBuffers,
  });
  assert.deepEqual(report.failures, []);
  assert.ok(report.passed > 2000, `${report.passed} checks`);
  assert.ok(LARGE_LENGTH > 1024 * 1024);
  const lengths = differentialLengths();
  for (let length = 0; length <= 300; length++) assert.ok(lengths.includes(length));
  for (let blocks = 1; blocks <= 64; blocks++) {
    for (const delta of [-9, -8, -1, 0, 1]) assert.ok(lengths.includes(blocks * 64 + delta));
  }
});

Deno.test("hashes: the round constants and initial values are written out, not computed at load", async () => {
  for (const file of ["sha256.ts", "sha1.ts", "_block_hash.ts"]) {
    const source = await Deno.readTextFile(new URL(`../../src/crypto/${file}`, import.meta.url));
    // Without comments: the code may not compute a table with floating-point roots.
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert.doesNotMatch(code, /Math\.(cbrt|sqrt|pow)|\*\*|PRIMES/, file);
  }
  const source = await Deno.readTextFile(new URL("../../src/crypto/sha256.ts", import.meta.url));
  for (const constant of ["0x428a2f98", "0xc67178f2", "0x6a09e667", "0x5be0cd19"]) {
    assert.ok(source.includes(constant), constant);
  }
});

Deno.test("hashes: a digest of the wrong type throws a TypeError that names what was expected", () => {
  assert.throws(() => sha256("abc" as unknown as Uint8Array), {
    name: "TypeError",
    message: /data is not a Uint8Array; expected the bytes to hash/,
  });
  assert.throws(() => hmacSha256(new Uint16Array(4) as unknown as Uint8Array), {
    name: "TypeError",
    message: /key is not a Uint8Array/,
  });
  assert.throws(() => hmacSha1(new Uint8Array(20))([1, 2] as unknown as Uint8Array), {
    name: "TypeError",
    message: /message is not a Uint8Array/,
  });
});
