/**
 * Base64url without padding (RFC 4648 section 5), strict on decode.
 *
 * @module
 */

import { JoseError } from "./errors.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// The native base64 encoder (ES2026) where the runtime has it: many times faster.
interface NativeBase64 {
  toBase64?: (options: { alphabet: "base64url"; omitPadding: boolean }) => string;
}
interface NativeBase64Constructor {
  fromBase64?: (text: string, options: { alphabet: "base64url" }) => Uint8Array;
}
const nativeEncode = typeof (Uint8Array.prototype as NativeBase64).toBase64 === "function";
const fromBase64 = (Uint8Array as NativeBase64Constructor).fromBase64;
const LOOSE = { alphabet: "base64url" } as const;
/** Below this length the JavaScript decoder is as fast as the native one. */
const NATIVE_DECODE_MIN = 128;
/** Sextet value per ASCII code; 255 marks characters outside the alphabet. */
const DECODE = new Uint8Array(128).fill(255);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/**
 * Encodes bytes as base64url without padding.
 *
 * @example
 * ```ts
 * import { encodeBase64Url } from "@service-stack/auth/jose";
 * encodeBase64Url(new Uint8Array([251, 255])); // "-_8"
 * ```
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  if (nativeEncode) {
    return (bytes as NativeBase64).toBase64!({ alphabet: "base64url", omitPadding: true });
  }
  return encodeBase64UrlPortable(bytes);
}

/** The JavaScript encoder, used where the runtime has no native one. */
export function encodeBase64UrlPortable(bytes: Uint8Array): string {
  let out = "";
  const len = bytes.length;
  let i = 0;
  for (; i + 2 < len; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] +
      ALPHABET[n & 63];
  }
  if (i + 1 === len) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (i + 2 === len) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/**
 * Decodes base64url without padding. Rejects padding, characters outside the
 * URL-safe alphabet, impossible lengths and non-canonical trailing bits.
 *
 * @throws {JoseError} with code `ERR_JOSE_INVALID` on any malformed input.
 *
 * @example
 * ```ts
 * import { decodeBase64Url } from "@service-stack/auth/jose";
 * decodeBase64Url("-_8"); // Uint8Array [251, 255]
 * ```
 */
export function decodeBase64Url(text: string): Uint8Array {
  const len = text.length;
  const rem = len % 4;
  if (rem === 1) throw invalid();
  if (fromBase64 === undefined || len < NATIVE_DECODE_MIN) return decodeBase64UrlPortable(text);
  let out: Uint8Array;
  try {
    out = fromBase64(text, LOOSE);
  } catch {
    throw invalid();
  }
  // Loose decoding skips whitespace and stops at padding; either makes the output shorter.
  if (out.length !== (len * 3) >> 2) throw invalid();
  // It also ignores the unused bits of the last character, which must be zero.
  if (rem !== 0 && DECODE[text.charCodeAt(len - 1) & 127] & (rem === 2 ? 15 : 3)) throw invalid();
  return out;
}

/** The JavaScript decoder, with the same rules; used where there is no native one. */
export function decodeBase64UrlPortable(text: string): Uint8Array {
  const len = text.length;
  const rem = len % 4;
  if (rem === 1) throw invalid();
  const out = new Uint8Array((len * 3) >> 2);
  const end = len - rem;
  let o = 0;
  let i = 0;
  // No call per character: tokens are decoded on every request.
  while (i < end) {
    const c0 = text.charCodeAt(i++);
    const c1 = text.charCodeAt(i++);
    const c2 = text.charCodeAt(i++);
    const c3 = text.charCodeAt(i++);
    const a = DECODE[c0 & 127];
    const b = DECODE[c1 & 127];
    const c = DECODE[c2 & 127];
    const d = DECODE[c3 & 127];
    // Valid characters are ASCII with a value below 64; anything else sets a bit above 127.
    if ((c0 | c1 | c2 | c3 | a | b | c | d) > 127) throw invalid();
    out[o++] = (a << 2) | (b >> 4);
    out[o++] = ((b & 15) << 4) | (c >> 2);
    out[o++] = ((c & 3) << 6) | d;
  }
  if (rem === 2) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const a = DECODE[c0 & 127];
    const b = DECODE[c1 & 127];
    if ((c0 | c1 | a | b) > 127 || b & 15) throw invalid();
    out[o++] = (a << 2) | (b >> 4);
  } else if (rem === 3) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const a = DECODE[c0 & 127];
    const b = DECODE[c1 & 127];
    const c = DECODE[c2 & 127];
    if ((c0 | c1 | c2 | a | b | c) > 127 || c & 3) throw invalid();
    out[o++] = (a << 2) | (b >> 4);
    out[o++] = ((b & 15) << 4) | (c >> 2);
  }
  return out;
}

function invalid(): JoseError {
  return new JoseError("ERR_JOSE_INVALID", "Invalid base64url: expected unpadded URL-safe base64.");
}
