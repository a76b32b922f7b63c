/**
 * `GET /session` (read, renew) and `POST|PATCH /session` (update).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { guardSessionMutation } from "../core/guard.ts";
import { finish, redirectIntent } from "../core/redirects.ts";
import {
  cachedSession,
  clearSessionCookies,
  type CurrentSession,
  hasSessionCookie,
  readSession,
  reissueSession,
  sessionJSON,
  type SessionPayload,
  updateSession,
  userFromPayload,
} from "../core/session.ts";
import { AuthError } from "../errors.ts";
import { jsonResponse, jsonTextResponse, mediaType } from "../http.ts";
import type { HttpContext } from "../http_context.ts";
import { isRecord } from "../is_record.ts";

/**
 * `GET /session`: 200 `Session`, re-issued when older than `updateAge`; 200
 * `null` without a valid session (its invalid cookies cleared), so that a
 * signed-out page load is not an error.
 */
export function getSessionRoute(ctx: AuthContext, http: HttpContext): Response | Promise<Response> {
  const cached = cachedSession(ctx, http);
  // A cached token that needs no renewal is answered synchronously: nothing to wait for.
  if (cached !== undefined && !needsRenewal(ctx, http, cached.payload)) {
    return jsonTextResponse(http, sessionJSON(ctx, cached), 200);
  }
  return readSessionRoute(ctx, http, cached);
}

/** Whether a session is older than `updateAge` and is re-issued on this read. */
function needsRenewal(
  ctx: AuthContext,
  http: HttpContext,
  payload: Readonly<SessionPayload>,
): boolean {
  const issuedAt = typeof payload.iat === "number" ? payload.iat : payload.auth_time;
  return http.now - issuedAt >= ctx.updateAge;
}

async function readSessionRoute(
  ctx: AuthContext,
  http: HttpContext,
  cached: CurrentSession | undefined,
): Promise<Response> {
  const current = cached ?? await readSession(ctx, http);
  if (current === null) {
    if (hasSessionCookie(http)) http.setCookies.push(...clearSessionCookies(http));
    return jsonResponse(http, null, 200);
  }
  if (needsRenewal(ctx, http, current.payload)) {
    const renewed = await reissueSession(ctx, http, current, userFromPayload(current.payload));
    http.setCookies.push(...renewed.cookies);
    return jsonResponse(http, renewed.session, 200);
  }
  return jsonTextResponse(http, sessionJSON(ctx, current), 200);
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
      throw new AuthError(
        "invalid_request",
        'The update body has an unknown key; expected only "user" and "expires".',
      );
    }
  }
  const user = rest.user ?? {};
  if (!isRecord(user)) {
    throw new AuthError(
      "invalid_request",
      '"user" is not an object; expected an object of user fields.',
    );
  }
  return { user, expires };
}

/** `POST|PATCH /session`: 200 with the updated `Session` and a new cookie. */
export async function updateSessionRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const { session: current, body } = await guardSessionMutation(ctx, http);
  const intent = await redirectIntent(http);
  const form = mediaType(http.request) === "application/x-www-form-urlencoded";
  const { user, expires } = splitUpdate(await body(), form);
  if (ctx.email !== undefined && Object.hasOwn(user, "email")) {
    throw new AuthError(
      "invalid_request",
      "The email address cannot be changed here; expected POST /email/change, which confirms the new address.",
    );
  }
  const session = await updateSession(ctx, http, { current, user, expires });
  return finish(http, intent, { body: session, status: 200 });
}
