/**
 * `secretLooksWeak`: a quick look at a string or byte secret for signs that
 * a person typed it rather than a random generator made it.
 *
 * @module
 */

/** Fewer distinct byte values than this is weak ("aaaa…", "abab…", "password…"). */
const MIN_DISTINCT = 8;
/** The longest repeated unit looked for ("changeme-changeme-…"). */
const MAX_PERIOD = 64;
/** At least this share of repeated (or consecutive) bytes is weak. */
const MAX_SHARE = 0.75;
/** An estimate under this many bits is weak. */
const MIN_ESTIMATED_BITS = 80;

/** Whether, for some period of at most half the length, 3/4 of the bytes repeat the byte one period back. */
function isMostlyRepeated(bytes: Uint8Array): boolean {
  const longest = Math.min(bytes.length >> 1, MAX_PERIOD);
  for (let period = 1; period <= longest; period++) {
    let repeats = 0;
    for (let i = period; i < bytes.length; i++) {
      if (bytes[i] === bytes[i - period]) repeats++;
    }
    if (repeats >= MAX_SHARE * (bytes.length - period)) return true;
  }
  return false;
}

/** The share of neighbouring bytes that are equal or differ by one. */
function runShare(bytes: Uint8Array): number {
  let steps = 0;
  for (let i = 1; i < bytes.length; i++) {
    if (Math.abs(bytes[i] - bytes[i - 1]) <= 1) steps++;
  }
  return steps / (bytes.length - 1);
}

/** Length times the Shannon entropy of the byte frequencies, in bits. */
function estimatedBits(bytes: Uint8Array, counts: Map<number, number>): number {
  let perByte = 0;
  for (const count of counts.values()) {
    const p = count / bytes.length;
    perByte -= p * Math.log2(p);
  }
  return perByte * bytes.length;
}

/**
 * Whether a string or byte secret looks typed by a person rather than made
 * by a random generator. Pure and quick; meant for a warning at start-up, not
 * a refusal (the 32-byte minimum is checked elsewhere). A secret looks weak
 * when any of these holds for its bytes (UTF-8 for a string):
 * - fewer than 8 distinct byte values (`"aaaa…"`, `"abab…"`, `"password" × 4`);
 * - it mostly repeats a unit of at most half its length (up to 64 bytes):
 *   3/4 of its bytes equal the byte one unit back (`"changeme-changeme-…"`,
 *   `"letmein-" × 4 + "!"`);
 * - at least 3/4 of neighbouring bytes are equal or consecutive
 *   (`"abcdef…"`, `"0123…"`, `"aaaa…xyz"`);
 * - length times the Shannon entropy of its byte frequencies is under 80
 *   bits (a few characters dominate).
 *
 * Random values pass: `openssl rand -base64 32` (about 215 bits by this
 * estimate), `openssl rand -hex 16` (about 115) and 32 random bytes (about
 * 155). A secret that passes is not proven strong: a long phrase of words
 * passes too.
 *
 * @param secret The secret as configured.
 * @returns `true` when the secret looks weak.
 *
 * @example
 * ```ts
 * import { secretLooksWeak } from "@service-stack/auth/jose";
 * secretLooksWeak("x".repeat(32)); // true
 * secretLooksWeak("changeme-changeme-changeme-chang"); // true
 * secretLooksWeak("0S1KcbvQ8vS4vGyOeIvw4bWw5vWtuwS7GmDIyh5g2ik="); // false
 * ```
 */
export function secretLooksWeak(secret: string | Uint8Array): boolean {
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError("The secret is not a string or Uint8Array; expected one of them.");
  }
  if (bytes.length < 2) return true;
  const counts = new Map<number, number>();
  for (const byte of bytes) counts.set(byte, (counts.get(byte) ?? 0) + 1);
  return counts.size < MIN_DISTINCT || isMostlyRepeated(bytes) ||
    runShare(bytes) >= MAX_SHARE || estimatedBits(bytes, counts) < MIN_ESTIMATED_BITS;
}
