/**
 * What credentials sign-in, sign-up and the OAuth callback share: turning a
 * user returned by application code into a session plus a fresh CSRF cookie.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { issueCsrfToken } from "../csrf.ts";
import { AuthError } from "../errors.ts";
import type { ResponseParts } from "../http.ts";
import type { RequestState } from "../request.ts";
import { issueSession, validateUser } from "../session.ts";
import { readChunkedCookie } from "../cookies.ts";
import type { Session } from "../types.ts";

/**
 * Calls application code (`authorize`, `onCreateUser`, a profile mapper):
 * an `AuthError` passes through, anything else is logged and becomes a
 * 500 `server_error` with no detail.
 */
export async function callApp<T>(
  ctx: AuthContext,
  what: string,
  fn: () => T | Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AuthError) throw error;
    // Application errors may quote passwords, payloads or tokens: log the error's name only.
    ctx.logger.log("error", `${what} threw`, {
      error: error instanceof Error ? error.name : typeof error,
    });
    throw new AuthError("server_error", "The server could not complete the request.");
  }
}

/**
 * Validates the user, issues the session and a CSRF token bound to it, and
 * adds their cookies. A session cookie the request still carries is evicted
 * from the cache by its exact value, without decoding it.
 */
export async function startSession(
  ctx: AuthContext,
  state: RequestState,
  value: unknown,
  parts: ResponseParts,
): Promise<Session> {
  const user = await callApp(ctx, "user validation", () => validateUser(ctx, value));
  const issued = await issueSession(ctx, state, user);
  const previous = readChunkedCookie(state.jar.sessionToken.name, state.cookies);
  if (previous !== undefined) ctx.sessionCache.delete(previous);
  const csrf = await issueCsrfToken(ctx, state, issued.payload.jti);
  parts.cookies.push(...issued.cookies, csrf.cookie);
  return issued.session;
}
