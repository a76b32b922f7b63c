/**
 * OAuth sign-in as two operations: start (discovery when needed,
 * authorization request plus sealed flow cookies) and complete
 * (authorization response, code exchange, for OpenID Connect the ID token,
 * user info, profile mapping, session). Routes and `api` both call them.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import type { HttpContext } from "../http_context.ts";
import { createAuthorizationRequest, sendsNonce } from "../oauth/authorization_request.ts";
import { validateAuthorizationResponse } from "../oauth/authorization_response.ts";
import {
  type FlowValues,
  type OpenedFlow,
  openFlowCookies,
  sealFlowCookies,
} from "../oauth/flow_cookies.ts";
import type { ProviderMetadata } from "../oauth/oidc/discovery.ts";
import { timedFetch } from "../oauth/provider_fetch.ts";
import {
  discoveredEndpoints,
  isOpenIDConnect,
  needsDiscovery,
  withMetadata,
} from "../oauth/endpoints.ts";
import type { ResolvedProvider } from "../oauth/resolved_provider.ts";
import { exchangeCode } from "../oauth/token.ts";
import { fetchUserInfo } from "../oauth/user_info.ts";
import type { Session } from "../types.ts";
import { defaultTarget } from "./redirects.ts";
import { callApp } from "./call_app.ts";
import { finishSignIn } from "./sign_in.ts";
import type { TwoFactorRequired } from "./two_factor.ts";

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
 * The provider's discovered metadata when its configuration needs it (an
 * issuer with a missing endpoint or, for OpenID Connect, JWKS URL), from
 * the instance's cache; `undefined` when everything is configured. A
 * discovery failure is a 502 `AuthError`.
 */
async function metadataFor(
  ctx: AuthContext,
  provider: ResolvedProvider,
): Promise<ProviderMetadata | undefined> {
  if (!needsDiscovery(provider)) return undefined;
  return await ctx.oidc.discovery.get(provider.issuer!, { openid: isOpenIDConnect(provider) });
}

/**
 * Starts a sign-in: discovers the provider's endpoints when needed, builds
 * the authorization request (with a `nonce` for OpenID Connect), adds the
 * sealed flow cookies to the response, and returns the URL to send the
 * browser to. `redirectTo` must already be validated.
 */
export async function startOAuthSignIn(
  ctx: AuthContext,
  http: HttpContext,
  options: { providerId: string; redirectTo: string | null },
): Promise<string> {
  const configured = providerById(ctx, options.providerId);
  const provider = withMetadata(configured, await metadataFor(ctx, configured));
  const redirectTo = await defaultTarget(http, options.redirectTo);
  const redirectURI = callbackURI(ctx, http, provider.id);
  const request = createAuthorizationRequest(provider, { redirectURI });
  const values: FlowValues = {
    state: request.state,
    codeVerifier: request.codeVerifier,
    redirectTo,
    redirectURI,
  };
  if (request.nonce !== undefined) values.nonce = request.nonce;
  http.setCookies.push(
    ...await sealFlowCookies(ctx.flowJose, http, {
      providerId: provider.id,
      values,
      crossSite: provider.responseMode === "form_post",
    }),
  );
  ctx.logger.log("debug", "oauth sign-in started", { provider: provider.id });
  return request.url;
}

/** Opens the request's flow cookies for a provider; `null` when they are missing or forged. */
export function readFlow(
  ctx: AuthContext,
  http: HttpContext,
  provider: ResolvedProvider,
): Promise<OpenedFlow | null> {
  return openFlowCookies(ctx.flowJose, http, provider.id);
}

/** The nonce the ID token must carry: the flow's, when the provider was sent one. */
function expectedNonce(provider: ResolvedProvider, flow: FlowValues): string | undefined {
  if (!sendsNonce(provider)) return undefined;
  if (flow.nonce === undefined) {
    throw new AuthError(
      "invalid_request",
      "The sign-in flow has no nonce; expected a sign-in started here: start again.",
    );
  }
  return flow.nonce;
}

/**
 * Completes a sign-in from the authorization response parameters: checks
 * them against the flow, exchanges the code with the PKCE verifier, for
 * OpenID Connect validates the ID token (and matches the user info's `sub`
 * to it), maps the profile, and starts the session (or, for an enrolled
 * user, stops at the second step: `TwoFactorRequired`).
 */
export async function completeOAuthSignIn(
  ctx: AuthContext,
  http: HttpContext,
  callback: {
    provider: ResolvedProvider;
    flow: FlowValues;
    params: URLSearchParams;
    /** The `user` object a `form_post` provider posted (see `ProfileContext.postedUser`). */
    postedUser?: Record<string, unknown>;
  },
): Promise<Session | TwoFactorRequired> {
  const { flow, params } = callback;
  const metadata = await metadataFor(ctx, callback.provider);
  const provider = withMetadata(callback.provider, metadata);
  const code = validateAuthorizationResponse(params, {
    state: flow.state,
    issuer: provider.issuerFor === undefined ? provider.issuer : undefined,
    requireIss: metadata?.authorization_response_iss_parameter_supported === true,
  });
  const oidc = isOpenIDConnect(provider);
  const nonce = oidc ? expectedNonce(provider, flow) : undefined;
  const fetchFn = timedFetch(ctx.fetch);
  const tokens = await exchangeCode(fetchFn, provider, {
    code,
    redirectURI: flow.redirectURI,
    codeVerifier: flow.codeVerifier,
  });
  let raw: Record<string, unknown>;
  if (oidc) {
    // The ID token, and the user info matched to it: the OIDC kit's code (oauth/oidc/kit.ts).
    raw = await ctx.oidc.claims(provider, { tokens, metadata, nonce, params, fetch: fetchFn });
  } else {
    raw = await fetchUserInfo(fetchFn, provider, tokens);
  }
  const discovered = metadata === undefined ? undefined : discoveredEndpoints(metadata);
  const user = await callApp(
    ctx,
    `profile of provider ${provider.id}`,
    () =>
      provider.profile(raw, {
        tokens,
        fetch: fetchFn,
        discovered,
        postedUser: provider.responseMode === "form_post" ? callback.postedUser : undefined,
      }),
  );
  const session = await finishSignIn(ctx, http, {
    user,
    provider: provider.id,
    source: "provider",
    profile: raw,
    tokens,
    verifiedEmail: providerVerifiedEmail(provider, raw, user),
    redirectTo: flow.redirectTo,
  });
  ctx.logger.log("info", "oauth sign-in completed", { provider: provider.id });
  return session;
}

/**
 * The address a provider vouched for: the mapped `email` of a built-in whose
 * mapper keeps only addresses the provider marks verified, or the one the
 * profile (or the ID token's claims) says `email_verified: true` for. A
 * provider that says nothing proves nothing.
 */
function providerVerifiedEmail(
  provider: ResolvedProvider,
  raw: Record<string, unknown>,
  user: unknown,
): string | undefined {
  const email = typeof user === "object" && user !== null
    ? (user as { email?: unknown }).email
    : undefined;
  if (typeof email !== "string") return undefined;
  if (provider.verifiesEmail) return email;
  if (typeof raw.email !== "string") return undefined;
  const verified = raw.email_verified === true || raw.email_verified === "true";
  return verified && raw.email.toLowerCase() === email.toLowerCase() ? email : undefined;
}
