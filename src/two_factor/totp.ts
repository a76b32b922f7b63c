/**
 * HOTP (RFC 4226) and TOTP (RFC 6238): HMAC-SHA-1, 6 digits,
 * 30-second steps from the Unix epoch, 20-byte secrets, and the
 * `otpauth://totp/` URI that authenticator apps scan.
 *
 * @module
 */

import { encodeBase32 } from "./base32.ts";
import { hmacSha1 } from "../crypto/sha1.ts";

/** Bytes of a new TOTP secret: the 160 bits RFC 4226 section 4 recommends. */
export const TOTP_SECRET_BYTES = 20;
/** Seconds per TOTP step (RFC 6238 `X`). */
export const TOTP_STEP_SECONDS = 30;
/** Digits of a TOTP code. */
export const TOTP_DIGITS = 6;

/** ASCII digits only: `\d` and `[0-9]` without the `u` flag never match other scripts' digits. */
const SIX_DIGITS = /^[0-9]{6}$/;
const HMAC_SHA1 = { name: "HMAC", hash: "SHA-1" } as const;
const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/** HMAC-SHA-1 under the user's secret, as `hmacSha1(secret)` of `sha1.ts` makes it. */
export type HotpMac = (message: Uint8Array) => Uint8Array;

/** Options of {@link hotp}. */
export interface HotpOptions {
  /** Digits of the code, 6 to 8; default 6. */
  digits?: number;
}

/** Options of {@link totpCode}. */
export interface TotpOptions extends HotpOptions {
  /** Seconds per step; default 30. */
  step?: number;
}

/**
 * Makes a new random TOTP secret.
 *
 * @returns 20 random bytes.
 *
 * @example
 * ```ts
 * import { generateTotpSecret } from "./totp.ts";
 * import { encodeBase32 } from "./base32.ts";
import { hmacSha1 } from "../crypto/sha1.ts";
 * const secret = generateTotpSecret();
 * encodeBase32(secret); // 32 characters, shown to the user once
 * ```
 */
export function generateTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES));
}

/**
 * Imports a secret as the HMAC-SHA-1 signing key HOTP uses (one Web Crypto call).
 *
 * @param secret The shared secret, at least one byte.
 * @returns A non-extractable key that can only sign.
 * @throws {TypeError} When the secret is not a non-empty byte array.
 *
 * @example
 * ```ts
 * import { generateTotpSecret, importHotpKey } from "./totp.ts";
 * const key = await importHotpKey(generateTotpSecret());
 * ```
 */
export function importHotpKey(secret: Uint8Array): Promise<CryptoKey> {
  if (!(secret instanceof Uint8Array) || secret.length === 0) {
    return Promise.reject(
      new TypeError("The HOTP secret is not a non-empty Uint8Array; expected the secret bytes."),
    );
  }
  return crypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, HMAC_SHA1, false, [
    "sign",
  ]);
}

function checkKey(key: CryptoKey): void {
  const algorithm = key.algorithm as { name?: string; hash?: { name?: string } };
  if (
    algorithm.name !== "HMAC" || algorithm.hash?.name !== "SHA-1" || !key.usages.includes("sign")
  ) {
    throw new TypeError(
      "The HOTP key is not an HMAC SHA-1 signing key; expected the secret bytes or such a key.",
    );
  }
}

function checkCounter(counter: number): void {
  if (!Number.isSafeInteger(counter) || counter < 0) {
    throw new TypeError(
      `The HOTP counter ${counter} is not a non-negative safe integer; expected e.g. 0 or 1.`,
    );
  }
}

function checkDigits(digits: number): void {
  if (!Number.isInteger(digits) || digits < 6 || digits > 8) {
    throw new TypeError(`The digits option ${digits} is not 6, 7 or 8; expected 6.`);
  }
}

/** The counter as the 8-byte big-endian message HOTP signs. */
function counterBytes(counter: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(8);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, Math.floor(counter / 0x1_0000_0000));
  view.setUint32(4, counter >>> 0);
  return bytes;
}

/** Dynamic truncation (RFC 4226 section 5.3): the 31-bit value picked by the last nibble. */
function truncate(mac: ArrayBuffer | Uint8Array): number {
  const bytes = mac instanceof Uint8Array ? mac : new Uint8Array(mac);
  const offset = bytes[bytes.length - 1] & 0x0f;
  return ((bytes[offset] & 0x7f) << 24) | (bytes[offset + 1] << 16) |
    (bytes[offset + 2] << 8) | bytes[offset + 3];
}

