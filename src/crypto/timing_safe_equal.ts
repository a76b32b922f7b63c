/**
 * Constant-time comparison of secrets.
 *
 * @module
 */

/**
 * Compares two strings (as UTF-16 code units, so two different lone
 * surrogates differ) or two byte arrays in time that depends only on the
 * length of `expected`, never on where the two first differ nor on the
 * length or content of `actual`. A string never equals a byte array.
 *
 * @example
 * ```ts
 * import { timingSafeEqual } from "./timing_safe_equal.ts";
 * timingSafeEqual("\uD800", "\uD801"); // false
 * timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])); // true
 * ```
 */
export function timingSafeEqual(actual: string, expected: string): boolean;
export function timingSafeEqual(actual: Uint8Array, expected: Uint8Array): boolean;
export function timingSafeEqual(
  actual: Uint8Array | string,
  expected: Uint8Array | string,
): boolean;
export function timingSafeEqual(
  actual: Uint8Array | string,
  expected: Uint8Array | string,
): boolean {
  const length = expected.length;
  // Out-of-range reads give NaN or undefined, which `^` turns into 0; the lengths' xor covers them.
  let diff = actual.length ^ length;
  if (typeof expected === "string") {
    if (typeof actual !== "string") return false;
    for (let i = 0; i < length; i++) diff |= actual.charCodeAt(i) ^ expected.charCodeAt(i);
  } else {
    if (typeof actual === "string") return false;
    for (let i = 0; i < length; i++) diff |= (actual[i] as number) ^ expected[i];
  }
  return diff === 0;
}
