/**
 * CSRF tokens: signed with their own derived key (purpose `csrf`), bound to
 * the session's id when one exists, checked by double submit (cookie plus
 * `X-CSRF-Token` header or `csrfToken` form field) in constant time.
 *
 * @module
 */

import { type AuthContext, CSRF_MAX_AGE } from "../config.ts";
import { clearCookieLine, serializeCookie } from "../cookies/serialize.ts";
import { AuthError } from "../errors.ts";
import type { HttpContext } from "../http_context.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import { sha256 } from "../crypto/sha256.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";

const encoder = new TextEncoder();

/**
 * The session binding carried in a CSRF token: a hash of the session id,
 * never the id itself (in JavaScript: no Web Crypto trip for 40 bytes).
 */
function sessionBinding(jti: string): string {
  return encodeBase64Url(sha256(encoder.encode(`csrf-binding:${jti}`)));
}

/** Issues a CSRF token bound to the session id (or to no session) and its Set-Cookie line. */
export async function issueCsrfToken(
  ctx: AuthContext,
  http: HttpContext,
  sessionId: string | null,
): Promise<{ token: string; cookie: string }> {
  const payload = sessionId === null ? {} : { sid: sessionBinding(sessionId) };
  const token = await ctx.csrfJose.encodeJWT(payload);
  const spec = http.jar.csrfToken;
  const cookie = serializeCookie({
    name: spec.name,
    value: token,
    attributes: { ...spec.attributes, maxAge: CSRF_MAX_AGE },
  }, http.nowMs);
  return { token, cookie };
}

/** What {@link verifyCsrf} checks the cookie against. */
export interface CsrfSubmission {
  /** The token from the header or form field. */
  submitted: string | undefined;
  /** The current session's id, or `null` without a session. */
  sessionId: string | null;
}

function invalid(description: string): AuthError {
  return new AuthError("invalid_csrf_token", description);
}

function missing(): AuthError {
  return invalid(
    "The CSRF token is missing; expected the csrfToken cookie and the X-CSRF-Token header.",
  );
}

/**
 * Refuses a request that carries no CSRF cookie at all (403), before its
 * body is read: no submitted token could match, so nothing waits on a body.
 */
export function requireCsrfCookie(http: HttpContext): void {
  if (!http.cookies.get(http.jar.csrfToken.name)) throw missing();
}

/**
 * Checks the double-submitted CSRF token against the cookie and the current
 * session. Throws `AuthError("invalid_csrf_token")` (403) on any failure.
 */
export async function verifyCsrf(
  ctx: AuthContext,
  http: HttpContext,
  submission: CsrfSubmission,
): Promise<void> {
  const cookie = http.cookies.get(http.jar.csrfToken.name);
  const { submitted, sessionId } = submission;
  if (!cookie || !submitted) throw missing();
  if (!timingSafeEqual(cookie, submitted)) {
    throw invalid("The CSRF token does not match its cookie; expected the same token in both.");
  }
  let payload;
  try {
    payload = await ctx.csrfJose.decodeJWT(cookie);
  } catch {
    throw invalid(
      "The CSRF token is invalid or expired; expected a fresh one from GET /csrfToken.",
    );
  }
  const bound = typeof payload.sid === "string" ? payload.sid : null;
  if (payload.sid !== undefined && bound === null) {
    throw invalid(
      "The CSRF token is invalid or expired; expected a fresh one from GET /csrfToken.",
    );
  }
  const expected = sessionId === null ? null : sessionBinding(sessionId);
  if (bound === null ? expected !== null : expected === null || !timingSafeEqual(bound, expected)) {
    throw invalid(
      "The CSRF token belongs to another session; expected a fresh one from GET /csrfToken.",
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
export function clearCsrfCookie(http: HttpContext): string {
  return clearCookieLine(http.jar.csrfToken);
}
