/**
 * The pending second step: what the `two_factor` cookie carries between a
 * first factor and the code, the enrollment cookie between `enroll` and
 * `confirm`, and the store keys that make codes single-use and attempts few.
 *
 * A sealed cookie can be replayed until it expires, so nothing that must
 * change after a try lives in it: wrong attempts are counted in the store
 * under the pending sign-in's random `id`, each TOTP step is consumed per
 * user, each backup code per user, and the pending sign-in itself is
 * consumed once it has made a session.
 *
 * `operations.ts` composes these into the steps the routes call
 * (`verifySecondStep` and the rest); the order matters and is kept there:
 * open the cookie, count the try, open the factor, check the answer and mark
 * it used (`consumeTotpStep` / `consumeBackupCode`), then
 * `finishPendingSignIn`.
 *
 * Wiring: after a first factor, when `twoFactor.load(sub)`
 * returns a string, no session is made; instead
 * `sealPendingSignIn(sealer, { sub, provider, user, redirectTo })` goes into
 * the `two_factor` cookie (HttpOnly, Secure, SameSite=Lax, Max-Age=300,
 * path `{basePath}`), and `POST /twoFactor/verify` calls `verifySecondStep`
 * with that cookie; on success it makes the session from `pending.user` and
 * clears the cookie. The enrollment cookie holds `sealPendingEnrollment`
 * between `POST /twoFactor/enroll` and `/confirm` (10 minutes).
 *
 * @module
 */

import { sha256 } from "../crypto/sha256.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import { isRecord } from "../is_record.ts";
import type { SessionStore } from "../store/types.ts";
import { decodeBase32, encodeBase32 } from "./base32.ts";
import { TwoFactorError } from "./errors.ts";
import type { TwoFactorSealer } from "./factor.ts";
import { TOTP_SECRET_BYTES, TOTP_STEP_SECONDS } from "./totp.ts";

/** Seconds a pending sign-in lasts. */
export const PENDING_SIGN_IN_SECONDS = 300;
/** Seconds a pending enrollment lasts: time to scan the code and type one. */
export const PENDING_ENROLLMENT_SECONDS = 600;
/** Codes (TOTP or backup) tried per pending sign-in; the next one ends it. */
export const MAX_CODE_ATTEMPTS = 5;
/** The `cty` of a sealed pending sign-in. */
export const PENDING_SIGN_IN_CTY = "2fa-pending";
/** The `cty` of a sealed pending enrollment. */
export const PENDING_ENROLLMENT_CTY = "2fa-enroll";
/** Slack for clocks of several instances: store marks outlive what they guard by this much. */
const CLOCK_SLACK_SECONDS = 60;
/** How long a used backup code stays marked: it only has to outlast the save that removes it. */
const BACKUP_CODE_MARK_SECONDS = 600;
const MAX_STORE_KEY = 256;
const encoder = /* @__PURE__ */ new TextEncoder();

/** The store operations this module uses. */
export type TwoFactorStore = Pick<SessionStore, "hit" | "consume" | "hits">;

/** A sign-in waiting for its second step. */
export interface PendingSignIn {
  /** Random id (128 bits, base64url) naming this sign-in's attempt counter. */
  id: string;
  /** The user signing in. */
  sub: string;
  /** How the first factor was made, e.g. `"credentials"` or a provider id. */
  provider: string;
  /** The user the first factor produced, to make the session from. */
  user: Record<string, unknown>;
  /** Where to go once signed in. */
  redirectTo?: string;
  /** The user's password-reset mark when the first factor passed (a reset since ends it). */
  resetMark?: string;
  /** When it ends, seconds since the epoch. */
  exp: number;
}

/** What {@link sealPendingSignIn} is given. */
export type PendingSignInInput = Omit<PendingSignIn, "id" | "exp">;

