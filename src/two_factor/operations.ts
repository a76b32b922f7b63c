/**
 * The two-factor operations the routes call, each one explicit step with
 * its inputs and a result the route turns into a response: start and
 * confirm an enrollment, finish a pending sign-in with a code or a backup
 * code, turn two-factor off.
 *
 * Outcomes a person causes (a wrong code, an expired cookie, too many
 * tries) are results, never exceptions: the route answers JSON or renders
 * its form again. {@link twoFactorFailure} gives the `AuthError` for each.
 * Exceptions are for the server's side: a store that fails (the route's
 * usual 503), the app's `load`/`save` failing, or a stored factor that does
 * not open (`TwoFactorError`: the sealing key changed or the record was
 * tampered with; logged, and never read as "two-factor off").
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { generateBackupCodes, verifyBackupCode } from "./backup_codes.ts";
import { encodeBase32 } from "./base32.ts";
import { TwoFactorError } from "./errors.ts";
import { openFactor, sealFactor, type TwoFactorFactor, type TwoFactorSealer } from "./factor.ts";
import {
  acceptTotpStep,
  consumeBackupCode,
  countCodeAttempt,
  countDisableAttempt,
  countUserCodeAttempt,
  finishPendingSignIn,
  markBackupCodeUsed,
  openPendingEnrollment,
  openPendingSignIn,
  type PendingSignIn,
  sealPendingEnrollment,
  type TwoFactorStore,
  usedBackupCodes,
} from "./pending.ts";
import { generateTotpSecret, otpauthUri, verifyTotp } from "./totp.ts";

/** What the operations need, built per request by the route. */
export interface TwoFactorDeps {
  /** The JOSE object of the two-factor purpose. */
  sealer: TwoFactorSealer;
  /** The configured store, else the per-process one. */
  store: TwoFactorStore;
  /** `twoFactor.load`, bound to the request: the user's sealed factor, or null when off. */
  load(sub: string): Promise<string | null | undefined> | string | null | undefined;
  /** `twoFactor.save`, bound to the request: stores the sealed factor, or null to turn it off. */
  save(sub: string, value: string | null): Promise<void> | void;
  /** The current time in seconds since the epoch; default `Date.now() / 1000`. */
  now?: number;
  /**
   * Whether an opened pending sign-in may still finish (e.g. no password
   * reset since it began); `false` refuses it as `pending-invalid`.
   */
  pendingStillValid?(pending: PendingSignIn): Promise<boolean>;
}

/** Why an operation refused; see {@link twoFactorFailure} for the response each gets. */
export type TwoFactorFailure =
  /** Neither a code nor a backup code, or both, or not strings. */
  | "invalid-request"
  /** The pending cookie is missing, forged, of another user or another kind. */
  | "pending-invalid"
  /** The pending cookie's time is over. */
  | "pending-expired"
  /** Five codes were tried on this pending sign-in, twenty by this user within 15 minutes, or five on disable within five minutes. */
  | "too-many-attempts"
  /** The code or backup code is not right, or was already used. */
  | "wrong-code"
  /** The TOTP code of a step already accepted for this user: the same code again. */
  | "code-used"
  /** The pending sign-in already made a session: its cookie was replayed. */
  | "already-finished"
  /** The user has no second factor (any more). */
  | "not-enrolled";

/** A refusal. */
export interface Refused {
  /** Always `false`. */
  ok: false;
  /** Why. */
  reason: TwoFactorFailure;
}

function refused(reason: TwoFactorFailure): Refused {
  return { ok: false, reason };
}

function nowOf(deps: TwoFactorDeps): number {
  return deps.now ?? Date.now() / 1000;
}

/** The reason for a pending value that did not open; anything else is the server's problem. */
function pendingFailure(error: unknown): Refused {
  if (error instanceof TwoFactorError) {
    if (error.code === "ERR_TWO_FACTOR_PENDING_EXPIRED") return refused("pending-expired");
    if (error.code === "ERR_TWO_FACTOR_PENDING_INVALID") return refused("pending-invalid");
  }
  throw error;
}

