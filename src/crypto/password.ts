/**
 * Password hashing for `credentials.authorize` implementations: PBKDF2 with
 * HMAC-SHA-256 on Web Crypto, at the OWASP-recommended 600,000 iterations.
 *
 * Encoded format (all on one line, fields separated by `$`):
 *
 * ```
 * $pbkdf2-sha256$<iterations>$<salt>$<hash>
 * ```
 *
 * `<iterations>` is a decimal integer, `<salt>` (16 random bytes) and
 * `<hash>` (32 bytes) are unpadded base64url. The password is hashed as the
 * UTF-8 bytes of the string as given (no Unicode normalization).
 *
 * @module
 */

import { decodeBase64Url, encodeBase64Url } from "../jose/base64url.ts";
import { timingSafeEqual } from "./timing_safe_equal.ts";

const ALGORITHM_ID = "pbkdf2-sha256";
const ITERATIONS = 600_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
// Bounds on the stored iteration count: below is too weak, above is a CPU DoS.
const MIN_ITERATIONS = 100_000;
const MAX_ITERATIONS = 10_000_000;
const ENCODED = /^\$pbkdf2-sha256\$([1-9][0-9]{0,7})\$([A-Za-z0-9_-]{16,88})\$([A-Za-z0-9_-]{43})$/;

const encoder = new TextEncoder();
// Any fixed salt does: the decoy's result is never compared with anything.
const DECOY_SALT = new Uint8Array(SALT_BYTES);

/**
 * Hashes a password with PBKDF2-HMAC-SHA-256 (600,000 iterations, a random
 * 16-byte salt, a 32-byte result) and returns the self-describing string
 * `$pbkdf2-sha256$600000$<salt>$<hash>` (base64url fields) to store.
 *
 * @param password The password as entered.
 * @returns The encoded hash, to pass later to {@linkcode verifyPassword}.
 * @throws {TypeError} when `password` is not a string.
 *
 * @example
 * ```ts
 * import { hashPassword } from "@service-stack/auth";
 *
 * const stored = await hashPassword("correct horse battery staple");
 * stored.startsWith("$pbkdf2-sha256$600000$"); // true
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== "string") {
    throw new TypeError("Invalid password: expected a string.");
  }
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await pbkdf2(password, salt, ITERATIONS, HASH_BYTES);
  return `$${ALGORITHM_ID}$${ITERATIONS}$${encodeBase64Url(salt)}$${encodeBase64Url(hash)}`;
}

/**
 * Checks a password against a string made by {@linkcode hashPassword},
 * comparing in constant time. The iteration count is read from the string
 * but must lie between 100,000 and 10,000,000. Never throws: a password
 * that is not a string gives `false`.
 *
 * Pass the stored hash of the user the sign-in names, or `undefined` (or
 * `null`) when there is no such user or the user has no password: the
 * password is then derived against a fixed decoy at the same cost as a real
 * check and the answer is `false`. An unknown username thus takes as long as
 * a wrong password, and the response time does not tell which usernames
 * exist. A malformed stored string, or one with an iteration count out of
 * bounds, is treated the same way.
 *
 * @param password The password to check.
 * @param encoded The stored `$pbkdf2-sha256$...` string, or `undefined` / `null` when the user
 *   is unknown or has no password.
 * @returns Whether the password matches; always `false` without a stored hash.
 *
 * @example Username and password sign-in that does not reveal which usernames exist
 * ```ts
 * import { hashPassword, verifyPassword } from "@service-stack/auth";
 *
 * const users = new Map([["ada", { sub: "1", hash: await hashPassword("correct horse") }]]);
 * const user = users.get("grace"); // undefined: no such user
 * // Costs one full PBKDF2 derivation either way, then answers false.
 * await verifyPassword("correct horse", user?.hash); // false
 * await verifyPassword("correct horse", users.get("ada")?.hash); // true
 * ```
 */
export async function verifyPassword(
  password: string,
  encoded: string | null | undefined,
): Promise<boolean> {
  try {
    if (typeof password !== "string") return false;
    const stored = typeof encoded === "string" ? parseEncoded(encoded) : undefined;
    if (stored === undefined) {
      // The same work as a real check, so an unknown user answers as slowly as a known one.
      await pbkdf2(password, DECOY_SALT, ITERATIONS, HASH_BYTES);
      return false;
    }
    const actual = await pbkdf2(password, stored.salt, stored.iterations, HASH_BYTES);
    return timingSafeEqual(actual, stored.hash);
  } catch {
    return false;
  }
}

interface StoredHash {
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array;
}

/** The fields of a `$pbkdf2-sha256$...` string, or `undefined` when it is not one we accept. */
function parseEncoded(encoded: string): StoredHash | undefined {
  const match = ENCODED.exec(encoded);
  if (match === null) return undefined;
  const iterations = Number(match[1]);
  if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) return undefined;
  try {
    const salt = new Uint8Array(decodeBase64Url(match[2]));
    const hash = decodeBase64Url(match[3]);
    if (salt.length < SALT_BYTES || hash.length !== HASH_BYTES) return undefined;
    return { iterations, salt, hash };
  } catch {
    return undefined; // not base64url after all
  }
}

async function pbkdf2(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  bytes: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}
