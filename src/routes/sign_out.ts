/**
 * `POST /signOut`: clears the session and CSRF cookies.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { guardMutation } from "../core/guard.ts";
import { finish, redirectIntent } from "../core/redirects.ts";
import { signOut } from "../core/session.ts";
import type { HttpContext } from "../http_context.ts";

/** `POST /signOut`: 200 `{ ok: true }` (or 302), session and CSRF cookies cleared. */
export async function signOutRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const { session } = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  await signOut(ctx, http, session);
  return finish(http, intent, { body: { ok: true }, status: 200 });
}