/** A secret shown at `enroll`, waiting for its first code at `confirm`. */
export interface PendingEnrollment {
  /** The signed-in user enrolling. */
  sub: string;
  /** The new TOTP secret, 20 bytes. */
  secret: Uint8Array;
  /** When it ends, seconds since the epoch. */
  exp: number;
}

/** The time option of the functions here. */
export interface NowOptions {
  /** The current time in seconds since the epoch; default `Date.now() / 1000`. */
  now?: number;
}

function nowOf(options: NowOptions | undefined): number {
  const now = options?.now ?? Date.now() / 1000;
  if (typeof now !== "number" || !Number.isFinite(now) || now < 0) {
    throw new TypeError(`The time ${now} is not a non-negative finite number; expected seconds.`);
  }
  return now;
}

function isSub(sub: unknown): sub is string {
  return typeof sub === "string" && sub.length > 0 && sub.length <= MAX_STORE_KEY;
}

function sameKeys(record: Record<string, unknown>, required: string[], optional: string[]) {
  const keys = Object.keys(record);
  return required.every((key) => key in record) &&
    keys.every((key) => required.includes(key) || optional.includes(key));
}

function invalidPending(message: string, cause?: unknown): TwoFactorError {
  return new TwoFactorError("ERR_TWO_FACTOR_PENDING_INVALID", message, { cause });
}

/** Opens a sealed value of one kind; anything that does not open is invalid. */
async function openSealed(
  sealer: TwoFactorSealer,
  value: unknown,
  cty: string,
): Promise<Record<string, unknown>> {
  if (typeof value !== "string" || value.length === 0) {
    throw invalidPending("The pending two-factor value is missing; expected the sealed cookie.");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(await sealer.decryptJWE(value, { cty }));
  } catch (error) {
    throw invalidPending(
      "The pending two-factor value does not open with the two-factor key; expected the sealed cookie.",
      error,
    );
  }
  if (!isRecord(payload) || payload.v !== 1) {
    throw invalidPending("The pending two-factor value is malformed; expected the sealed cookie.");
  }
  return payload;
}

function checkExpiry(exp: unknown, now: number, what: string): void {
  if (typeof exp !== "number" || !Number.isFinite(exp)) {
    throw invalidPending("The pending two-factor value has no expiry; expected the sealed cookie.");
  }
  if (now >= exp) {
    throw new TwoFactorError(
      "ERR_TWO_FACTOR_PENDING_EXPIRED",
      `The pending two-factor ${what} has expired; expected it to be finished in time.`,
    );
  }
}

/**
 * Seals a sign-in that waits for its second step, for the `two_factor` cookie.
 *
 * @param sealer The JOSE object of the two-factor purpose.
 * @param input The user, how they signed in and where they go next.
 * @param options The current time.
 * @returns The sealed value and the pending sign-in it holds (with its `id` and `exp`).
 * @throws {TypeError} For a malformed input.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { sealPendingSignIn } from "./pending.ts";
 * const sealer = createJose("a-secret-of-at-least-thirty-two-bytes!!", {
 *   purpose: "two-factor",
 *   mode: "encrypted",
 * });
 * const { value, pending } = await sealPendingSignIn(sealer, {
 *   sub: "user-1",
 *   provider: "credentials",
 *   user: { sub: "user-1", name: "Ada" },
 *   redirectTo: "/account",
 * });
 * pending.exp - Date.now() / 1000; // about 300
 * ```
 */
export async function sealPendingSignIn(
  sealer: TwoFactorSealer,
  input: PendingSignInInput,
  options?: NowOptions,
): Promise<{ value: string; pending: PendingSignIn }> {
  const { sub, provider, user, redirectTo, resetMark } = input ?? {};
  if (
    !isSub(sub) || typeof provider !== "string" || provider.length === 0 || !isRecord(user) ||
    (redirectTo !== undefined && typeof redirectTo !== "string") ||
    (resetMark !== undefined && typeof resetMark !== "string")
  ) {
    throw new TypeError(
      "The pending sign-in is malformed; expected { sub, provider, user, redirectTo? }.",
    );
  }
  const pending: PendingSignIn = {
    id: encodeBase64Url(crypto.getRandomValues(new Uint8Array(16))),
    sub,
    provider,
    user,
    exp: Math.floor(nowOf(options)) + PENDING_SIGN_IN_SECONDS,
  };
  if (redirectTo !== undefined) pending.redirectTo = redirectTo;
  if (resetMark) pending.resetMark = resetMark;
  const value = await sealer.encryptJWE(JSON.stringify({ v: 1, ...pending }), {
    cty: PENDING_SIGN_IN_CTY,
  });
  return { value, pending };
}

