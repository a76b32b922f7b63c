/**
 * OAuth sign-in as two operations: start (authorization request plus sealed
 * flow cookies) and complete (authorization response, code exchange, user
 * info, profile mapping, session). Routes and `api` both call them.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import type { HttpContext } from "../http_context.ts";
import { createAuthorizationRequest } from "../oauth/authorization_request.ts";
import { validateAuthorizationResponse } from "../oauth/authorization_response.ts";
import { type FlowValues, openFlowCookies, sealFlowCookies } from "../oauth/flow_cookies.ts";
import { timedFetch } from "../oauth/provider_fetch.ts";
import type { ResolvedProvider } from "../oauth/resolve.ts";
import { exchangeCode } from "../oauth/token.ts";
import { fetchUserInfo } from "../oauth/user_info.ts";
import type { Session } from "../types.ts";
import { defaultTarget } from "./redirects.ts";
import { callApp } from "./call_app.ts";
import { finishSignIn } from "./sign_in.ts";

/** The error for a provider id no provider has: 400 `invalid_request`. */
export function unknownProviderError(): AuthError {
  return new AuthError(
    "invalid_request",
    "The provider is unknown; expected a configured provider id.",
  );
}

/** The provider for an id, or 400 `invalid_request`. */
export function providerById(ctx: AuthContext, id: string): ResolvedProvider {
  const provider = ctx.providers.get(id);
  if (!provider) throw unknownProviderError();
  return provider;
}

/** The redirect URI registered with providers: `{origin}{basePath}/callback/{id}`. */
function callbackURI(ctx: AuthContext, http: HttpContext, providerId: string): string {
  return `${http.origin}${ctx.basePath}/callback/${encodeURIComponent(providerId)}`;
}

/**
 * Starts a sign-in: builds the authorization request, adds the sealed flow
 * cookies to the response, and returns the URL to send the browser to.
 * `redirectTo` must already be validated.
 */
export async function startOAuthSignIn(
  ctx: AuthContext,
  http: HttpContext,
  options: { providerId: string; redirectTo: string | null },
): Promise<string> {
  const provider = providerById(ctx, options.providerId);
  const redirectTo = await defaultTarget(http, options.redirectTo);
  const redirectURI = callbackURI(ctx, http, provider.id);
  const request = await createAuthorizationRequest(provider, { redirectURI });
  const values: FlowValues = {
    state: request.state,
    codeVerifier: request.codeVerifier,
    redirectTo,
    redirectURI,
  };
  http.setCookies.push(
    ...await sealFlowCookies(ctx.flowJose, http, { providerId: provider.id, values }),
  );
  ctx.logger.log("debug", "oauth sign-in started", { provider: provider.id });
  return request.url;
}

/** Opens the request's flow cookies for a provider; `null` when they are missing or forged. */
export function readFlow(
  ctx: AuthContext,
  http: HttpContext,
  provider: ResolvedProvider,
): Promise<FlowValues | null> {
  return openFlowCookies(ctx.flowJose, http, provider.id);
}

/**
 * Completes a sign-in from the authorization response parameters: checks
 * them against the flow, exchanges the code with the PKCE verifier, fetches
 * and maps the profile, and starts the session.
 */
export async function completeOAuthSignIn(
  ctx: AuthContext,
  http: HttpContext,
  callback: { provider: ResolvedProvider; flow: FlowValues; params: URLSearchParams },
): Promise<Session> {
  const { provider, flow, params } = callback;
  const code = validateAuthorizationResponse(params, {
    state: flow.state,
    issuer: provider.issuer,
  });
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
  const session = await finishSignIn(ctx, http, {
    user,
    provider: provider.id,
    source: "provider",
    profile: raw,
    tokens,
  });
  ctx.logger.log("info", "oauth sign-in completed", { provider: provider.id });
  return session;
}
