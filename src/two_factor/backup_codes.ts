/**
 * Backup codes: ten single-use codes shown once at enrollment and kept only
 * as hashes inside the sealed factor.
 *
 * A code is 10 characters of Crockford's base32 alphabet (no i, l, o, u),
 * 50 random bits, shown as `xxxxx-xxxxx` in lowercase. Typing is forgiving:
 * case, dashes and spaces are ignored, and `o`, `i`, `l` read as `0`, `1`, `1`.
 *
 * Hashing: SHA-256 of a fixed label and the normalised code, no key and no
 * salt. The hashes are only ever stored inside the sealed factor, so reading
 * them already takes the sealing key, which also opens the TOTP secret (a
 * stronger credential than any backup code); a keyed HMAC would add a second
 * secret that protects nothing more. The hash is there so that an opened
 * factor (in memory, in a log) never shows a usable code, and 50 bits per
 * code make a single guess worthless while the attempt limit holds.
 *
 * @module
 */

import { sha256 } from "../crypto/sha256.ts";
import { encodeBase64Url } from "../jose/base64url.ts";

/** Backup codes made per enrollment. */
export const BACKUP_CODE_COUNT = 10;
/** Characters of a backup code, without its dash. */
export const BACKUP_CODE_LENGTH = 10;

/** Crockford's base32 digits, lowercase: 32 symbols, so 5 random bits pick one without bias. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
/** Symbol value per ASCII code after lowercasing; 255 marks anything else. */
const VALUE = /* @__PURE__ */ (() => {
  const value = new Uint8Array(128).fill(255);
  for (let i = 0; i < ALPHABET.length; i++) value[ALPHABET.charCodeAt(i)] = i;
  // The letters Crockford reads as digits, since they look alike.
  value["o".charCodeAt(0)] = 0;
  value["i".charCodeAt(0)] = 1;
  value["l".charCodeAt(0)] = 1;
  return value;
})();
/** Longest input looked at: a code with generous spacing; longer input is refused unread. */
const MAX_INPUT = 64;
const LABEL = "@service-stack/auth backup-code ";
const encoder = /* @__PURE__ */ new TextEncoder();
/** Characters of a stored hash: SHA-256 in unpadded base64url. */
export const BACKUP_CODE_HASH_LENGTH = 43;

/** What {@link generateBackupCodes} returns. */
export interface BackupCodes {
  /** The codes to show the user, once, as `xxxxx-xxxxx`. */
  codes: string[];
  /** Their hashes, in the same order, to keep in the factor. */
  hashes: string[];
}

/**
 * Makes ten new backup codes and their hashes (SHA-256 in JavaScript).
 *
 * @returns The codes to show once and the hashes to store.
 *
 * @example
 * ```ts
 * import { generateBackupCodes } from "./backup_codes.ts";
 * const { codes, hashes } = generateBackupCodes();
 * codes[0]; // e.g. "7k2mq-x9d4r"
 * hashes[0]; // 43 base64url characters, stored in the factor
 * ```
 */
export function generateBackupCodes(): BackupCodes {
  const random = crypto.getRandomValues(new Uint8Array(BACKUP_CODE_COUNT * BACKUP_CODE_LENGTH));
  const codes: string[] = [];
  for (let c = 0; c < BACKUP_CODE_COUNT; c++) {
    let code = "";
    for (let i = 0; i < BACKUP_CODE_LENGTH; i++) {
      code += ALPHABET[random[c * BACKUP_CODE_LENGTH + i] & 31];
    }
    codes.push(`${code.slice(0, 5)}-${code.slice(5)}`);
  }
  const hashes = codes.map((code) => hashNormalised(normaliseBackupCode(code)!));
  return { codes, hashes };
}

/**
 * The canonical form of a typed backup code: lowercase, without dashes or
 * whitespace, `o`/`i`/`l` read as `0`/`1`/`1`.
 *
 * @param input What the user typed.
 * @returns The ten-character code, or `null` when the input cannot be a backup code.
 *
 * @example
 * ```ts
 * import { normaliseBackupCode } from "./backup_codes.ts";
 * normaliseBackupCode(" 7K2MQ-X9D4R "); // "7k2mqx9d4r"
 * normaliseBackupCode("7k2mq-x9d4"); // null
 * ```
 */
export function normaliseBackupCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > MAX_INPUT) return null;
  let out = "";
  for (let i = 0; i < input.length; i++) {
    let code = input.charCodeAt(i);
    // Separators people type or paste: dash, space, tab.
    if (code === 0x2d || code === 0x20 || code === 0x09) continue;
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    const value = code < 128 ? VALUE[code] : 255;
    if (value === 255) return null;
    out += ALPHABET[value];
  }
  return out.length === BACKUP_CODE_LENGTH ? out : null;
}

function hashNormalised(code: string): string {
  // In JavaScript: a code costs no Web Crypto trip, and SHA-256 runs in time set by length alone.
  return encodeBase64Url(sha256(encoder.encode(LABEL + code)));
}

/**
 * The stored hash of a backup code, from any spelling of it.
 *
 * @param input The code, as shown or as typed.
 * @returns Its hash, or `null` when the input cannot be a backup code (no crypto then).
 *
 * @example
 * ```ts
 * import { hashBackupCode } from "./backup_codes.ts";
 * hashBackupCode("7K2MQ X9D4R") === hashBackupCode("7k2mq-x9d4r"); // true
 * ```
 */
export function hashBackupCode(input: unknown): string | null {
  const code = normaliseBackupCode(input);
  return code === null ? null : hashNormalised(code);
}

/**
 * Finds which stored backup code the input is. Every stored hash is compared
 * in full, whatever matched, so the time taken says nothing about which
 * entry matched or how close a guess was. One SHA-256 (in JavaScript); none
 * for input that cannot be a code.
 *
 * The caller removes the code found (`removeBackupCode`) and saves the
 * factor, so that a code works once.
 *
 * @param hashes The stored hashes (`factor.backupCodeHashes`).
 * @param input What the user typed.
 * @returns The index of the matching hash, or `null`.
 *
 * @example
 * ```ts
 * import { generateBackupCodes, verifyBackupCode } from "./backup_codes.ts";
 * const { codes, hashes } = generateBackupCodes();
 * verifyBackupCode(hashes, codes[3].toUpperCase()); // 3
 * verifyBackupCode(hashes, "00000-00000"); // null (with overwhelming probability)
 * ```
 */
export function verifyBackupCode(
  hashes: readonly string[],
  input: unknown,
): number | null {
  const hash = hashBackupCode(input);
  if (hash === null) return null;
  let found = -1;
  for (let i = 0; i < hashes.length; i++) {
    const stored = hashes[i];
    let diff = stored.length ^ hash.length;
    for (let j = 0; j < hash.length; j++) diff |= stored.charCodeAt(j) ^ hash.charCodeAt(j);
    // Only whether some entry matched shows in the time, and the result says that anyway.
    if (diff === 0 && found === -1) found = i;
  }
  return found === -1 ? null : found;
}
