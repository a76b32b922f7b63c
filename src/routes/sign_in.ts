/**
 * `GET /signIn/:oauth`: starts the authorization-code flow with PKCE `S256`
 * and a 32-byte `state`, sealed in the flow cookies.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import { jsonResponse, redirectResponse, type ResponseParts } from "../http.ts";
import { flowCookieLines } from "../oauth/flow_cookies.ts";
import { codeChallengeS256, randomToken } from "../oauth/pkce.ts";
import { defaultTarget, redirectIntent, singleParam } from "../redirects.ts";
import type { RequestState } from "../request.ts";

/** The redirect URI registered with providers: `{origin}{basePath}/callback/{id}`. */
function callbackURI(ctx: AuthContext, state: RequestState, providerId: string): string {
  return `${state.origin}${ctx.basePath}/callback/${encodeURIComponent(providerId)}`;
}

/**
 * Builds the authorization URL and sets the flow cookies. Query parameters of
 * the incoming request never reach the provider; the flow's own parameters
 * override any of the same name in the configured URL.
 */
export async function startOAuthSignIn(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
  providerId: string,
  options: { redirectTo: string | null; redirect: boolean },
): Promise<Response> {
  const provider = ctx.providers.get(providerId);
  if (!provider) throw new AuthError("invalid_request", "Unknown provider.");
  const target = await defaultTarget(state, options.redirectTo);
  const oauthState = randomToken(32);
  const codeVerifier = randomToken(32);
  const redirectURI = callbackURI(ctx, state, provider.id);
  const url = new URL(provider.authorizeURL);
  for (const [key, value] of Object.entries(provider.authorizationParams)) {
    url.searchParams.set(key, value);
  }
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", redirectURI);
  if (provider.scope !== "") url.searchParams.set("scope", provider.scope);
  url.searchParams.set("state", oauthState);
  url.searchParams.set("code_challenge", await codeChallengeS256(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  parts.cookies.push(
    ...await flowCookieLines(ctx, state, provider.id, {
      state: oauthState,
      codeVerifier,
      redirectTo: target,
      redirectURI,
    }),
  );
  ctx.logger.log("debug", "oauth sign-in started", { provider: provider.id });
  if (!options.redirect) return jsonResponse({ url: url.href }, 200, parts);
  return redirectResponse(url.href, parts);
}

/** `GET /signIn/:oauth`: 302 to the provider (or 200 `{ url }` with `redirect=false`). */
export async function signInRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
  providerId: string,
): Promise<Response> {
  if (!ctx.providers.has(providerId)) throw new AuthError("invalid_request", "Unknown provider.");
  const intent = await redirectIntent(state);
  const explicitFalse = singleParam(state.url, "redirect") === "false";
  return startOAuthSignIn(ctx, state, parts, providerId, {
    redirectTo: intent.redirectTo,
    redirect: !explicitFalse,
  });
}
