/**
 * `GET /callback/:oauth`: completes the OAuth flow and lands on the stored
 * target, with the session or with the error in the query. Flow cookies are
 * cleared on every outcome.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { completeOAuthSignIn, providerById, readFlow } from "../core/oauth_sign_in.ts";
import { AuthError, toAuthError } from "../errors.ts";
import { redirectResponse } from "../http.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { clearFlowCookieLines } from "../oauth/flow_cookies.ts";

/** Appends `error` and `error_description` to a validated target, keeping it relative when it was. */
function withError(target: string, error: AuthError): string {
  const relative = target.startsWith("/");
  const url = new URL(target, "http://relative.invalid");
  url.searchParams.set("error", error.code);
  url.searchParams.set("error_description", error.description);
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

/** `GET /callback/:oauth`: 302 to the stored target, with the session or with an error. */
export async function callbackRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { provider: string },
): Promise<Response> {
  http.setCookies.push(...clearFlowCookieLines(http));
  const provider = providerById(ctx, params.provider);
  const flow = await readFlow(ctx, http, provider);
  if (flow === null) {
    throw new AuthError(
      "invalid_request",
      "The sign-in flow is missing, expired or was started for another provider; expected a flow started here: start again.",
    );
  }
  try {
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