/** The user's factor, or null when `load` says two-factor is off. */
async function loadFactor(deps: TwoFactorDeps, sub: string): Promise<TwoFactorFactor | null> {
  return (await loadSealedFactor(deps, sub))?.factor ?? null;
}

/** The user's factor with the stored string it came from, or null when two-factor is off. */
async function loadSealedFactor(
  deps: TwoFactorDeps,
  sub: string,
): Promise<{ sub: string; sealed: string; factor: TwoFactorFactor } | null> {
  const sealed = await deps.load(sub);
  if (sealed === null || sealed === undefined) return null;
  return { sub, sealed, factor: await openFactor(deps.sealer, { sub, sealed }) };
}

/**
 * Checks a TOTP code and accepts its step only when it is later than the last
 * step accepted for the user; `null` when accepted, else why not.
 */
async function acceptCode(
  deps: TwoFactorDeps,
  sub: string,
  secret: Uint8Array,
  code: string,
): Promise<Refused | null> {
  const step = verifyTotp(secret, code, nowOf(deps));
  if (step === null) return refused("wrong-code");
  const accepted = await acceptTotpStep(deps.store, { sub, step });
  if (accepted === "accepted") return null;
  return refused(accepted === "reused" ? "code-used" : "wrong-code");
}

/** Rounds of "load, drop every used code, save" before giving up on a settled factor. */
const MAX_SAVE_ROUNDS = 5;

/**
 * Spends a backup code: marks it used (atomically: a second use of the same
 * code is refused), then saves the factor without every code used by then,
 * loading it again after each save until a load shows no used code. The
 * app's `save` is a plain overwrite, so two codes used at the same moment
 * could each save a factor that still holds the other's code; whoever saves
 * last sees, on its next load, the code it brought back, and removes it.
 * The factor is thus free of used codes before their ten-minute marks end.
 *
 * @returns The codes left, or `null` when the code was already used.
 */
async function spendBackupCode(
  deps: TwoFactorDeps,
  opened: { sub: string; sealed: string; factor: TwoFactorFactor },
  hash: string,
): Promise<number | null> {
  const { sub } = opened;
  if (!await consumeBackupCode(deps.store, { sub, hash })) return null;
  await markBackupCodeUsed(deps.store, { sub, hash });
  // Values this request already opened or sealed are not decrypted again.
  const known = new Map([[opened.sealed, opened.factor]]);
  for (let round = 0; round < MAX_SAVE_ROUNDS; round++) {
    const sealed = await deps.load(sub);
    // Turned off meanwhile: nothing holds the code any more.
    if (sealed === null || sealed === undefined) return 0;
    const factor = known.get(sealed) ?? await openFactor(deps.sealer, { sub, sealed });
    const hashes = factor.backupCodeHashes;
    const used = await usedBackupCodes(deps.store, { sub, hashes });
    if (!used.includes(true)) return hashes.length;
    const kept = { ...factor, backupCodeHashes: hashes.filter((_, i) => !used[i]) };
    const next = await sealFactor(deps.sealer, kept);
    known.set(next, kept);
    await deps.save(sub, next);
  }
  throw new TwoFactorError(
    "ERR_TWO_FACTOR_FACTOR_INVALID",
    "The factor kept changing while a backup code was saved; expected it to settle within 5 saves.",
  );
}

