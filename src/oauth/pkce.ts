/**
 * PKCE (RFC 7636) with `S256`, and random values for `state`.
 *
 * @module
 */

import { encodeBase64Url } from "../jose/base64url.ts";
import { sha256 } from "../crypto/sha256.ts";

/** A random base64url string of `bytes` random bytes (32 bytes gives 43 characters). */
export function randomToken(bytes = 32): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * The `S256` code challenge of a verifier: base64url(SHA-256(ASCII(verifier))),
 * hashed in JavaScript (43 bytes: no Web Crypto trip for a sign-in's start).
 */
export function codeChallengeS256(verifier: string): string {
  return encodeBase64Url(sha256(new TextEncoder().encode(verifier)));
}
