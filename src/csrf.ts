/**
 * CSRF tokens: signed with their own derived key (purpose `csrf`), bound to
 * the session's id when one exists, checked by double submit (cookie plus
 * `X-CSRF-Token` header or `csrfToken` form field) in constant time.
 *
 * @module
 */

import { type AuthContext, CSRF_MAX_AGE } from "./config.ts";
import { clearCookieLines, serializeCookie } from "./cookies.ts";
import { AuthError } from "./errors.ts";
import { encodeBase64Url } from "./jose/base64url.ts";
import type { RequestState } from "./request.ts";
import { timingSafeEqual } from "./timing_safe_equal.ts";

const encoder = new TextEncoder();

/** The session binding carried in a CSRF token: a hash of the session id, never the id itself. */
async function sessionBinding(jti: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`csrf-binding:${jti}`));
  return encodeBase64Url(new Uint8Array(digest));
}

/** Issues a CSRF token bound to the session id (or to no session) and its Set-Cookie line. */
export async function issueCsrfToken(
  ctx: AuthContext,
  state: RequestState,
  sessionId: string | null,
): Promise<{ token: string; cookie: string }> {
  const payload = sessionId === null ? {} : { sid: await sessionBinding(sessionId) };
  const token = await ctx.csrfJose.encodeJWT(payload);
  const spec = state.jar.csrfToken;
  const cookie = serializeCookie(
    spec.name,
    token,
    { ...spec.attributes, maxAge: CSRF_MAX_AGE },
    state.nowMs,
  );
  return { token, cookie };
}

/**
 * Checks the double-submitted CSRF token against the cookie and the current
 * session. Throws `AuthError("invalid_csrf_token")` (403) on any failure.
 */
export async function verifyCsrf(
  ctx: AuthContext,
  state: RequestState,
  submitted: string | undefined,
  sessionId: string | null,
): Promise<void> {
  const cookie = state.cookies.get(state.jar.csrfToken.name);
  if (!cookie || !submitted) {
    throw new AuthError(
      "invalid_csrf_token",
      "A CSRF token is required: send the csrfToken cookie and the X-CSRF-Token header.",
    );
  }
  if (!timingSafeEqual(cookie, submitted)) {
    throw new AuthError("invalid_csrf_token", "The CSRF token does not match its cookie.");
  }
  let payload;
  try {
    payload = await ctx.csrfJose.decodeJWT(cookie);
  } catch {
    throw new AuthError("invalid_csrf_token", "The CSRF token is invalid or expired.");
  }
  const bound = typeof payload.sid === "string" ? payload.sid : null;
  if (payload.sid !== undefined && bound === null) {
    throw new AuthError("invalid_csrf_token", "The CSRF token is invalid or expired.");
  }
  const expected = sessionId === null ? null : await sessionBinding(sessionId);
  if (bound === null ? expected !== null : expected === null || !timingSafeEqual(bound, expected)) {
    throw new AuthError(
      "invalid_csrf_token",
      "The CSRF token belongs to another session: fetch a new one.",
    );
  }
}

/** The submitted CSRF token: the `X-CSRF-Token` header, else a `csrfToken` form field. */
export function submittedCsrfToken(
  request: Request,
  formBody: Record<string, unknown> | null,
): string | undefined {
  const header = request.headers.get("X-CSRF-Token");
  if (header !== null) return header;
  const field = formBody?.csrfToken;
  return typeof field === "string" ? field : undefined;
}

/** The Set-Cookie line that removes the CSRF cookie. */
export function clearCsrfCookie(state: RequestState): string {
  return clearCookieLines(state.jar.csrfToken, state.cookies)[0];
}