/**
 * Starts an enrollment for a signed-in user: a new secret, the URI to show
 * as a QR code, and the sealed value for the enrollment cookie. The route
 * checks first that the session is recent (10 minutes).
 *
 * @param deps The sealer, store and the app's storage.
 * @param input The user, the issuer (the app's name) and the account label (e.g. their email).
 * @returns The base32 secret and URI to show, and the cookie value.
 * @throws {TypeError} For an issuer with ":" or an empty label.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { memoryStore } from "../store/memory.ts";
 * import { startEnrollment } from "./operations.ts";
 * const deps = {
 *   sealer: createJose("a-secret-of-at-least-thirty-two-bytes!!", { purpose: "two-factor", mode: "encrypted" }),
 *   store: memoryStore(),
 *   load: () => null,
 *   save: () => {},
 * };
 * const { secret, uri, pendingValue } = await startEnrollment(deps, {
 *   sub: "user-1",
 *   issuer: "My App",
 *   account: "ada@example.com",
 * });
 * ```
 */
export async function startEnrollment(
  deps: TwoFactorDeps,
  input: { sub: string; issuer: string; account: string },
): Promise<{ secret: string; uri: string; pendingValue: string }> {
  const secret = generateTotpSecret();
  const uri = otpauthUri({ secret, issuer: input.issuer, account: input.account });
  const pendingValue = await sealPendingEnrollment(
    deps.sealer,
    { sub: input.sub, secret },
    { now: nowOf(deps) },
  );
  return { secret: encodeBase32(secret), uri, pendingValue };
}

/**
 * Confirms an enrollment with the first code from the app: saves the new
 * factor with ten backup codes, and returns the codes to show once. Wrong
 * codes are not counted: the secret was shown to this session's user, so
 * guessing its codes gains nothing.
 *
 * @param deps The sealer, store and the app's storage.
 * @param input The signed-in user, the enrollment cookie and the code.
 * @returns The backup codes, or why not.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { memoryStore } from "../store/memory.ts";
 * import { confirmEnrollment, startEnrollment } from "./operations.ts";
 * const saved = new Map<string, string | null>();
 * const deps = {
 *   sealer: createJose("a-secret-of-at-least-thirty-two-bytes!!", { purpose: "two-factor", mode: "encrypted" }),
 *   store: memoryStore(),
 *   load: (sub: string) => saved.get(sub),
 *   save: (sub: string, value: string | null) => void saved.set(sub, value),
 * };
 * const { pendingValue } = await startEnrollment(deps, { sub: "u", issuer: "App", account: "ada" });
 * await confirmEnrollment(deps, { sub: "u", pendingValue, code: "123456" });
 * // { ok: false, reason: "wrong-code" } unless the code is the app's current one
 * ```
 */
export async function confirmEnrollment(
  deps: TwoFactorDeps,
  input: { sub: string; pendingValue: string; code: unknown },
): Promise<{ ok: true; backupCodes: string[] } | Refused> {
  const now = nowOf(deps);
  let secret: Uint8Array;
  try {
    ({ secret } = await openPendingEnrollment(
      deps.sealer,
      { sub: input.sub, value: input.pendingValue },
      { now },
    ));
  } catch (error) {
    return pendingFailure(error);
  }
  if (typeof input.code !== "string") return refused("invalid-request");
  const refusedCode = await acceptCode(deps, input.sub, secret, input.code);
  if (refusedCode !== null) return refusedCode;
  const { codes, hashes } = generateBackupCodes();
  const factor = { sub: input.sub, secret, backupCodeHashes: hashes, createdAt: Math.floor(now) };
  await deps.save(input.sub, await sealFactor(deps.sealer, factor));
  return { ok: true, backupCodes: codes };
}

/** What a second step answers. */
export type SecondStepAnswer = { code: unknown } | { backupCode: unknown };

/** A finished second step. */
export interface SecondStepDone {
  /** Always `true`. */
  ok: true;
  /** The sign-in to make the session from. */
  pending: PendingSignIn;
  /** Which answer finished it. */
  method: "totp" | "backup-code";
  /** Backup codes left after this one (only for `backup-code`), to warn when few remain. */
  backupCodesLeft?: number;
}

