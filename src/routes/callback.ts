/**
 * `GET /callback/:oauth`: checks the flow cookies, the provider and `state`,
 * exchanges the code with the PKCE verifier, fetches and maps the profile,
 * and starts the session. Flow cookies are cleared on every outcome.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import { redirectResponse, type ResponseParts } from "../http.ts";
import { clearFlowCookieLines, readFlowCookies } from "../oauth/flow_cookies.ts";
import { timedFetch } from "../oauth/provider_fetch.ts";
import { exchangeCode } from "../oauth/token.ts";
import { fetchUserInfo } from "../oauth/user_info.ts";
import { clientDetails, type RequestState } from "../request.ts";
import { timingSafeEqual } from "../timing_safe_equal.ts";
import { isAuthorizationErrorCode } from "../types.ts";
import { callApp, startSession } from "./sign_in_session.ts";
import { singleParam } from "../redirects.ts";

/** Appends `error` and `error_description` to a validated target, keeping it relative when it was. */
function withError(target: string, error: AuthError): string {
  const relative = target.startsWith("/");
  const url = new URL(target, "http://relative.invalid");
  url.searchParams.set("error", error.code);
  url.searchParams.set("error_description", error.description);
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

function param(state: RequestState, name: string): string {
  const value = singleParam(state.url, name);
  if (value === null || value === "") {
    throw new AuthError("invalid_request", `The callback has no "${name}" parameter.`);
  }
  return value;
}

/** `GET /callback/:oauth`: 302 to the stored target, with the session or with an error. */
export async function callbackRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
  providerId: string,
): Promise<Response> {
  parts.cookies.push(...clearFlowCookieLines(state));
  const provider = ctx.providers.get(providerId);
  if (!provider) throw new AuthError("invalid_request", "Unknown provider.");
  const flow = await readFlowCookies(ctx, state, provider.id);
  if (flow === null) {
    throw new AuthError(
      "invalid_request",
      "The sign-in flow is missing, expired or was started for another provider: start again.",
    );
  }
  try {
    if (!timingSafeEqual(param(state, "state"), flow.state)) {
      throw new AuthError("invalid_request", "The state parameter does not match this sign-in.");
    }
    const iss = singleParam(state.url, "iss");
    if (iss !== null && provider.issuer !== undefined && iss !== provider.issuer) {
      throw new AuthError("invalid_request", "The iss parameter does not match the provider.");
    }
    // Error responses count only once state and iss prove they answer this flow.
    const providerError = singleParam(state.url, "error");
    if (providerError !== null) {
      const code = isAuthorizationErrorCode(providerError) ? providerError : "server_error";
      throw new AuthError(
        code,
        code === "access_denied"
          ? "The provider denied the sign-in."
          : "The provider refused the sign-in.",
      );
    }
    const code = param(state, "code");
    const fetchFn = timedFetch(ctx.fetch);
    const tokens = await exchangeCode(fetchFn, provider, {
      code,
      redirectURI: flow.redirectURI,
      codeVerifier: flow.codeVerifier,
    });
    const raw = await fetchUserInfo(fetchFn, provider, tokens);
    const user = await callApp(
      ctx,
      `profile of provider ${provider.id}`,
      () => provider.profile(raw, { tokens, fetch: fetchFn }),
    );
    await startSession(ctx, state, user, parts);
    ctx.logger.log("info", "oauth sign-in completed", { provider: provider.id });
    return redirectResponse(flow.redirectTo, parts);
  } catch (error) {
    const failure = error instanceof AuthError ? error : unexpected(ctx, error);
    ctx.logger.log(
      "warn",
      "oauth callback failed",
      clientDetails(ctx, state, { provider: provider.id, error: failure.code }),
    );
    return redirectResponse(withError(flow.redirectTo, failure), parts);
  }
}

function unexpected(ctx: AuthContext, error: unknown): AuthError {
  ctx.logger.error("oauth callback failed unexpectedly", error);
  return new AuthError("server_error", "The sign-in could not be completed.");
}
