/**
 * `GET /session` (read, renew) and `POST|PATCH /session` (update).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import { guardMutation } from "../guard.ts";
import { jsonResponse, mediaType, type ResponseParts } from "../http.ts";
import { finish, redirectIntent } from "../redirects.ts";
import type { RequestState } from "../request.ts";
import {
  clearSessionCookies,
  hasSessionCookie,
  readSession,
  reissueSession,
  toSession,
  updatedUser,
  userFromPayload,
} from "../session.ts";

/** `GET /session`: 200 `Session`, re-issued when older than `updateAge`; 401 otherwise. */
export async function getSessionRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
): Promise<Response> {
  const current = await readSession(ctx, state);
  if (current === null) {
    if (hasSessionCookie(state)) parts.cookies.push(...clearSessionCookies(state));
    throw new AuthError("invalid_session_token", "No valid session.");
  }
  const { payload } = current;
  const issuedAt = typeof payload.iat === "number" ? payload.iat : payload.auth_time;
  if (state.now - issuedAt >= ctx.updateAge) {
    const renewed = await reissueSession(ctx, state, current, userFromPayload(payload));
    parts.cookies.push(...renewed.cookies);
    return jsonResponse(renewed.session, 200, parts);
  }
  return jsonResponse(toSession(payload), 200, parts);
}

/** Splits an update body into user fields and `expires`: JSON `{ user, expires }`, or flat form fields. */
function splitUpdate(body: Record<string, unknown>, form: boolean): {
  user: Record<string, unknown>;
  expires: unknown;
} {
  const { expires, ...rest } = body;
  if (form) return { user: rest, expires };
  for (const key of Object.keys(rest)) {
    if (key !== "user") {
      throw new AuthError("invalid_request", 'The update body takes only "user" and "expires".');
    }
  }
  const user = rest.user ?? {};
  if (typeof user !== "object" || user === null || Array.isArray(user)) {
    throw new AuthError("invalid_request", '"user" must be an object of user fields.');
  }
  return { user: user as Record<string, unknown>, expires };
}

/** `POST|PATCH /session`: 200 with the updated `Session` and a new cookie. */
export async function updateSessionRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
): Promise<Response> {
  const guarded = await guardMutation(ctx, state, true);
  const current = guarded.session!;
  const intent = await redirectIntent(state);
  const form = mediaType(state.request) === "application/x-www-form-urlencoded";
  const { user: update, expires } = splitUpdate(await guarded.body(), form);
  const user = await updatedUser(ctx, current.payload, update);
  const next = await reissueSession(ctx, state, current, user, expires);
  parts.cookies.push(...next.cookies);
  return finish(state, intent, next.session, 200, parts);
}
