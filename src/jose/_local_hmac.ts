/**
 * HS256 keys this library derived itself (from a secret, with HKDF) keep
 * their bytes for a JavaScript HMAC: signing and verifying a token then
 * costs no Web Crypto call (about 40 µs each on a small server). Keys an
 * application hands in stay opaque and go through Web Crypto.
 *
 * @module
 */

import { type HmacSha256, hmacSha256 } from "../crypto/sha256.ts";
import type { WebCryptoKey } from "./types.ts";

/** The JavaScript HMAC of each derived key, by key object (nothing outlives the key). */
const local = new WeakMap<object, HmacSha256>();

/** Records the bytes of an HS256 key derived here. */
export function keepLocalHmac(key: WebCryptoKey, bytes: Uint8Array): void {
  local.set(key, hmacSha256(bytes));
}

/** The JavaScript HMAC of a derived HS256 key, or `undefined` for any other key. */
export function localHmacOf(key: unknown): HmacSha256 | undefined {
  return typeof key === "object" && key !== null ? local.get(key) : undefined;
}
