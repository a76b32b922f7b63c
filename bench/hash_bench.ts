/**
 * HMAC-SHA-256 of 250 bytes (about a session token's signing input) with the
 * hand-written JavaScript HMAC of `src/crypto/sha256.ts` against Web Crypto's
 * `crypto.subtle.sign` in the same run, plus SHA-256 and HMAC-SHA-1 (a TOTP
 * check's MAC). Run with `deno bench -A bench/hash_bench.ts`.
 *
 * @module
 */

import { hmacSha256, sha256 } from "../src/crypto/sha256.ts";
import { hmacSha1 } from "../src/crypto/sha1.ts";

const key = crypto.getRandomValues(new Uint8Array(32));
const message = crypto.getRandomValues(new Uint8Array(250));
const mac = hmacSha256(key);
const subtleKey = await crypto.subtle.importKey(
  "raw",
  key,
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["sign"],
);
const totpMac = hmacSha1(crypto.getRandomValues(new Uint8Array(20)));
const counter = new Uint8Array(8);

Deno.bench({
  name: "HMAC-SHA-256 of 250 bytes, JavaScript",
  group: "hmac-sha-256",
  baseline: true,
  fn: () => void mac(message),
});
Deno.bench({
  name: "HMAC-SHA-256 of 250 bytes, crypto.subtle",
  group: "hmac-sha-256",
  fn: async () => void await crypto.subtle.sign("HMAC", subtleKey, message),
});
Deno.bench({ name: "SHA-256 of 250 bytes, JavaScript", fn: () => void sha256(message) });
Deno.bench({ name: "HMAC-SHA-1 of 8 bytes (TOTP), JavaScript", fn: () => void totpMac(counter) });
