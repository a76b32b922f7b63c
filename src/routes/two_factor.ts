/**
 * The two-factor routes: `POST /twoFactor/enroll`, `POST /twoFactor/confirm`,
 * `POST /twoFactor/disable` (signed in, CSRF), `GET /twoFactor` (the
 * built-in second-step page) and `POST /twoFactor/verify` (CSRF and the
 * `two_factor` cookie: finishes a pending sign-in).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { isFormPost, onlyKeys } from "./_body.ts";
import { browserFailure } from "../core/browser_failure.ts";
import { issueCsrfToken } from "../core/csrf.ts";
import { emit } from "../core/events.ts";
import { guardMutation, guardSessionMutation } from "../core/guard.ts";
import { readSession } from "../core/session.ts";
import { startSession } from "../core/sign_in.ts";
import {
  clearTwoFactorCookie,
  readTwoFactorCookie,
  setTwoFactorCookie,
  twoFactorDeps,
  twoFactorHooks,
  withFactor,
} from "../core/two_factor.ts";
import { AuthError } from "../errors.ts";
import { jsonResponse, redirectResponse } from "../http.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import {
  confirmEnrollment,
  disableTwoFactor,
  type Refused,
  type SecondStepAnswer,
  startEnrollment,
  twoFactorFailure,
  verifySecondStep,
} from "../two_factor/operations.ts";
import { secondStepPage } from "../two_factor/page.ts";
import { PENDING_ENROLLMENT_SECONDS } from "../two_factor/pending.ts";
import type { User } from "../types.ts";

/** Seconds after signing in during which a session may turn two-factor on. */
const ENROLL_WINDOW_SECONDS = 600;

/** The `two_factor` cookie's value ("" when absent: refused as `pending-invalid`). */
function pendingCookie(http: HttpContext): string {
  return readTwoFactorCookie(http);
}

/** Logs a refusal by reason (never the code) and returns its error; clears a spent cookie. */
function refusal(ctx: AuthContext, http: HttpContext, refused: Refused, step: string): AuthError {
  const { error, over } = twoFactorFailure(refused.reason);
  if (over) http.setCookies.push(...clearTwoFactorCookie(http));
  ctx.logger.log(
    "info",
    `two-factor ${step} refused`,
    clientDetails(ctx, http, { reason: refused.reason }),
  );
  return error;
}

/** The name an authenticator app shows for the account: the email, else the name, else the sub. */
function accountLabel(user: Record<string, unknown>, sub: string): string {
  for (const field of ["email", "name"]) {
    const value = user[field];
    if (typeof value === "string" && value.length > 0 && value.length <= 256) return value;
  }
  return sub;
}

/**
 * `POST /twoFactor/enroll` (session signed in within 10 minutes, CSRF): 200
 * `{ secret, uri }` and the sealed enrollment cookie. 403 `access_denied`
 * for an older session; 400 when two-factor is already on.
 */
export async function enrollRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const hooks = twoFactorHooks(ctx);
  const { session, body } = await guardSessionMutation(ctx, http);
  onlyKeys(await body({ optional: true }), []);
  const { payload } = session;
  if (http.now - payload.auth_time > ENROLL_WINDOW_SECONDS) {
    throw new AuthError(
      "access_denied",
      "Turning on two-factor sign-in needs a recent sign-in; expected a sign-in within the last 10 minutes.",
      { status: 403 },
    );
  }
  const deps = twoFactorDeps(ctx, http);
  const current = await deps.load(payload.sub);
  // Replacing a factor would turn it off without a code: disable comes first.
  if (current !== null && current !== undefined) {
    throw new AuthError(
      "invalid_request",
      "Two-factor sign-in is already on for this account; expected it turned off first.",
    );
  }
  const started = await startEnrollment(deps, {
    sub: payload.sub,
    issuer: hooks.issuer ?? new URL(http.origin).hostname,
    account: accountLabel(payload as Record<string, unknown>, payload.sub),
  });
  setTwoFactorCookie(http, started.pendingValue, PENDING_ENROLLMENT_SECONDS);
  return jsonResponse(http, { secret: started.secret, uri: started.uri }, 200);
}

/**
 * `POST /twoFactor/confirm` `{ code }` (session, CSRF, the enrollment
 * cookie): saves the factor, 200 `{ backupCodes }` (shown once).
 */
