/**
 * The text of an API key, `<prefix>_<id>_<secret><crc>`: the record's id
 * (16 base62 characters, about 95 bits), a secret of 43 base62 characters
 * (256 bits), and a CRC-32 of everything before it in 6 base62 characters.
 * Only letters and digits between the two underscores, so a key survives a
 * double-click selection and any shell quoting. Parsing is strict and
 * checks the CRC, with no store call: a key with any one character changed,
 * added or removed is refused here.
 *
 * @module
 */

import { crc32 } from "./crc32.ts";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Characters of a key's id. */
export const API_KEY_ID_LENGTH = 16;
/** Characters of a key's secret: 43 base62 characters hold 256.03 bits. */
const SECRET_LENGTH = 43;
const CRC_LENGTH = 6;
/** The pattern a configured prefix must match. */
export const PREFIX_PATTERN: RegExp = /^[a-z]{2,8}$/;
const KEY_PATTERN = /^([a-z]{2,8})_([0-9A-Za-z]{16})_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;
/** The pattern of a key id (in the `DELETE /apiKeys/:id` path, for example). */
export const API_KEY_ID_PATTERN: RegExp = /^[0-9A-Za-z]{16}$/;

/** `length` uniformly random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      // 248 = 4 * 62: bytes at or above it would favour the first characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function crcText(value: number): string {
  let out = "";
  for (let i = 0; i < CRC_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** A new key for a prefix: its id, and the whole text (shown once). */
export function newApiKey(prefix: string): { id: string; key: string } {
  const id = randomBase62(API_KEY_ID_LENGTH);
  const body = `${prefix}_${id}_${randomBase62(SECRET_LENGTH)}`;
  return { id, key: body + crcText(crc32(body)) };
}

/**
 * The id of a well-formed key with this prefix and a right CRC, or `null`:
 * no store is asked about anything this refuses.
 */
export function parseApiKey(text: string, prefix: string): string | null {
  if (text.length !== prefix.length + 2 + API_KEY_ID_LENGTH + SECRET_LENGTH + CRC_LENGTH) {
    return null;
  }
  const match = KEY_PATTERN.exec(text);
  if (match === null || match[1] !== prefix) return null;
  const body = text.slice(0, text.length - CRC_LENGTH);
  if (crcText(crc32(body)) !== match[4]) return null;
  return match[2];
}