/** The code of one counter as a number below 10^digits; one Web Crypto call. */
async function hotpValue(key: CryptoKey, counter: number, digits: number): Promise<number> {
  return truncate(await crypto.subtle.sign("HMAC", key, counterBytes(counter))) % POWERS[digits];
}

/**
 * Computes an HOTP code (RFC 4226): HMAC-SHA-1 of the counter, dynamically
 * truncated, as a zero-padded decimal string.
 *
 * @param key The secret bytes, or a key from {@link importHotpKey} (one Web Crypto call fewer).
 * @param counter The moving factor, a non-negative safe integer.
 * @param options The number of digits, 6 (default) to 8.
 * @returns The code, exactly `digits` ASCII digits.
 * @throws {TypeError} For an unusable key, counter or digit count.
 *
 * @example
 * ```ts
 * import { hotp } from "./totp.ts";
 * const secret = new TextEncoder().encode("12345678901234567890");
 * await hotp(secret, 0); // "755224" (RFC 4226 Appendix D)
 * ```
 */
export async function hotp(
  key: Uint8Array | CryptoKey,
  counter: number,
  options: HotpOptions = {},
): Promise<string> {
  const digits = options.digits ?? TOTP_DIGITS;
  checkDigits(digits);
  checkCounter(counter);
  const cryptoKey = key instanceof Uint8Array ? await importHotpKey(key) : key;
  checkKey(cryptoKey);
  return String(await hotpValue(cryptoKey, counter, digits)).padStart(digits, "0");
}

function checkTime(seconds: number, name: string): void {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
    throw new TypeError(
      `The ${name} ${seconds} is not a non-negative finite number; expected seconds since the epoch.`,
    );
  }
}

/**
 * The TOTP step (RFC 6238 `T`) a time falls in: whole steps since the epoch.
 *
 * @param timeSeconds Seconds since the epoch, fractions allowed.
 * @param step Seconds per step; default 30.
 * @returns The step number.
 * @throws {TypeError} For a negative or non-finite time or step.
 *
 * @example
 * ```ts
 * import { totpStep } from "./totp.ts";
 * totpStep(59); // 1
 * ```
 */
export function totpStep(timeSeconds: number, step: number = TOTP_STEP_SECONDS): number {
  checkTime(timeSeconds, "time");
  if (!Number.isInteger(step) || step <= 0) {
    throw new TypeError(`The step ${step} is not a positive integer; expected 30.`);
  }
  return Math.floor(timeSeconds / step);
}

/**
 * Computes the TOTP code (RFC 6238) for a time.
 *
 * @param secret The secret bytes, or a key from {@link importHotpKey}.
 * @param timeSeconds Seconds since the epoch.
 * @param options Seconds per step (default 30) and digits (default 6).
 * @returns The code for the step `timeSeconds` falls in.
 * @throws {TypeError} For an unusable secret, time, step or digit count.
 *
 * @example
 * ```ts
 * import { totpCode } from "./totp.ts";
 * const secret = new TextEncoder().encode("12345678901234567890");
 * await totpCode(secret, 59, { digits: 8 }); // "94287082" (RFC 6238 Appendix B)
 * ```
 */
