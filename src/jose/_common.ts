/**
 * Private helpers shared by the JWS and JWE code: parsing of compact tokens
 * and protected headers, media-type comparison, byte helpers.
 *
 * @module
 */

import { decodeBase64Url, encodeBase64Url } from "./base64url.ts";
import { JoseError, type JoseErrorCode } from "./errors.ts";
import type { WebCryptoKey } from "./types.ts";

/** Tokens larger than this many bytes are refused before any parsing. */
export const MAX_TOKEN_BYTES = 16 * 1024;

/** Bytes backed by a plain ArrayBuffer, as Web Crypto wants them. */
export type Bytes = Uint8Array<ArrayBuffer>;

export const encoder: InstanceType<typeof TextEncoder> = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF as data instead of silently dropping it.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The Web Crypto API; read once so every call skips the global lookups. */
export const subtle: typeof crypto.subtle = crypto.subtle;

export function fail(code: JoseErrorCode, message: string): never {
  throw new JoseError(code, message);
}

/** Decodes base64url into bytes that Web Crypto accepts. */
export function decode(text: string): Bytes {
  return decodeBase64Url(text) as Bytes;
}

export function encodeJson(value: unknown): string {
  return encodeBase64Url(encoder.encode(JSON.stringify(value)));
}

export function randomBytes(length: number): Bytes {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** Two arrays joined (the hot path: ciphertext and tag). */
export function join(a: Uint8Array, b: Uint8Array): Bytes {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function concat(...parts: Uint8Array[]): Bytes {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function utf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    return fail("ERR_JOSE_INVALID", "The token content is not valid UTF-8; expected UTF-8 text.");
  }
}

/**
 * Text of bytes that must be ASCII (a compact token). Not validated here:
 * anything else becomes characters that base64url decoding refuses.
 */
export function asciiText(bytes: Uint8Array): string {
  return lenientDecoder.decode(bytes);
}

/** Splits a compact token into its segments after the size check. */
export function splitCompact(token: unknown, count: 3 | 5): string[] {
  if (typeof token !== "string") {
    fail("ERR_JOSE_INVALID", "The token is not a string; expected a compact serialization.");
  }
  // Checked before any parsing so that a huge token costs nothing.
  if (token.length > MAX_TOKEN_BYTES) {
    fail("ERR_JOSE_TOO_LARGE", `The token is larger than ${MAX_TOKEN_BYTES} bytes.`);
  }
  // Scans for the expected dots only; a split is left for the error message.
  const segments: string[] = [];
  let start = 0;
  for (let i = 1; i < count; i++) {
    const dot = token.indexOf(".", start);
    if (dot === -1) break;
    segments.push(token.slice(start, dot));
    start = dot + 1;
  }
  segments.push(token.slice(start));
  if (segments.length !== count || token.indexOf(".", start) !== -1) {
    fail(
      "ERR_JOSE_INVALID",
      `The token has ${token.split(".").length} segments; expected ${count} (compact ${
        count === 3 ? "JWS" : "JWE"
      }).`,
    );
  }
  return segments;
}

/** Parses a protected header segment into a JSON object. */
export function parseHeader(segment: string): Record<string, unknown> {
  const text = utf8(decode(segment));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail("ERR_JOSE_INVALID", "The protected header is not valid JSON; expected a JSON object.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("ERR_JOSE_INVALID", "The protected header is not a JSON object; expected an object.");
  }
  return value as Record<string, unknown>;
}

/** Refuses the `crit` extension mechanism: no extension is understood here. */
export function rejectCrit(header: Record<string, unknown>): void {
  if (header.crit !== undefined) {
    fail(
      "ERR_JOSE_UNSUPPORTED_HEADER",
      "The header carries a crit parameter; expected no critical extensions.",
    );
  }
}

/** Media types compare case-insensitively with an optional `application/` prefix (RFC 7515 4.1.9). */
function normalizeMediaType(value: string): string {
  const lower = value.toLowerCase();
  return lower.startsWith("application/") ? lower.slice(12) : lower;
}

/** Checks `typ` or `cty`: `expected` undefined means any, null means absent. */
export function checkMediaType(
  header: Record<string, unknown>,
  name: "typ" | "cty",
  expected: string | null | undefined,
): void {
  if (expected === undefined) return;
  const actual = header[name];
  if (expected === null) {
    if (actual !== undefined) {
      fail("ERR_JOSE_TYP_MISMATCH", `The header has a ${name} parameter; expected none.`);
    }
    return;
  }
  if (typeof actual !== "string" || normalizeMediaType(actual) !== normalizeMediaType(expected)) {
    fail(
      "ERR_JOSE_TYP_MISMATCH",
      `The header ${name} is ${
        typeof actual === "string" ? JSON.stringify(actual) : "missing"
      }; expected ${JSON.stringify(expected)}.`,
    );
  }
}

export function algorithmNotAllowed(kind: string, value: unknown): never {
  return fail(
    "ERR_JOSE_ALG_NOT_ALLOWED",
    `The header ${kind} ${
      typeof value === "string" ? JSON.stringify(value) : "is missing or not a string"
    }${typeof value === "string" ? " is not allowed" : ""}; expected the algorithm the key pins.`,
  );
}

export function keyInvalid(message: string): never {
  return fail("ERR_JOSE_KEY_INVALID", message);
}

export function isCryptoKey(value: unknown): value is WebCryptoKey {
  if (typeof CryptoKey === "function" && value instanceof CryptoKey) return true;
  return Object.prototype.toString.call(value) === "[object CryptoKey]";
}

export function hasUsage(key: WebCryptoKey, usage: WebCryptoKey["usages"][number]): boolean {
  return key.usages.includes(usage);
}
