/**
 * Base32 (RFC 4648 section 6) without padding, as TOTP secrets are written
 * in `otpauth://` URIs and typed into authenticator apps.
 *
 * @module
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** Quintet value per ASCII code, lowercase letters included; 255 marks anything else. */
// Built in a pure call, so that a bundle without two-factor drops it.
const DECODE = /* @__PURE__ */ (() => {
  const decode = new Uint8Array(128).fill(255);
  for (let i = 0; i < ALPHABET.length; i++) {
    decode[ALPHABET.charCodeAt(i)] = i;
    decode[ALPHABET.toLowerCase().charCodeAt(i)] = i;
  }
  return decode;
})();
/** Lengths (mod 8) an unpadded base32 text can have: 0, 2, 4, 5 and 7 characters. */
const VALID_REMAINDER = [true, false, true, false, true, true, false, true];

/**
 * Encodes bytes as uppercase base32 without padding.
 *
 * @param bytes The bytes to encode.
 * @returns The base32 text, `ceil(8 * length / 5)` characters.
 *
 * @example
 * ```ts
 * import { encodeBase32 } from "./base32.ts";
 * encodeBase32(new TextEncoder().encode("foobar")); // "MZXW6YTBOI"
 * ```
 */
export function encodeBase32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    buffer = ((buffer << 8) | bytes[i]) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * Decodes unpadded base32, accepting lowercase letters (people copy secrets
 * by hand). Refused: padding, spaces and any other character outside the
 * alphabet, a length no unpadded text can have, and set bits after the last
 * byte (so each byte string has exactly one spelling, up to case).
 *
 * @param text The base32 text.
 * @returns The decoded bytes.
 * @throws {TypeError} For anything that is not canonical unpadded base32.
 *
 * @example
 * ```ts
 * import { decodeBase32 } from "./base32.ts";
 * decodeBase32("MZXW6YTBOI"); // the bytes of "foobar"
 * decodeBase32("mzxw6ytboi"); // the same bytes
 * ```
 */
export function decodeBase32(text: string): Uint8Array {
  if (typeof text !== "string" || !VALID_REMAINDER[text.length % 8]) throw invalid();
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? DECODE[code] : 255;
    if (value === 255) throw invalid();
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 255;
    }
  }
  // The leftover bits only pad the last character: they must be zero.
  if ((buffer & ((1 << bits) - 1)) !== 0) throw invalid();
  return out;
}

function invalid(): TypeError {
  return new TypeError(
    "The text is not base32; expected unpadded RFC 4648 base32 (A-Z and 2-7).",
  );
}
