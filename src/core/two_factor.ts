/**
 * Two-factor sign-in inside the sign-in flow: the gate every first factor
 * passes in `finishSignIn` (a pending `two_factor` cookie instead of a
 * session for an enrolled user), the operations' dependencies built per
 * request, and where a browser goes when a second step is due.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { GateInput, TwoFactorRequired } from "../config/feature.ts";
import { chunkedCookieLines, clearCookieLines, readChunkedCookie } from "../cookies/chunks.ts";
import { AuthError, errorName } from "../errors.ts";
import type { HttpContext } from "../http_context.ts";
import type { SessionStore } from "../store/types.ts";
import { TwoFactorError } from "../two_factor/errors.ts";
import { openFactor } from "../two_factor/factor.ts";
import type { TwoFactorDeps } from "../two_factor/operations.ts";
import { PENDING_SIGN_IN_SECONDS, sealPendingSignIn } from "../two_factor/pending.ts";
import { callApp } from "./call_app.ts";
import { noResetSince, readResetMark } from "./reset_mark.ts";
import { isTwoFactorRequired, TWO_FACTOR_REQUIRED, twoFactorPageURL } from "./second_step.ts";

export type { GateInput, TwoFactorRequired };
export { isTwoFactorRequired, TWO_FACTOR_REQUIRED, twoFactorPageURL };

/**
 * The store for used steps, backup codes and attempt counts: the configured
 * one (shared by every instance), else the per-process one. The one place
 * that names it.
 */
function twoFactorStore(ctx: AuthContext): Pick<SessionStore, "hit" | "consume" | "hits"> {
  return ctx.throttleStore;
}

/** The configured `twoFactor`, or 404 when it is not. */
export function twoFactorHooks(ctx: AuthContext): NonNullable<AuthContext["twoFactor"]> {
  const hooks = ctx.twoFactor;
  if (hooks === undefined) {
    throw new AuthError(
      "invalid_request",
      "Two-factor sign-in is not configured; expected twoFactor in createAuth.",
      { status: 404 },
    );
  }
  return hooks;
}

/** The error for a stored factor that does not open: logged, answered 500 without detail. */
function unreadableFactor(ctx: AuthContext, error: unknown): AuthError {
  ctx.logger.log("error", "the stored two-factor value was refused: not sealed by this library", {
    error: error instanceof TwoFactorError ? error.code : errorName(error),
  });
  return new AuthError(
    "server_error",
    "The account's two-factor settings cannot be read; expected the value twoFactor.save stored.",
    { status: 500 },
  );
}

/**
 * The operations' dependencies for one request: `load` checks its answer
 * (a string, `null` or `undefined`; anything else is refused, never "off"),
 * both hooks run through `callApp` (a throw is a logged 500), and the clock
 * is the instance's.
 */
export function twoFactorDeps(ctx: AuthContext, http: HttpContext): TwoFactorDeps {
  const hooks = twoFactorHooks(ctx);
  return {
    sealer: ctx.twoFactorJose,
    store: twoFactorStore(ctx),
    now: http.nowMs / 1000,
    load: async (sub) => {
      const value = await callApp(ctx, "twoFactor.load", () => hooks.load(sub, http.request));
      if (value === null || value === undefined || typeof value === "string") return value;
      throw unreadableFactor(ctx, new TypeError("twoFactor.load returned a non-string"));
    },
    save: async (sub, value) => {
      await callApp(ctx, "twoFactor.save", () => hooks.save(sub, value, http.request));
    },
    // A password reset since the first factor ends the pending sign-in.
    pendingStillValid: (pending) => noResetSince(ctx, pending.sub, pending.resetMark, http.now),
  };
}

/** Runs a step that opens the stored factor: a factor that does not open is a logged 500. */
export async function withFactor<T>(ctx: AuthContext, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof TwoFactorError) throw unreadableFactor(ctx, error);
    throw error;
  }
}

/**
 * The gate of `finishSignIn`: for an enrolled user (`load` returns a value
 * that opens for them) it adds the sealed `two_factor` cookie (5 minutes)
 * and returns {@link TWO_FACTOR_REQUIRED}; `null` means "no second step".
 * A value that does not open fails closed: 500, logged, no session.
 */
export async function secondStepGate(
  ctx: AuthContext,
  http: HttpContext,
  input: GateInput,
): Promise<TwoFactorRequired | null> {
  if (ctx.twoFactor === undefined || input.passkeyUserVerified === true) return null;
  const deps = twoFactorDeps(ctx, http);
  const sub = input.user.sub;
  const sealed = await deps.load(sub);
  if (sealed === null || sealed === undefined) return null;
  try {
    await openFactor(deps.sealer, { sub, sealed });
  } catch (error) {
    throw unreadableFactor(ctx, error);
  }
  const resetMark = await readResetMark(ctx, sub, http.now);
  const { value } = await sealPendingSignIn(deps.sealer, {
    sub,
    provider: input.provider,
    user: input.user as unknown as Record<string, unknown>,
    ...(input.redirectTo === undefined ? {} : { redirectTo: input.redirectTo }),
    ...(resetMark === "" ? {} : { resetMark }),
  }, { now: deps.now });
  setTwoFactorCookie(http, value, PENDING_SIGN_IN_SECONDS);
  ctx.logger.log("info", "second step required", { provider: input.provider });
  return TWO_FACTOR_REQUIRED;
}

/**
 * Sets the `two_factor` cookie (a pending sign-in or enrollment), in chunks
 * when a large user makes it longer than one cookie may be.
 */
export function setTwoFactorCookie(http: HttpContext, value: string, maxAge: number): void {
  http.setCookies.push(
    ...chunkedCookieLines(http.jar.twoFactor, value, {
      maxAge,
      requestCookies: http.cookies,
      nowMs: http.nowMs,
    }),
  );
}

/** The `two_factor` cookie's value (chunks joined); `""` when absent. */
export function readTwoFactorCookie(http: HttpContext): string {
  return readChunkedCookie(http.jar.twoFactor.name, http.cookies) ?? "";
}

/** The `Set-Cookie` lines that remove the `two_factor` cookie and any of its chunks. */
export function clearTwoFactorCookie(http: HttpContext): string[] {
  return clearCookieLines(http.jar.twoFactor, http.cookies);
}
