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
import { isTwoFactorRequired, twoFactorPageURL } from "../core/second_step.ts";
import { jsonResponse, redirectResponse } from "../http.ts";
import type { HttpContext } from "../http_context.ts";

/**
 * `POST /signUp`: 201 `Session` plus cookies; 200 `{ twoFactorRequired: true }`
 * (a 302 to the second-step page with `redirect=true`) when `onCreateUser`
 * answered with an account that has two-factor on.
 */
export async function signUpRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  const session = await signUp(ctx, http, await guarded.body({ optional: true }));
  if (isTwoFactorRequired(session)) {
    return intent.redirect
      ? redirectResponse(http, twoFactorPageURL(ctx))
      : jsonResponse(http, session, 200);
  }
  return finish(http, intent, { body: session, status: 201 });
}
