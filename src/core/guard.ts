/**
 * The checks every state-changing route runs, in the documented order:
 * CSRF (403), then the session where one is needed (401); the body is read
 * after them (400/408/413/415), except that a form body is read first to
 * find its `csrfToken` field, and only when the CSRF cookie is there to
 * match it. Every body read has a deadline.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import { type Body, mediaType, readBody, type ReadBodyOptions } from "../http.ts";
import type { HttpContext } from "../http_context.ts";
import { requireCsrfCookie, submittedCsrfToken, verifyCsrf } from "./csrf.ts";
import { type CurrentSession, readSession } from "./session.ts";

/** What a guarded route gets. */
export interface Guarded<S extends CurrentSession | null> {
  /** The current session (always present when the guard required one). */
  session: S;
  /** Reads the body (JSON or form). */
  body(options?: ReadBodyOptions): Promise<Body>;
}

/** Runs the CSRF check, then requires a session (401 without one). */
export async function guardSessionMutation(
  ctx: AuthContext,
  http: HttpContext,
): Promise<Guarded<CurrentSession>> {
  const guarded = await guardMutation(ctx, http);
  const session = guarded.session;
  if (session === null) {
    throw new AuthError("invalid_session_token", "There is no valid session; sign in first.");
  }
  return { session, body: guarded.body };
}

/** Runs the CSRF check; a session is optional. */
export async function guardMutation(
  ctx: AuthContext,
  http: HttpContext,
): Promise<Guarded<CurrentSession | null>> {
  // Without the cookie no token can match: refuse before waiting on any body.
  requireCsrfCookie(http);
  const timeoutMs = ctx.bodyTimeoutMs;
  let formBody: Body | null = null;
  if (
    mediaType(http.request) === "application/x-www-form-urlencoded" &&
    http.request.headers.get("X-CSRF-Token") === null
  ) {
    formBody = await readBody(http.request, { optional: true, timeoutMs });
  }
  const session = await readSession(ctx, http);
  await verifyCsrf(ctx, http, {
    submitted: submittedCsrfToken(http.request, formBody),
    sessionId: session?.payload.jti ?? null,
  });
  let bodyPromise: Promise<Body> | undefined;
  return {
    session,
    body(options?: ReadBodyOptions): Promise<Body> {
      if (formBody !== null) return Promise.resolve(withoutCsrfField(formBody));
      bodyPromise ??= readBody(http.request, { timeoutMs, ...options }).then(withoutCsrfField);
      return bodyPromise;
    },
  };
}

function withoutCsrfField(body: Body): Body {
  if (!Object.hasOwn(body, "csrfToken")) return body;
  const { csrfToken: _, ...rest } = body;
  return rest;
}
