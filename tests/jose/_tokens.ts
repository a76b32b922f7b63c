/**
 * Helpers that take compact tokens apart and put modified ones together.
 *
 * @module
 */

import { decodeBase64Url, encodeBase64Url } from "../../jose.ts";

const encoder = new TextEncoder();

/** A base64url segment of a JSON value. */
export function jsonSegment(value: unknown): string {
  return encodeBase64Url(encoder.encode(JSON.stringify(value)));
}

/** A base64url segment of text. */
export function textSegment(text: string): string {
  return encodeBase64Url(encoder.encode(text));
}

/** The decoded JSON of a token's first segment. */
export function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(decodeBase64Url(token.split(".")[0])));
}

/** The token with segment `index` replaced. */
export function withSegment(token: string, index: number, segment: string): string {
  const parts = token.split(".");
  parts[index] = segment;
  return parts.join(".");
}

/** The token with one bit of segment `index` flipped (byte `at`, default the first). */
export function flipBit(token: string, index: number, at = 0): string {
  const bytes = decodeBase64Url(token.split(".")[index]);
  bytes[at < 0 ? bytes.length + at : at] ^= 1;
  return withSegment(token, index, encodeBase64Url(bytes));
}

/** The token with its header replaced by `header` plus whatever `extra` adds. */
export function withHeader(token: string, extra: Record<string, unknown>): string {
  return withSegment(token, 0, jsonSegment({ ...headerOf(token), ...extra }));
}
