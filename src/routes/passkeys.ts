/**
 * The passkey routes: `POST /passkey/register/options`, `POST
 * /passkey/register`, `POST /passkey/signIn/options`, `POST
 * /passkey/signIn`, `GET /passkeys`, `DELETE /passkeys/:id`.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { bodyRedirectTo, onlyKeys } from "./_body.ts";
import { guardMutation, guardSessionMutation } from "../core/guard.ts";
import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  signInOptions,
  signInWithPasskey,
} from "../core/passkeys.ts";
import { defaultTarget, finish, redirectIntent } from "../core/redirects.ts";
import { readSession } from "../core/session.ts";
import { isTwoFactorRequired, twoFactorPageURL } from "../core/two_factor.ts";
import { AuthError } from "../errors.ts";
import { emptyResponse, jsonResponse, redirectResponse } from "../http.ts";
import type { HttpContext } from "../http_context.ts";

function noSession(): AuthError {
  return new AuthError("invalid_session_token", "There is no valid session; sign in first.");
}

/** `POST /passkey/register/options` (session, CSRF): `PublicKeyCredentialCreationOptionsJSON`. */
export async function registerOptionsRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const { session, body } = await guardSessionMutation(ctx, http);
  onlyKeys(await body({ optional: true }), []);
  return jsonResponse(http, await registrationOptions(ctx, http, session), 200);
}

/** `POST /passkey/register` `{ response, name? }` (session, CSRF): 201 `{ passkey }`. */
export async function registerRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const { session, body } = await guardSessionMutation(ctx, http);
  const read = await body();
  onlyKeys(read, ["response", "name"]);
  const passkey = await registerPasskey(ctx, http, {
    session,
    response: read.response,
    name: read.name,
  });
  return jsonResponse(http, { passkey }, 201);
}

/** `POST /passkey/signIn/options` (CSRF): `PublicKeyCredentialRequestOptionsJSON`. */
export async function signInOptionsRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  onlyKeys(await guarded.body({ optional: true }), []);
  return jsonResponse(http, await signInOptions(ctx, http), 200);
}

/**
 * `POST /passkey/signIn` `{ response, redirectTo? }` (CSRF): 200 `Session`;
 * 200 `{ twoFactorRequired: true }` when the passkey did not verify the user
 * and the account has two-factor on.
 */
export async function passkeySignInRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  const body = await guarded.body();
  onlyKeys(body, ["response", "redirectTo"]);
  const redirectTo = await bodyRedirectTo(http, body.redirectTo, intent);
  const session = await signInWithPasskey(ctx, http, body.response, {
    redirectTo: ctx.twoFactor ? await defaultTarget(http, redirectTo) : undefined,
  });
  // A passkey without user verification, for an account with two-factor on: the code is due.
  if (isTwoFactorRequired(session) && intent.redirect) {
    return redirectResponse(http, twoFactorPageURL(ctx));
  }
  return finish(http, { redirect: intent.redirect, redirectTo }, { body: session, status: 200 });
}

/** `GET /passkeys` (session): 200 `{ passkeys }`, the user's own, without public keys. */
export async function listPasskeysRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const session = await readSession(ctx, http);
  if (session === null) throw noSession();
  return jsonResponse(http, { passkeys: await listPasskeys(ctx, session.payload.sub) }, 200);
}

/** `DELETE /passkeys/:id` (session, CSRF): 204 for one's own, 404 otherwise. */
export async function deletePasskeyRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { readonly id: string },
): Promise<Response> {
  const { session } = await guardSessionMutation(ctx, http);
  if (!(await deletePasskey(ctx, session.payload.sub, params.id))) {
    throw new AuthError("invalid_request", "There is no such passkey; expected one of yours.", {
      status: 404,
    });
  }
  return emptyResponse(http, 204);
}
