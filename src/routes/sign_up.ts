/**
 * `POST /signUp`: validates the body with `signUp.schema` and creates the
 * user with `signUp.onCreateUser`.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { guardMutation } from "../core/guard.ts";
import { finish, redirectIntent } from "../core/redirects.ts";
import { signUp } from "../core/sign_in.ts";
import type { HttpContext } from "../http_context.ts";

/** `POST /signUp`: 201 `Session` plus cookies. */
export async function signUpRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  const session = await signUp(ctx, http, await guarded.body({ optional: true }));
  return finish(http, intent, { body: session, status: 201 });
}