/** Reads `{ code }` or `{ backupCode }`, exactly one of them, as a string. */
function readAnswer(
  answer: SecondStepAnswer,
): { kind: "code" | "backupCode"; value: string } | null {
  if (typeof answer !== "object" || answer === null) return null;
  const code = (answer as { code?: unknown }).code;
  const backupCode = (answer as { backupCode?: unknown }).backupCode;
  if (code !== undefined && backupCode !== undefined) return null;
  if (typeof code === "string") return { kind: "code", value: code };
  if (typeof backupCode === "string") return { kind: "backupCode", value: backupCode };
  return null;
}

/**
 * Finishes a pending sign-in with a TOTP code or a backup code. In order:
 * open the `two_factor` cookie, count the try (the sixth is refused without
 * checking; so is the twenty-first of the user's within 15 minutes, across
 * pending sign-ins), open the user's factor, check the answer and mark it used (a
 * TOTP step once per user; a backup code removed from the saved factor),
 * then mark the pending sign-in finished so that its cookie cannot make a
 * second session. On `ok` the route makes the session from
 * `result.pending` and clears the cookie.
 *
 * @param deps The sealer, store and the app's storage.
 * @param input The cookie's value and the answer.
 * @returns The pending sign-in to complete, or why not.
 * @throws {TwoFactorError} `ERR_TWO_FACTOR_FACTOR_INVALID` when the stored factor does not open.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { memoryStore } from "../store/memory.ts";
 * import { sealPendingSignIn } from "./pending.ts";
 * import { verifySecondStep } from "./operations.ts";
 * const sealer = createJose("a-secret-of-at-least-thirty-two-bytes!!", { purpose: "two-factor", mode: "encrypted" });
 * const deps = { sealer, store: memoryStore(), load: () => null, save: () => {} };
 * const { value } = await sealPendingSignIn(sealer, { sub: "u", provider: "credentials", user: { sub: "u" } });
 * await verifySecondStep(deps, { pendingValue: value, answer: { code: "123456" } });
 * // { ok: false, reason: "not-enrolled" }: this user's load returns null
 * ```
 */
export async function verifySecondStep(
  deps: TwoFactorDeps,
  input: { pendingValue: string; answer: SecondStepAnswer },
): Promise<SecondStepDone | Refused> {
  const now = nowOf(deps);
  let pending: PendingSignIn;
  try {
    pending = await openPendingSignIn(deps.sealer, input.pendingValue, { now });
  } catch (error) {
    return pendingFailure(error);
  }
  const answer = readAnswer(input.answer);
  if (answer === null) return refused("invalid-request");
  if (deps.pendingStillValid && !await deps.pendingStillValid(pending)) {
    return refused("pending-invalid");
  }
  if (!await countCodeAttempt(deps.store, pending, { now })) return refused("too-many-attempts");
  const { sub } = pending;
  // A new pending sign-in starts a new count: the user's own bound caps guesses across them.
  if (!await countUserCodeAttempt(deps.store, { sub })) return refused("too-many-attempts");
  const opened = await loadSealedFactor(deps, sub);
  // Turned off between the two steps: the pending sign-in was made for a second step, so start over.
  if (opened === null) return refused("not-enrolled");
  const { factor } = opened;
  let done: SecondStepDone;
  if (answer.kind === "code") {
    const refusedCode = await acceptCode(deps, sub, factor.secret, answer.value);
    if (refusedCode !== null) return refusedCode;
    done = { ok: true, pending, method: "totp" };
  } else {
    const index = verifyBackupCode(factor.backupCodeHashes, answer.value);
    if (index === null) return refused("wrong-code");
    const left = await spendBackupCode(deps, opened, factor.backupCodeHashes[index]);
    if (left === null) return refused("wrong-code");
    done = { ok: true, pending, method: "backup-code", backupCodesLeft: left };
  }
  if (!await finishPendingSignIn(deps.store, pending, { now })) return refused("already-finished");
  return done;
}

