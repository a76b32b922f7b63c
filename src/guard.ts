/**
 * The checks every state-changing route runs, in the documented order:
 * CSRF (403), then the session where one is needed (401); the body is read
 * after them (400/413/415), except that a form body is read first to find
 * its `csrfToken` field.
 *
 * @module
 */

import type { AuthContext } from "./config.ts";
import { submittedCsrfToken, verifyCsrf } from "./csrf.ts";
import { AuthError } from "./errors.ts";
import { type Body, mediaType, readBody } from "./http.ts";
import type { RequestState } from "./request.ts";
import { type CurrentSession, readSession } from "./session.ts";

/** What a guarded route gets. */
export interface Guarded {
  /** The current session, if any. */
  session: CurrentSession | null;
  /** Reads the body (JSON or form); `optional` allows an empty body. */
  body(optional?: boolean): Promise<Body>;
}

/** Runs the CSRF and session checks; `needsSession` makes a missing session a 401. */
export async function guardMutation(
  ctx: AuthContext,
  state: RequestState,
  needsSession: boolean,
): Promise<Guarded> {
  let formBody: Body | null = null;
  if (
    mediaType(state.request) === "application/x-www-form-urlencoded" &&
    state.request.headers.get("X-CSRF-Token") === null
  ) {
    formBody = await readBody(state.request, true);
  }
  const session = await readSession(ctx, state);
  await verifyCsrf(
    ctx,
    state,
    submittedCsrfToken(state.request, formBody),
    session?.payload.jti ?? null,
  );
  if (needsSession && session === null) {
    throw new AuthError("invalid_session_token", "No valid session: sign in first.");
  }
  let bodyPromise: Promise<Body> | undefined;
  return {
    session,
    body(optional = false): Promise<Body> {
      if (formBody !== null) return Promise.resolve(withoutCsrfField(formBody));
      bodyPromise ??= readBody(state.request, optional).then(withoutCsrfField);
      return bodyPromise;
    },
  };
}

function withoutCsrfField(body: Body): Body {
  if (!Object.hasOwn(body, "csrfToken")) return body;
  const { csrfToken: _, ...rest } = body;
  return rest;
}
