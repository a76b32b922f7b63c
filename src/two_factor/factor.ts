/**
 * A user's second factor, sealed into the one opaque string the app keeps
 * in its user record (`twoFactor.save(sub, value)`, `twoFactor.load(sub)`).
 *
 * Sealing is the library's own JWE (`dir` + A256GCM under the key of the
 * JOSE object passed in, `kid` for rotation), with `cty` `2fa-factor` and
 * the user's `sub` inside the encrypted payload: a value made for one user
 * and loaded for another, a value of another kind (a session token, a
 * pending sign-in), or anything the app or an attacker wrote itself, is
 * refused with a {@link TwoFactorError}, never taken for "two-factor off".
 *
 * Wiring: the sealer is a JOSE object with its own purpose, e.g.
 * `createJose(secret, { purpose: "two-factor", mode: "encrypted" })`, so its
 * key is derived for this use only and its `typ` is `two-factor+jwt`.
 *
 * @module
 */

import type { Jose } from "../jose/types.ts";
import { isRecord } from "../is_record.ts";
import { BACKUP_CODE_COUNT, BACKUP_CODE_HASH_LENGTH } from "./backup_codes.ts";
import { decodeBase32, encodeBase32 } from "./base32.ts";
import { TwoFactorError } from "./errors.ts";
import { TOTP_SECRET_BYTES } from "./totp.ts";

/** What seals and opens two-factor values: a JOSE object (any mode; the JWE methods always encrypt). */
export type TwoFactorSealer = Pick<Jose, "encryptJWE" | "decryptJWE">;

/** The `cty` of a sealed factor: no other sealed value of the library passes for one. */
export const FACTOR_CTY = "2fa-factor";
const FACTOR_VERSION = 1;
const FACTOR_KEYS = /* @__PURE__ */ ["v", "sub", "secret", "backupCodeHashes", "createdAt"].sort()
  .join();
// In a pure call: a template with a value counts as a side effect, which bundles would keep.
const HASH = /* @__PURE__ */ (() => new RegExp(`^[A-Za-z0-9_-]{${BACKUP_CODE_HASH_LENGTH}}$`))();

/** A user's second factor, opened. */
export interface TwoFactorFactor {
  /** The user it belongs to; sealing binds it. 1 to 256 characters. */
  sub: string;
  /** The TOTP secret, 20 bytes. */
  secret: Uint8Array;
  /** Hashes of the unused backup codes (`generateBackupCodes().hashes`), at most 10. */
  backupCodeHashes: readonly string[];
  /** When two-factor was turned on, seconds since the epoch. */
  createdAt: number;
}

/** What {@link openFactor} needs. */
export interface OpenFactorInput {
  /** The user being signed in: the factor must have been sealed for this `sub`. */
  sub: string;
  /** What `twoFactor.load(sub)` returned. */
  sealed: string;
}

function checkSub(sub: unknown): sub is string {
  return typeof sub === "string" && sub.length > 0 && sub.length <= 256;
}

function isFactorShape(factor: unknown): factor is TwoFactorFactor {
  if (!isRecord(factor)) return false;
  const { sub, secret, backupCodeHashes, createdAt } = factor;
  return checkSub(sub) && secret instanceof Uint8Array && secret.length === TOTP_SECRET_BYTES &&
    Array.isArray(backupCodeHashes) && backupCodeHashes.length <= BACKUP_CODE_COUNT &&
    backupCodeHashes.every((hash) => typeof hash === "string" && HASH.test(hash)) &&
    Number.isSafeInteger(createdAt) && (createdAt as number) >= 0;
}

/**
 * Seals a factor into the opaque string the app stores (one AES-GCM
 * encryption once the sealer's key is ready).
 *
 * @param sealer The JOSE object of the two-factor purpose.
 * @param factor The factor, with the `sub` it belongs to.
 * @returns The sealed factor, about 1,000 characters with ten backup codes.
 * @throws {TypeError} For a malformed factor.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { generateBackupCodes } from "./backup_codes.ts";
 * import { sealFactor } from "./factor.ts";
 * import { generateTotpSecret } from "./totp.ts";
 * const sealer = createJose("a-secret-of-at-least-thirty-two-bytes!!", {
 *   purpose: "two-factor",
 *   mode: "encrypted",
 * });
 * const { hashes } = await generateBackupCodes();
 * const sealed = await sealFactor(sealer, {
 *   sub: "user-1",
 *   secret: generateTotpSecret(),
 *   backupCodeHashes: hashes,
 *   createdAt: Math.floor(Date.now() / 1000),
 * });
 * ```
 */
