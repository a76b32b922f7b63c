/**
 * `POST /signOut`: clears the session and CSRF cookies.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { clearCsrfCookie } from "../csrf.ts";
import { guardMutation } from "../guard.ts";
import type { ResponseParts } from "../http.ts";
import { finish, redirectIntent } from "../redirects.ts";
import type { RequestState } from "../request.ts";
import { clearSessionCookies } from "../session.ts";

/** `POST /signOut`: 200 `{ ok: true }` (or 302), session and CSRF cookies cleared. */
export async function signOutRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
): Promise<Response> {
  const guarded = await guardMutation(ctx, state, false);
  const intent = await redirectIntent(state);
  if (guarded.session) ctx.sessionCache.delete(guarded.session.token);
  parts.cookies.push(...clearSessionCookies(state), clearCsrfCookie(state));
  return finish(state, intent, { ok: true }, 200, parts);
}