/**
 * Turns two-factor off for a signed-in user who gives a current code:
 * `save(sub, null)`. Tries are counted per user (five per five minutes).
 *
 * @param deps The sealer, store and the app's storage.
 * @param input The signed-in user and the code.
 * @returns `{ ok: true }` once saved, or why not.
 * @throws {TwoFactorError} `ERR_TWO_FACTOR_FACTOR_INVALID` when the stored factor does not open.
 *
 * @example
 * ```ts
 * import { createJose } from "../jose/factory.ts";
 * import { memoryStore } from "../store/memory.ts";
 * import { disableTwoFactor } from "./operations.ts";
 * const deps = {
 *   sealer: createJose("a-secret-of-at-least-thirty-two-bytes!!", { purpose: "two-factor", mode: "encrypted" }),
 *   store: memoryStore(),
 *   load: () => null,
 *   save: () => {},
 * };
 * await disableTwoFactor(deps, { sub: "u", code: "123456" }); // { ok: false, reason: "not-enrolled" }
 * ```
 */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  input: { sub: string; code: unknown },
): Promise<{ ok: true } | Refused> {
  if (typeof input.code !== "string") return refused("invalid-request");
  const factor = await loadFactor(deps, input.sub);
  if (factor === null) return refused("not-enrolled");
  if (!await countDisableAttempt(deps.store, { sub: input.sub })) {
    return refused("too-many-attempts");
  }
  const refusedCode = await acceptCode(deps, input.sub, factor.secret, input.code);
  if (refusedCode !== null) return refusedCode;
  await deps.save(input.sub, null);
  return { ok: true };
}

const FAILURES: Readonly<
  Record<
    TwoFactorFailure,
    {
      code: "invalid_request" | "invalid_grant" | "access_denied";
      text: string;
      status: number;
      over: boolean;
    }
  >
> = {
  "invalid-request": {
    code: "invalid_request",
    text: "Send either a code or a backup code.",
    status: 400,
    over: false,
  },
  "pending-invalid": {
    code: "invalid_grant",
    text: "This sign-in step is no longer valid. Please start again.",
    status: 400,
    over: true,
  },
  "pending-expired": {
    code: "invalid_grant",
    text: "This sign-in step has expired. Please start again.",
    status: 400,
    over: true,
  },
  "too-many-attempts": {
    code: "access_denied",
    text: "Too many wrong codes. Please start again later.",
    status: 429,
    over: true,
  },
  "wrong-code": {
    code: "invalid_grant",
    text: "That code is not right. Please try again.",
    status: 400,
    over: false,
  },
  "code-used": {
    code: "invalid_grant",
    text: "That code was just used. Wait for the next one.",
    status: 400,
    over: false,
  },
  "already-finished": {
    code: "invalid_grant",
    text: "This sign-in was already completed. Please start again.",
    status: 400,
    over: true,
  },
  "not-enrolled": {
    code: "invalid_grant",
    text: "Two-factor sign-in is not turned on for this account.",
    status: 400,
    over: true,
  },
};

/**
 * The response for a refusal, and whether the pending cookie is spent (the
 * route clears it then; after a wrong code it stays, for the next try).
 *
 * @param reason The refusal's reason.
 * @returns An `AuthError` with an RFC 6749 code and a sentence to show, and `over`.
 *
 * @example
 * ```ts
 * import { twoFactorFailure } from "./operations.ts";
 * const { error, over } = twoFactorFailure("wrong-code");
 * error.toJSON(); // { error: "invalid_grant", error_description: "That code is not right. Please try again." }
 * over; // false
 * ```
 */
export function twoFactorFailure(reason: TwoFactorFailure): { error: AuthError; over: boolean } {
  const failure = FAILURES[reason];
  return {
    error: new AuthError(failure.code, failure.text, { status: failure.status }),
    over: failure.over,
  };
}