export function totpCode(
  secret: Uint8Array | CryptoKey,
  timeSeconds: number,
  options: TotpOptions = {},
): Promise<string> {
  try {
    return hotp(secret, totpStep(timeSeconds, options.step), { digits: options.digits });
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Checks a 6-digit TOTP code against the previous, current and next 30-second
 * step of `nowSeconds`, and returns the step it matched so that the caller
 * can mark that step used (`store.consume`); a step must never be accepted twice.
 *
 * The code must be exactly six ASCII digits: letters, spaces, other lengths
 * and other scripts' digits (`"١٢٣٤٥٦"`, fullwidth `"１２３４５６"`) return
 * `null` without any crypto. Otherwise three HMAC-SHA-1 of 8 bytes, in
 * JavaScript (`sha1.ts`: a few µs, where a key import and three Web Crypto
 * calls cost two thread round trips). Every expected code is compared with
 * the input, as numbers, whatever matched first, so the time taken says
 * nothing about how close a wrong code was.
 *
 * @param secret The user's secret bytes, or their HMAC-SHA-1 (`hmacSha1(secret)`).
 * @param code The code the user typed.
 * @param nowSeconds The current time, seconds since the epoch.
 * @returns The matched step number (a match in several steps gives the latest), or `null`.
 * @throws {TypeError} For an empty secret or an invalid time.
 *
 * @example
 * ```ts
 * import { totpCode, verifyTotp } from "./totp.ts";
 * const secret = new TextEncoder().encode("12345678901234567890");
 * const code = await totpCode(secret, 1_111_111_109);
 * verifyTotp(secret, code, 1_111_111_109 + 30); // 37037036: the previous step
 * verifyTotp(secret, code, 1_111_111_109 + 60); // null
 * ```
 */
export function verifyTotp(
  secret: Uint8Array | HotpMac,
  code: string,
  nowSeconds: number,
): number | null {
  const current = totpStep(nowSeconds);
  if (typeof code !== "string" || !SIX_DIGITS.test(code)) return null;
  let mac: HotpMac;
  if (typeof secret === "function") mac = secret;
  else if (secret instanceof Uint8Array && secret.length > 0) mac = hmacSha1(secret);
  else {
    throw new TypeError(
      "The HOTP secret is not a non-empty Uint8Array; expected the secret bytes.",
    );
  }
  const given = Number(code);
  // Step 0 has no previous step.
  const steps = current === 0 ? [0, 1] : [current - 1, current, current + 1];
  const expected = steps.map((step) => truncate(mac(counterBytes(step))) % POWERS[TOTP_DIGITS]);
  let matched: number | null = null;
  for (let i = 0; i < steps.length; i++) {
    // XOR of two integers below 10^6: no early exit on the first differing digit.
    if ((expected[i] ^ given) === 0) matched = steps[i];
  }
  return matched;
}

/** Options of {@link otpauthUri}. */
export interface OtpauthUriOptions {
  /** The user's TOTP secret. */
  secret: Uint8Array;
  /** Who the account is with, e.g. the app's name; must not contain ":". */
  issuer: string;
  /** Which account, e.g. the user's email; a ":" in it is percent-encoded. */
  account: string;
}

/** Percent-encodes all but RFC 3986 unreserved characters (`encodeURIComponent` spares `!'()*`). */
function encodeComponent(value: string, name: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    throw new TypeError(
      `The ${name} is not well-formed Unicode; expected text without lone surrogates.`,
    );
  }
  return encoded.replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function checkLabelPart(value: unknown, name: string): asserts value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 256) {
    throw new TypeError(
      `The ${name} is not a string of 1 to 256 characters; expected e.g. "My App".`,
    );
  }
}

/**
 * Builds the key URI an authenticator app scans as a QR code:
 * `otpauth://totp/{issuer}:{account}?secret=...&issuer=...&algorithm=SHA1&digits=6&period=30`,
 * with the issuer and account percent-encoded (a space is `%20`) and the
 * secret in unpadded base32. The issuer appears both as the label's prefix
 * and as the `issuer` parameter, as the key URI format recommends.
 *
 * @param options The secret, the issuer and the account name.
 * @returns The `otpauth://` URI.
 * @throws {TypeError} For an empty or over-long issuer or account, an issuer
 *   with ":" (apps split the label on it), or a secret that is not 1 to 64 bytes.
 *
 * @example
 * ```ts
 * import { otpauthUri } from "./totp.ts";
 * const secret = new TextEncoder().encode("12345678901234567890");
 * otpauthUri({ secret, issuer: "My App", account: "ada@example.com" });
 * // "otpauth://totp/My%20App:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=My%20App&algorithm=SHA1&digits=6&period=30"
 * ```
 */
export function otpauthUri(options: OtpauthUriOptions): string {
  const { secret, issuer, account } = options ?? {};
  if (!(secret instanceof Uint8Array) || secret.length === 0 || secret.length > 64) {
    throw new TypeError("The secret is not a Uint8Array of 1 to 64 bytes; expected 20 bytes.");
  }
  checkLabelPart(issuer, "issuer");
  checkLabelPart(account, "account");
  if (issuer.includes(":")) {
    throw new TypeError(
      `The issuer ${JSON.stringify(issuer)} contains ":"; expected a name without it.`,
    );
  }
  const encodedIssuer = encodeComponent(issuer, "issuer");
  return `otpauth://totp/${encodedIssuer}:${encodeComponent(account, "account")}` +
    `?secret=${encodeBase32(secret)}&issuer=${encodedIssuer}` +
    `&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_SECONDS}`;
}
