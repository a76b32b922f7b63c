/**
 * The linked-account routes: `POST /link/:provider`, `GET /accounts`,
 * `DELETE /accounts/:provider/:providerAccountId`.
 *
 * @module
 */

import { checkLinkScope } from "../accounts/prepared.ts";
import { accountsOf, listAccounts, noSuchAccount, unlinkAccount } from "../core/accounts.ts";
import type { AuthContext } from "../config.ts";
import { guardSessionMutation } from "../core/guard.ts";
import { providerById, startOAuthSignIn } from "../core/oauth_sign_in.ts";
import { readSession } from "../core/session.ts";
import { AuthError } from "../errors.ts";
import { emptyResponse, jsonResponse, redirectResponse } from "../http.ts";
import type { HttpContext } from "../http_context.ts";
import { bodyRedirectTo, isFormPost, onlyKeys } from "./_body.ts";

/**
 * `POST /link/:provider` `{ redirectTo?, scope? }` (session, CSRF): 200
 * `{ url }` to the provider (302 for a form post), the flow bound to the
 * session's `sub`; its callback links the provider account to that user.
 */
export async function linkRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { readonly provider: string },
): Promise<Response> {
  accountsOf(ctx);
  const { session, body } = await guardSessionMutation(ctx, http);
  providerById(ctx, params.provider);
  const read = await body({ optional: true });
  onlyKeys(read, ["redirectTo", "scope"]);
  const scope = checkLinkScope(read.scope);
  const redirectTo = await bodyRedirectTo(http, read.redirectTo, {
    redirect: false,
    redirectTo: null,
  });
  const url = await startOAuthSignIn(ctx, http, {
    providerId: params.provider,
    redirectTo,
    link: { sub: session.payload.sub, ...(scope === undefined ? {} : { scope }) },
  });
  return isFormPost(http) ? redirectResponse(http, url) : jsonResponse(http, { url }, 200);
}

/** `GET /accounts` (session): 200 `{ accounts }`, the user's own, never tokens. */
export async function listAccountsRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  accountsOf(ctx);
  const session = await readSession(ctx, http);
  if (session === null) {
    throw new AuthError("invalid_session_token", "There is no valid session; sign in first.");
  }
  return jsonResponse(http, { accounts: await listAccounts(ctx, session.payload.sub) }, 200);
}

/** `DELETE /accounts/:provider/:providerAccountId` (session, CSRF): 204 own, 404 otherwise. */
export async function unlinkRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { readonly provider: string; readonly providerAccountId: string },
): Promise<Response> {
  accountsOf(ctx);
  const { session } = await guardSessionMutation(ctx, http);
  const removed = await unlinkAccount(
    ctx,
    session.payload.sub,
    params.provider,
    params.providerAccountId,
  );
  if (!removed) throw noSuchAccount();
  return emptyResponse(http, 204);
}
