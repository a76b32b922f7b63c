/**
 * The single sign-on routes: `POST /signIn/sso` and `GET|POST /callback/sso`
 * (one callback for every organization).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { browserFailure, withPlainError } from "../core/browser_failure.ts";
import { guardMutation } from "../core/guard.ts";
import { redirectIntent } from "../core/redirects.ts";
import { claimOAuthState } from "../core/single_use.ts";
import { isTwoFactorRequired, twoFactorPageURL } from "../core/second_step.ts";
import { AuthError, toAuthError } from "../errors.ts";
import { jsonResponse, redirectResponse } from "../http.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { answersFlow, clearFlowCookieLines } from "../oauth/flow_cookies.ts";
import { bodyRedirectTo, isFormPost, onlyKeys } from "./_body.ts";
import { authorizationResponse, hasValidSession } from "./callback.ts";
import { ssoQuery } from "../sso/connection.ts";
import {
  completeSsoSignIn,
  readSsoFlow,
  type SsoFlow,
  startSsoSignIn,
} from "../core/sso_sign_in.ts";

/**
 * `POST /signIn/sso` `{ email } | { organization }, redirectTo?` (CSRF):
 * 200 `{ url }` of the organization's provider, or a 302 there for a form
 * post (or `?redirect=true`).
 */
export async function ssoSignInRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  const body = await guarded.body();
  onlyKeys(body, ["email", "organization", "redirectTo"]);
  const query = ssoQuery(body);
  const redirectTo = await bodyRedirectTo(http, body.redirectTo, intent);
  const url = await startSsoSignIn(ctx, http, { query, redirectTo });
  return isFormPost(http) || intent.redirect
    ? redirectResponse(http, url)
    : jsonResponse(http, { url }, 200);
}

/** Lands on the flow's target with the error (a plain sentence), and logs it. */
function failed(ctx: AuthContext, http: HttpContext, sso: SsoFlow, failure: unknown): Response {
  const error = toAuthError(failure, ctx.logger, "sso callback");
  ctx.logger.log(
    "warn",
    "sso callback failed",
    clientDetails(ctx, http, {
      provider: `sso:${sso.connectionId}`,
      error: error.code,
      description: error.description,
    }),
  );
  return redirectResponse(http, withPlainError(sso.flow.redirectTo, error, http));
}

/**
 * `GET|POST /callback/sso`: completes the sign-in of whichever organization
 * the flow cookies are bound to, and lands on the stored target with the
 * session or the error (or on the second-step page). Without a flow it is
 * a browser failure; only a response with the flow's `state` ends the flow.
 */
export async function ssoCallbackRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const sso = await readSsoFlow(ctx, http);
  if (sso === null) {
    if (await hasValidSession(ctx, http)) {
      ctx.logger.log("info", "callback without a flow for a signed-in browser", {
        provider: "sso",
      });
      return redirectResponse(http, "/");
    }
    const error = new AuthError(
      "invalid_request",
      "The sign-in flow is missing, expired or was started elsewhere; expected a sign-in started here: start again.",
    );
    return browserFailure(ctx, http, { error, route: "callback", provider: "sso" });
  }
  let response: Awaited<ReturnType<typeof authorizationResponse>>;
  try {
    response = await authorizationResponse(ctx, http);
  } catch (error) {
    return failed(ctx, http, sso, error);
  }
  if (!answersFlow(response.params, sso.flow)) {
    return failed(
      ctx,
      http,
      sso,
      new AuthError(
        "invalid_request",
        "The state parameter does not match this sign-in; expected the state it was sent.",
      ),
    );
  }
  http.setCookies.push(...clearFlowCookieLines(http));
  try {
    await claimOAuthState(ctx, sso.flow);
    const done = await completeSsoSignIn(ctx, http, {
      sso,
      params: response.params,
      formPost: http.request.method === "POST",
    });
    if (isTwoFactorRequired(done)) return redirectResponse(http, twoFactorPageURL(ctx));
    return redirectResponse(http, sso.flow.redirectTo);
  } catch (error) {
    return failed(ctx, http, sso, error);
  }
}
