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

import { decodeBase64Url, encodeBase64Url } from "./jose/base64url.ts";
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
 * but must lie between 100,000 and 10,000,000. Never throws: a malformed
 * encoded string, or a password that is not a string, gives `false`.
 *
 * @param password The password to check.
 * @param encoded The stored `$pbkdf2-sha256$...` string.
 * @returns Whether the password matches.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from "@service-stack/auth";
 *
 * const stored = await hashPassword("correct horse battery staple");
 * await verifyPassword("correct horse battery staple", stored); // true
 * await verifyPassword("Tr0ub4dor&3", stored); // false
 * ```
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  try {
    if (typeof password !== "string" || typeof encoded !== "string") return false;
    const match = ENCODED.exec(encoded);
    if (match === null) return false;
    const iterations = Number(match[1]);
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) return false;
    const salt = new Uint8Array(decodeBase64Url(match[2]));
    const expected = decodeBase64Url(match[3]);
    if (salt.length < SALT_BYTES || expected.length !== HASH_BYTES) return false;
    const actual = await pbkdf2(password, salt, iterations, HASH_BYTES);
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
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
