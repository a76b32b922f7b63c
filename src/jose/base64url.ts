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
interface NativeBase64Target {
  setFromBase64?: (
    text: string,
    options: { alphabet: "base64url" },
  ) => { read: number; written: number };
}
const nativeEncode = typeof (Uint8Array.prototype as NativeBase64).toBase64 === "function";
const nativeInto = typeof (Uint8Array.prototype as NativeBase64Target).setFromBase64 === "function";
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
  const out = new Uint8Array(decodedBase64UrlLength(text));
  decodeBase64UrlInto(text, out, 0);
  return out;
}

/** The JavaScript decoder, with the same rules; used where there is no native one. */
export function decodeBase64UrlPortable(text: string): Uint8Array {
  const out = new Uint8Array(decodedBase64UrlLength(text));
  decodePortableInto(text, out, 0);
  return out;
}

/**
 * How many bytes a base64url text decodes to; throws for a length no
 * unpadded base64url text can have.
 */
export function decodedBase64UrlLength(text: string): number {
  if (text.length % 4 === 1) throw invalid();
  return (text.length * 3) >> 2;
}

/**
 * Decodes base64url into `target` from `offset`, with the rules of
 * {@link decodeBase64Url}; returns the number of bytes written
 * ({@link decodedBase64UrlLength}). For hot paths: buffers cost far more to
 * allocate than to fill, so several segments can share one.
 *
 * @throws {JoseError} with code `ERR_JOSE_INVALID` on malformed input, or
 *   when `target` has no room for the bytes.
 */
export function decodeBase64UrlInto(text: string, target: Uint8Array, offset: number): number {
  const length = decodedBase64UrlLength(text);
  if (offset < 0 || offset + length > target.length) throw invalid();
  if (!nativeInto || text.length < NATIVE_DECODE_MIN) {
    return decodePortableInto(text, target, offset);
  }
  let result: { read: number; written: number };
  try {
    result = (target.subarray(offset, offset + length) as NativeBase64Target).setFromBase64!(
      text,
      LOOSE,
    );
  } catch {
    throw invalid();
  }
  // As for decodeBase64Url: whitespace or padding leave bytes unwritten, and the
  // unused bits of the last character must be zero.
  const rem = text.length % 4;
  if (result.read !== text.length || result.written !== length) throw invalid();
  if (rem !== 0 && DECODE[text.charCodeAt(text.length - 1) & 127] & (rem === 2 ? 15 : 3)) {
    throw invalid();
  }
  return length;
}

function decodePortableInto(text: string, out: Uint8Array, offset: number): number {
  const len = text.length;
  const rem = len % 4;
  if (rem === 1) throw invalid();
  const end = len - rem;
  let o = offset;
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
  return o - offset;
}

function invalid(): JoseError {
  return new JoseError("ERR_JOSE_INVALID", "Invalid base64url: expected unpadded URL-safe base64.");
}
