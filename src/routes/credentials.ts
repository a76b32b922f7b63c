/**
 * `POST /signIn/credentials`: username and password through `credentials.authorize`.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { guardMutation } from "../core/guard.ts";
import { defaultTarget, finish, redirectIntent } from "../core/redirects.ts";
import { signInWithCredentials } from "../core/sign_in.ts";
import { isTwoFactorRequired, twoFactorPageURL } from "../core/second_step.ts";
import { AuthError } from "../errors.ts";
import { redirectResponse } from "../http.ts";
import type { HttpContext } from "../http_context.ts";

const MAX_FIELD = 1024;

function credential(body: Record<string, unknown>, name: "username" | "password"): string {
  const value = body[name];
  if (typeof value !== "string" || value === "" || value.length > MAX_FIELD) {
    throw new AuthError(
      "invalid_request",
      `"${name}" is missing or invalid; expected a non-empty string of at most ${MAX_FIELD} characters.`,
    );
  }
  return value;
}

/**
 * `POST /signIn/credentials`: 200 `Session` plus cookies; 401 `access_denied`
 * on bad credentials; 200 `{ twoFactorRequired: true }` (a 302 to the
 * second-step page with `redirect=true`) when the user must still give a code.
 */
export async function credentialsRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  const body = await guarded.body();
  for (const key of Object.keys(body)) {
    if (key !== "username" && key !== "password") {
      throw new AuthError(
        "invalid_request",
        'The body has an unknown key; expected only "username" and "password".',
      );
    }
  }
  const session = await signInWithCredentials(ctx, http, {
    username: credential(body, "username"),
    password: credential(body, "password"),
  }, {
    redirectTo: ctx.twoFactor ? await defaultTarget(http, intent.redirectTo) : undefined,
  });
  if (isTwoFactorRequired(session) && intent.redirect) {
    return redirectResponse(http, twoFactorPageURL(ctx));
  }
  return finish(http, intent, { body: session, status: 200 });
}