/**
 * Opens the `two_factor` cookie. It says who is signing in; whether another
 * try is allowed is the store's to say ({@link countCodeAttempt}).
 *
 * @param sealer The JOSE object of the two-factor purpose.
 * @param value The cookie's value.
 * @param options The current time.
 * @returns The pending sign-in.
 * @throws {TwoFactorError} `ERR_TWO_FACTOR_PENDING_EXPIRED` after its five
 *   minutes; `ERR_TWO_FACTOR_PENDING_INVALID` for anything else not sealed
 *   by {@link sealPendingSignIn} with this key.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { openPendingSignIn, sealPendingSignIn } from "./pending.ts";
 * const sealer = createJose("a-secret-of-at-least-thirty-two-bytes!!", {
 *   purpose: "two-factor",
 *   mode: "encrypted",
 * });
 * const { value } = await sealPendingSignIn(sealer, {
 *   sub: "user-1",
 *   provider: "credentials",
 *   user: { sub: "user-1" },
 * });
 * (await openPendingSignIn(sealer, value)).sub; // "user-1"
 * ```
 */
export async function openPendingSignIn(
  sealer: TwoFactorSealer,
  value: string,
  options?: NowOptions,
): Promise<PendingSignIn> {
  const now = nowOf(options);
  const payload = await openSealed(sealer, value, PENDING_SIGN_IN_CTY);
  const { id, sub, provider, user, redirectTo, resetMark, exp } = payload;
  if (
    !sameKeys(payload, ["v", "id", "sub", "provider", "user", "exp"], [
      "redirectTo",
      "resetMark",
    ]) ||
    typeof id !== "string" || id.length !== 22 || !isSub(sub) || typeof provider !== "string" ||
    !isRecord(user) || (redirectTo !== undefined && typeof redirectTo !== "string") ||
    (resetMark !== undefined && typeof resetMark !== "string")
  ) {
    throw invalidPending("The pending sign-in is malformed; expected the sealed cookie.");
  }
  checkExpiry(exp, now, "sign-in");
  const pending: PendingSignIn = { id, sub, provider, user, exp: exp as number };
  if (redirectTo !== undefined) pending.redirectTo = redirectTo;
  if (resetMark !== undefined) pending.resetMark = resetMark;
  return pending;
}

/**
 * Counts one code try (TOTP or backup, right or wrong) on a pending sign-in,
 * before the code is checked: counting first keeps parallel requests from
 * all passing a "fewer than 5 so far" check. Allows the first
 * {@link MAX_CODE_ATTEMPTS}; any later try is refused without checking the
 * code, however often the cookie is replayed, until it expires.
 *
 * @param store The configured store.
 * @param pending The opened pending sign-in.
 * @param options The current time.
 * @returns `true` when this try may check its code; `false` when the sign-in is over.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { countCodeAttempt } from "./pending.ts";
 * const store = memoryStore();
 * const pending = { id: "AAAAAAAAAAAAAAAAAAAAAA", sub: "u", provider: "credentials", user: {}, exp: Date.now() / 1000 + 300 };
 * for (let i = 0; i < 5; i++) await countCodeAttempt(store, pending); // true each time
 * await countCodeAttempt(store, pending); // false
 * ```
 */
