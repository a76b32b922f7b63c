/**
 * `GET /callback/:oauth`: completes the OAuth flow and lands on the stored
 * target, with the session or with the error in the query. Flow cookies are
 * cleared on every outcome.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { browserFailure, withError } from "../core/browser_failure.ts";
import { completeOAuthSignIn, readFlow, unknownProviderError } from "../core/oauth_sign_in.ts";
import { claimOAuthState } from "../core/single_use.ts";
import { AuthError, toAuthError } from "../errors.ts";
import { redirectResponse } from "../http.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { clearFlowCookieLines } from "../oauth/flow_cookies.ts";

/**
 * `GET /callback/:oauth`: 302 to the stored target, with the session or with
 * an error. Without a trusted target (flow cookies missing, expired or
 * forged) it is a browser failure: `pages.error`, an HTML page, or JSON.
 */
export async function callbackRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { provider: string },
): Promise<Response> {
  http.setCookies.push(...clearFlowCookieLines(http));
  const provider = ctx.providers.get(params.provider);
  const flow = provider ? await readFlow(ctx, http, provider) : null;
  if (provider === undefined || flow === null) {
    const error = provider === undefined ? unknownProviderError() : new AuthError(
      "invalid_request",
      "The sign-in flow is missing, expired or was started elsewhere; expected a sign-in started here: start again.",
    );
    return browserFailure(ctx, http, { error, route: "callback", provider: params.provider });
  }
  try {
    await claimOAuthState(ctx, flow.state);
    await completeOAuthSignIn(ctx, http, { provider, flow, params: http.url.searchParams });
    return redirectResponse(http, flow.redirectTo);
  } catch (error) {
    const failure = toAuthError(error, ctx.logger, "oauth callback");
    ctx.logger.log(
      "warn",
      "oauth callback failed",
      clientDetails(ctx, http, { provider: provider.id, error: failure.code }),
    );
    return redirectResponse(http, withError(flow.redirectTo, failure));
  }
}