export async function confirmRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  twoFactorHooks(ctx);
  const { session, body } = await guardSessionMutation(ctx, http);
  const read = await body();
  onlyKeys(read, ["code"]);
  const result = await confirmEnrollment(twoFactorDeps(ctx, http), {
    sub: session.payload.sub,
    pendingValue: pendingCookie(http),
    code: read.code,
  });
  if (!result.ok) throw refusal(ctx, http, result, "confirmation");
  http.setCookies.push(...clearTwoFactorCookie(http));
  ctx.logger.log("info", "two-factor turned on", clientDetails(ctx, http));
  return jsonResponse(http, { backupCodes: result.backupCodes }, 200);
}

/** `POST /twoFactor/disable` `{ code }` (session, CSRF): `save(sub, null)`, 200 `{ ok: true }`. */
export async function disableRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  twoFactorHooks(ctx);
  const { session, body } = await guardSessionMutation(ctx, http);
  const read = await body();
  onlyKeys(read, ["code"]);
  const deps = twoFactorDeps(ctx, http);
  const result = await withFactor(
    ctx,
    () => disableTwoFactor(deps, { sub: session.payload.sub, code: read.code }),
  );
  if (!result.ok) throw refusal(ctx, http, result, "disable");
  ctx.logger.log("info", "two-factor turned off", clientDetails(ctx, http));
  return jsonResponse(http, { ok: true }, 200);
}

/** The built-in page with a fresh CSRF token (bound to the browser's session, if any). */
async function pageWithToken(
  ctx: AuthContext,
  http: HttpContext,
  options: { message?: string; status?: number } = {},
): Promise<Response> {
  const session = await readSession(ctx, http);
  const { token, cookie } = await issueCsrfToken(ctx, http, session?.payload.jti ?? null);
  http.setCookies.push(cookie);
  return secondStepPage(http, {
    action: `${ctx.basePath}/twoFactor/verify`,
    csrfToken: token,
    appName: ctx.twoFactor?.appName,
    ...options,
  });
}

/** `GET /twoFactor`: the built-in second-step form, while a sign-in waits for its code. */
export async function secondStepPageRoute(
  ctx: AuthContext,
  http: HttpContext,
): Promise<Response> {
  try {
    twoFactorHooks(ctx);
    if (pendingCookie(http) === "") {
      throw new AuthError(
        "invalid_grant",
        "There is no sign-in waiting for a code in this browser. Please sign in again.",
      );
    }
    return await pageWithToken(ctx, http);
  } catch (error) {
    return browserFailure(ctx, http, { error, route: "GET /twoFactor" });
  }
}

/**
 * `POST /twoFactor/verify` `{ code }` or `{ backupCode }` (CSRF, the
 * `two_factor` cookie): 200 `Session` (a 302 to the pending target for a
 * form post). A wrong code is 400 `invalid_grant` (the form again, for a
 * form post); the sixth try, an expired or foreign cookie end the pending
 * sign-in (cookie cleared).
 */
export async function verifyRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const form = isFormPost(http);
  try {
    twoFactorHooks(ctx);
    const guarded = await guardMutation(ctx, http);
    const read = await guarded.body();
    onlyKeys(read, ["code", "backupCode"]);
    const deps = twoFactorDeps(ctx, http);
    const result = await withFactor(ctx, () =>
      verifySecondStep(deps, {
        pendingValue: pendingCookie(http),
        answer: read as SecondStepAnswer,
      }));
    if (!result.ok) {
      const error = refusal(ctx, http, result, "second step");
      if (form && !twoFactorFailure(result.reason).over) {
        return await pageWithToken(ctx, http, {
          message: error.description,
          status: error.status,
        });
      }
      throw error;
    }
    http.setCookies.push(...clearTwoFactorCookie(http));
    const { pending } = result;
    const user = pending.user as unknown as User;
    const session = await startSession(ctx, http, user);
    ctx.logger.log("info", "second step passed", { provider: pending.provider });
    await emit(ctx, "signIn", { user, provider: pending.provider, request: http.request });
    return form
      ? redirectResponse(http, pending.redirectTo ?? "/")
      : jsonResponse(http, session, 200);
  } catch (error) {
    if (form) return browserFailure(ctx, http, { error, route: "POST /twoFactor/verify" });
    throw error;
  }
}