export async function countCodeAttempt(
  store: TwoFactorStore,
  pending: Pick<PendingSignIn, "id" | "exp">,
  options?: NowOptions,
): Promise<boolean> {
  // The window outlives the cookie, so the count cannot start over while it is still valid.
  const window = Math.max(1, Math.ceil(pending.exp - nowOf(options))) + CLOCK_SLACK_SECONDS;
  const { count } = await store.hit(`2fa-pending:${pending.id}`, window);
  return count <= MAX_CODE_ATTEMPTS;
}

/**
 * Marks a pending sign-in finished once its code was right, so that a
 * replay of the same cookie cannot make a second session.
 *
 * @param store The configured store.
 * @param pending The opened pending sign-in.
 * @param options The current time.
 * @returns `true` the first time; `false` when this pending sign-in already finished.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { finishPendingSignIn } from "./pending.ts";
 * const store = memoryStore();
 * const pending = { id: "AAAAAAAAAAAAAAAAAAAAAA", exp: Date.now() / 1000 + 300 };
 * await finishPendingSignIn(store, pending); // true
 * await finishPendingSignIn(store, pending); // false
 * ```
 */
export async function finishPendingSignIn(
  store: TwoFactorStore,
  pending: Pick<PendingSignIn, "id" | "exp">,
  options?: NowOptions,
): Promise<boolean> {
  const ttl = Math.max(1, Math.ceil(pending.exp - nowOf(options))) + CLOCK_SLACK_SECONDS;
  return await store.consume(`2fa-done:${pending.id}`, ttl);
}

/**
 * Counts one try to turn two-factor off for a user (a stolen session must
 * not get to guess codes freely): {@link MAX_CODE_ATTEMPTS} per five minutes.
 *
 * @param store The configured store.
 * @param user The signed-in user.
 * @returns `true` when this try may check its code; `false` when the user must wait.
 * @throws {TypeError} For a malformed sub.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { countDisableAttempt } from "./pending.ts";
 * const store = memoryStore();
 * await countDisableAttempt(store, { sub: "user-1" }); // true, four more times, then false
 * ```
 */
export async function countDisableAttempt(
  store: TwoFactorStore,
  user: { sub: string },
): Promise<boolean> {
  return await countUserTries(store, user, {
    prefix: "2fa-disable",
    window: PENDING_SIGN_IN_SECONDS,
    max: MAX_CODE_ATTEMPTS,
  });
}

/** Codes (TOTP or backup) tried per user across all pending sign-ins per {@link USER_CODE_WINDOW_SECONDS}. */
export const MAX_USER_CODE_ATTEMPTS = 20;
/** The window of {@link MAX_USER_CODE_ATTEMPTS}: 15 minutes. */
export const USER_CODE_WINDOW_SECONDS = 900;

/**
 * Counts one second-step try for a user, across all their pending sign-ins:
 * whoever knows the password can start a new pending sign-in at will, so
 * the per-sign-in bound alone would let them guess codes without end.
 * Allows {@link MAX_USER_CODE_ATTEMPTS} tries (right or wrong) per
 * {@link USER_CODE_WINDOW_SECONDS}.
 *
 * @param store The configured store.
 * @param user The user of the pending sign-in.
 * @returns `true` when this try may check its code; `false` when the user must wait.
 * @throws {TypeError} For a malformed sub.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { countUserCodeAttempt } from "./pending.ts";
 * const store = memoryStore();
 * await countUserCodeAttempt(store, { sub: "user-1" }); // true, 19 more times, then false
 * ```
 */
export async function countUserCodeAttempt(
  store: TwoFactorStore,
  user: { sub: string },
): Promise<boolean> {
  return await countUserTries(store, user, {
    prefix: "2fa-user",
    window: USER_CODE_WINDOW_SECONDS,
    max: MAX_USER_CODE_ATTEMPTS,
  });
}

