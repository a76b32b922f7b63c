/**
 * Constant-time comparison of secrets.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * Compares two byte arrays or strings in time that depends only on their
 * lengths, never on where they first differ. Strings compare as UTF-8.
 */
export function timingSafeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  const x = typeof a === "string" ? encoder.encode(a) : a;
  const y = typeof b === "string" ? encoder.encode(b) : b;
  const len = Math.max(x.length, y.length);
  let diff = x.length ^ y.length;
  for (let i = 0; i < len; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