export async function sealFactor(
  sealer: TwoFactorSealer,
  factor: TwoFactorFactor,
): Promise<string> {
  if (!isFactorShape(factor)) {
    throw new TypeError(
      "The factor is malformed; expected { sub, secret: 20 bytes, backupCodeHashes: at most 10 hashes, createdAt }.",
    );
  }
  const payload = JSON.stringify({
    v: FACTOR_VERSION,
    sub: factor.sub,
    secret: encodeBase32(factor.secret),
    backupCodeHashes: factor.backupCodeHashes,
    createdAt: factor.createdAt,
  });
  return await sealer.encryptJWE(payload, { cty: FACTOR_CTY });
}

function refused(message: string, cause?: unknown): TwoFactorError {
  return new TwoFactorError("ERR_TWO_FACTOR_FACTOR_INVALID", message, { cause });
}

/**
 * Opens a stored factor for the user being signed in: one AES-GCM
 * decryption, then a strict check of every field.
 *
 * @param sealer The JOSE object the factor was sealed with (or a key list that still holds its key).
 * @param input The user's `sub` and the stored string.
 * @returns The factor.
 * @throws {TwoFactorError} `ERR_TWO_FACTOR_FACTOR_INVALID` for anything this
 *   sealer did not seal as a factor, a malformed payload, or a factor of another user.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { openFactor, sealFactor } from "./factor.ts";
 * import { generateTotpSecret } from "./totp.ts";
 * const sealer = createJose("a-secret-of-at-least-thirty-two-bytes!!", {
 *   purpose: "two-factor",
 *   mode: "encrypted",
 * });
 * const factor = { sub: "user-1", secret: generateTotpSecret(), backupCodeHashes: [], createdAt: 0 };
 * const sealed = await sealFactor(sealer, factor);
 * await openFactor(sealer, { sub: "user-1", sealed }); // the factor
 * await openFactor(sealer, { sub: "user-2", sealed }).catch((e) => e.code);
 * // "ERR_TWO_FACTOR_FACTOR_INVALID"
 * ```
 */
export async function openFactor(
  sealer: TwoFactorSealer,
  input: OpenFactorInput,
): Promise<TwoFactorFactor> {
  const { sub, sealed } = input ?? {};
  if (!checkSub(sub)) {
    throw new TypeError("The sub is not a string of 1 to 256 characters; expected the user's id.");
  }
  if (typeof sealed !== "string") {
    throw refused("The stored two-factor value is not a string; expected what sealFactor made.");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(await sealer.decryptJWE(sealed, { cty: FACTOR_CTY }));
  } catch (error) {
    throw refused(
      "The stored two-factor value does not open with the two-factor key; expected what sealFactor made.",
      error,
    );
  }
  if (!isRecord(payload) || Object.keys(payload).sort().join() !== FACTOR_KEYS) {
    throw refused("The stored two-factor value is malformed; expected a sealed factor.");
  }
  if (payload.v !== FACTOR_VERSION) {
    throw refused(`The stored two-factor value has version ${payload.v}; expected 1.`);
  }
  if (payload.sub !== sub) {
    throw refused("The stored two-factor value belongs to another user; expected this user's.");
  }
  let secret: Uint8Array;
  try {
    secret = decodeBase32(payload.secret as string);
  } catch (error) {
    throw refused("The stored TOTP secret is malformed; expected base32.", error);
  }
  const factor = {
    sub,
    secret,
    backupCodeHashes: payload.backupCodeHashes,
    createdAt: payload.createdAt,
  };
  if (!isFactorShape(factor)) {
    throw refused("The stored two-factor value is malformed; expected a sealed factor.");
  }
  return factor;
}

/**
 * The factor without one backup code: call it with the index
 * `verifyBackupCode` returned, then seal and save the result, so that the
 * code works once. The factor passed in is not changed.
 *
 * @param factor The opened factor.
 * @param index The index of the used code in `factor.backupCodeHashes`.
 * @returns A new factor with that hash removed.
 * @throws {RangeError} For an index outside the list.
 *
 * @example
 * ```ts
 * import { removeBackupCode } from "./factor.ts";
 * const factor = {
 *   sub: "user-1",
 *   secret: new Uint8Array(20),
 *   backupCodeHashes: ["a".repeat(43), "b".repeat(43)],
 *   createdAt: 0,
 * };
 * removeBackupCode(factor, 0).backupCodeHashes; // ["bbb..."]
 * ```
 */
export function removeBackupCode(factor: TwoFactorFactor, index: number): TwoFactorFactor {
  const hashes = factor.backupCodeHashes;
  if (!Number.isInteger(index) || index < 0 || index >= hashes.length) {
    throw new RangeError(
      `The backup code index ${index} is outside the list; expected 0 to ${hashes.length - 1}.`,
    );
  }
  return {
    ...factor,
    backupCodeHashes: [...hashes.slice(0, index), ...hashes.slice(index + 1)],
  };
}