/** Counts one try on a user's counter; `true` while the tries stay within `max` per `window`. */
async function countUserTries(
  store: TwoFactorStore,
  user: { sub: string },
  counter: { prefix: string; window: number; max: number },
): Promise<boolean> {
  const sub = user?.sub;
  if (!isSub(sub)) {
    throw new TypeError("The sub is not a string of 1 to 256 characters; expected the user's id.");
  }
  const { count } = await store.hit(userKey(counter.prefix, "tries", sub), counter.window);
  return count <= counter.max;
}

/**
 * A store key for one user, at most 256 characters: `prefix:part:sub`, or,
 * for a sub too long for that, `prefix#:part:` and the SHA-256 of the sub
 * (the `#` keeps the two forms from ever meeting).
 */
function userKey(prefix: string, part: string, sub: string): string {
  const plain = `${prefix}:${part}:${sub}`;
  if (plain.length <= MAX_STORE_KEY) return plain;
  return `${prefix}#:${part}:${encodeBase64Url(sha256(encoder.encode(sub)))}`;
}

/**
 * Marks a TOTP step used by a user, so that each step signs in (or confirms,
 * or disables) at most once, even when the same code is typed twice within
 * its 90 seconds. Call it after `verifyTotp` matched that step.
 *
 * @param store The configured store.
 * @param used The user and the step `verifyTotp` returned.
 * @returns `true` the first time; `false` when the step was already used: refuse the code.
 * @throws {TypeError} For a malformed sub or step.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { consumeTotpStep } from "./pending.ts";
 * const store = memoryStore();
 * await consumeTotpStep(store, { sub: "user-1", step: 57_000_000 }); // true
 * await consumeTotpStep(store, { sub: "user-1", step: 57_000_000 }); // false
 * ```
 */
export async function consumeTotpStep(
  store: TwoFactorStore,
  used: { sub: string; step: number },
): Promise<boolean> {
  const { sub, step } = used ?? {};
  if (!isSub(sub) || !Number.isSafeInteger(step) || step < 0) {
    throw new TypeError("The used step is malformed; expected { sub, step } from verifyTotp.");
  }
  // A step is accepted until the clock is two steps past it: at most 90 seconds from now.
  const ttl = 3 * TOTP_STEP_SECONDS + CLOCK_SLACK_SECONDS;
  return await store.consume(userKey("totp", String(step), sub), ttl);
}

/**
 * Marks a backup code used by a user, atomically: two requests that opened
 * the factor before either saved it cannot both use the code. Call it after
 * `verifyBackupCode` matched, then save the factor without the code. The key
 * names the code by the first 16 characters of its hash; the code is spent
 * by the time the key exists.
 *
 * @param store The configured store.
 * @param used The user and the matched hash (`factor.backupCodeHashes[index]`).
 * @returns `true` the first time; `false` when the code was just used: refuse it.
 * @throws {TypeError} For a malformed sub or hash.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { consumeBackupCode } from "./pending.ts";
 * const store = memoryStore();
 * const hash = "q".repeat(43);
 * await consumeBackupCode(store, { sub: "user-1", hash }); // true
 * await consumeBackupCode(store, { sub: "user-1", hash }); // false
 * ```
 */
export async function consumeBackupCode(
  store: TwoFactorStore,
  used: { sub: string; hash: string },
): Promise<boolean> {
  const { sub, hash } = used ?? {};
  if (!isSub(sub) || typeof hash !== "string" || hash.length < 16) {
    throw new TypeError("The used backup code is malformed; expected { sub, hash }.");
  }
  return await store.consume(
    userKey("2fa-backup", hash.slice(0, 16), sub),
    BACKUP_CODE_MARK_SECONDS,
  );
}

/**
 * Accepts a TOTP step for a user only when it is later than every step
 * accepted for that user before: the two steps before it are marked used
 * first (`consumeTotpStep`), then the step itself. A code of an earlier step
 * then finds its step marked, on every instance sharing the store. The
 * order makes the rule hold under concurrency: an earlier step that was
 * still accepted was marked before this request marked it, so it counts as
 * accepted first.
 *
 * @param store The configured store.
 * @param used The user and the step `verifyTotp` returned.
 * @returns `"accepted"`; `"reused"` when this very step was accepted before
 *   (the same code again); `"stale"` when a later step was accepted already.
 * @throws {TypeError} For a malformed sub or step.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { acceptTotpStep } from "./pending.ts";
 * const store = memoryStore();
 * await acceptTotpStep(store, { sub: "user-1", step: 57_000_001 }); // "accepted"
 * await acceptTotpStep(store, { sub: "user-1", step: 57_000_001 }); // "reused"
 * await acceptTotpStep(store, { sub: "user-1", step: 57_000_000 }); // "stale"
 * ```
 */
export async function acceptTotpStep(
  store: TwoFactorStore,
  used: { sub: string; step: number },
): Promise<"accepted" | "reused" | "stale"> {
  const { sub, step } = used ?? {};
  if (!isSub(sub) || !Number.isSafeInteger(step) || step < 0) {
    throw new TypeError("The used step is malformed; expected { sub, step } from verifyTotp.");
  }
  // Steps still inside some later window: at most two before this one (previous, current, next).
  await Promise.all(
    [step - 1, step - 2].filter((s) => s >= 0).map((s) => consumeTotpStep(store, { sub, step: s })),
  );
  const ttl = 3 * TOTP_STEP_SECONDS + CLOCK_SLACK_SECONDS;
  const [fresh, firstAcceptance] = await Promise.all([
    consumeTotpStep(store, { sub, step }),
    store.consume(userKey("totp-ok", String(step), sub), ttl),
  ]);
  if (fresh) return "accepted";
  return firstAcceptance ? "stale" : "reused";
}

/** How long a used backup code stays readable as used: it must outlast the saves that race it. */
const BACKUP_CODE_USED_SECONDS = 600;

/**
 * Records a backup code as used in a form other requests can read
 * ({@link usedBackupCodes}), so that a request that saves the factor drops
 * every code used by then, not only its own. Call it after
 * {@link consumeBackupCode} succeeded and before loading the factor to save.
 *
 * @param store The configured store.
 * @param used The user and the used code's hash.
 * @throws {TypeError} For a malformed sub or hash.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { markBackupCodeUsed, usedBackupCodes } from "./pending.ts";
 * const store = memoryStore();
 * const hash = "q".repeat(43);
 * await markBackupCodeUsed(store, { sub: "user-1", hash });
 * await usedBackupCodes(store, { sub: "user-1", hashes: [hash, "r".repeat(43)] }); // [true, false]
 * ```
 */
export async function markBackupCodeUsed(
  store: TwoFactorStore,
  used: { sub: string; hash: string },
): Promise<void> {
  const { sub, hash } = used ?? {};
  if (!isSub(sub) || typeof hash !== "string" || hash.length < 16) {
    throw new TypeError("The used backup code is malformed; expected { sub, hash }.");
  }
  await store.hit(userKey("2fa-backup-used", hash.slice(0, 16), sub), BACKUP_CODE_USED_SECONDS);
}

/**
 * Which of a factor's backup codes were recorded used ({@link markBackupCodeUsed})
 * within the last ten minutes; one store read per code, all at once.
 *
 * @param store The configured store.
 * @param input The user and the factor's hashes.
 * @returns One boolean per hash, in order.
 *
 * @example
 * ```ts
 * import { memoryStore } from "../store/memory.ts";
 * import { usedBackupCodes } from "./pending.ts";
 * await usedBackupCodes(memoryStore(), { sub: "user-1", hashes: ["q".repeat(43)] }); // [false]
 * ```
 */
export async function usedBackupCodes(
  store: TwoFactorStore,
  input: { sub: string; hashes: readonly string[] },
): Promise<boolean[]> {
  const { sub, hashes } = input;
  if (!isSub(sub)) {
    throw new TypeError("The sub is not a string of 1 to 256 characters; expected the user's id.");
  }
  return await Promise.all(
    hashes.map(async (hash) =>
      (await store.hits(userKey("2fa-backup-used", hash.slice(0, 16), sub))) !== null
    ),
  );
}

/**
 * Seals a new TOTP secret between `enroll` and `confirm`, bound to the
 * signed-in user.
 *
 * @param sealer The JOSE object of the two-factor purpose.
 * @param input The signed-in user and the new secret.
 * @param options The current time.
 * @returns The sealed value for the enrollment cookie.
 * @throws {TypeError} For a malformed sub or secret.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { sealPendingEnrollment } from "./pending.ts";
 * import { generateTotpSecret } from "./totp.ts";
 * const sealer = createJose("a-secret-of-at-least-thirty-two-bytes!!", {
 *   purpose: "two-factor",
 *   mode: "encrypted",
 * });
 * const value = await sealPendingEnrollment(sealer, { sub: "user-1", secret: generateTotpSecret() });
 * ```
 */
export async function sealPendingEnrollment(
  sealer: TwoFactorSealer,
  input: { sub: string; secret: Uint8Array },
  options?: NowOptions,
): Promise<string> {
  const { sub, secret } = input ?? {};
  if (!isSub(sub) || !(secret instanceof Uint8Array) || secret.length !== TOTP_SECRET_BYTES) {
    throw new TypeError("The pending enrollment is malformed; expected { sub, secret: 20 bytes }.");
  }
  const exp = Math.floor(nowOf(options)) + PENDING_ENROLLMENT_SECONDS;
  return await sealer.encryptJWE(
    JSON.stringify({ v: 1, sub, secret: encodeBase32(secret), exp }),
    { cty: PENDING_ENROLLMENT_CTY },
  );
}

/**
 * Opens the enrollment cookie for the signed-in user; a cookie made for
 * another user is refused.
 *
 * @param sealer The JOSE object of the two-factor purpose.
 * @param input The session's `sub` and the cookie's value.
 * @param options The current time.
 * @returns The pending enrollment.
 * @throws {TwoFactorError} `ERR_TWO_FACTOR_PENDING_EXPIRED` after ten minutes;
 *   `ERR_TWO_FACTOR_PENDING_INVALID` for another user's or anything not sealed here.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { openPendingEnrollment, sealPendingEnrollment } from "./pending.ts";
 * import { generateTotpSecret } from "./totp.ts";
 * const sealer = createJose("a-secret-of-at-least-thirty-two-bytes!!", {
 *   purpose: "two-factor",
 *   mode: "encrypted",
 * });
 * const value = await sealPendingEnrollment(sealer, { sub: "user-1", secret: generateTotpSecret() });
 * (await openPendingEnrollment(sealer, { sub: "user-1", value })).secret.length; // 20
 * ```
 */
export async function openPendingEnrollment(
  sealer: TwoFactorSealer,
  input: { sub: string; value: string },
  options?: NowOptions,
): Promise<PendingEnrollment> {
  const now = nowOf(options);
  const payload = await openSealed(sealer, input?.value, PENDING_ENROLLMENT_CTY);
  const { sub, secret, exp } = payload;
  if (!sameKeys(payload, ["v", "sub", "secret", "exp"], []) || typeof secret !== "string") {
    throw invalidPending("The pending enrollment is malformed; expected the sealed cookie.");
  }
  if (sub !== input.sub) {
    throw invalidPending("The pending enrollment belongs to another user; expected this user's.");
  }
  checkExpiry(exp, now, "enrollment");
  let bytes: Uint8Array;
  try {
    bytes = decodeBase32(secret);
  } catch (error) {
    throw invalidPending("The pending enrollment's secret is malformed; expected base32.", error);
  }
  if (bytes.length !== TOTP_SECRET_BYTES) {
    throw invalidPending("The pending enrollment's secret is not 20 bytes; expected 20.");
  }
  return { sub: sub as string, secret: bytes, exp: exp as number };
}
