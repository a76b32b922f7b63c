/**
 * The authorization request (RFC 6749 section 4.1.1 with PKCE `S256`, RFC
 * 7636, and OpenID Connect Core 3.1.2.1's `nonce`): fresh `state`, verifier
 * and nonce, and the URL the browser is sent to.
 *
 * @module
 */

import { codeChallengeS256, randomToken } from "./pkce.ts";
import { isOpenIDConnect, requireEndpoint } from "./endpoints.ts";
import type { ResolvedProvider } from "./resolved_provider.ts";

/** An authorization request and the secrets its callback will need. */
export interface AuthorizationRequest {
  /** The provider's authorization URL with every parameter set. */
  url: string;
  /** The `state` sent (32 random bytes). */
  state: string;
  /** The PKCE verifier whose `S256` challenge was sent (not sent with `pkce: false`). */
  codeVerifier: string;
  /** The OpenID Connect `nonce` sent (32 random bytes), when {@link sendsNonce} says so. */
  nonce?: string;
}

/**
 * Whether a provider's authorization requests carry a `nonce`: OpenID
 * Connect applies (the scope contains `openid`) and the provider echoes it
 * (`nonce` is not `false`, as it is for LinkedIn).
 *
 * @example
 * ```ts
 * import { sendsNonce } from "./authorization_request.ts";
 *
 * sendsNonce({ scope: "openid email", nonce: true }); // true
 * sendsNonce({ scope: "read:user", nonce: true }); // false
 * ```
 */
export function sendsNonce(provider: Pick<ResolvedProvider, "scope" | "nonce">): boolean {
  return isOpenIDConnect(provider) && provider.nonce;
}

/**
 * Builds the authorization URL. Parameters of the incoming request never
 * reach the provider; the flow's own parameters override any of the same
 * name in the configured URL or `authorizationParams`.
 */
export function createAuthorizationRequest(
  provider: ResolvedProvider,
  options: { redirectURI: string },
): AuthorizationRequest {
  const state = randomToken(32);
  const codeVerifier = randomToken(32);
  const nonce = sendsNonce(provider) ? randomToken(32) : undefined;
  const url = new URL(requireEndpoint(provider, "authorizeURL"));
  for (const [key, value] of Object.entries(provider.authorizationParams)) {
    url.searchParams.set(key, value);
  }
  url.searchParams.set("response_type", "code");
  url.searchParams.set(provider.clientIdParam, provider.clientId);
  url.searchParams.set("redirect_uri", options.redirectURI);
  if (provider.scope !== "") url.searchParams.set("scope", provider.scope);
  url.searchParams.set("state", state);
  if (nonce !== undefined) url.searchParams.set("nonce", nonce);
  if (provider.responseMode === "form_post") url.searchParams.set("response_mode", "form_post");
  if (provider.pkce) {
    url.searchParams.set("code_challenge", codeChallengeS256(codeVerifier));
    url.searchParams.set("code_challenge_method", "S256");
  }
  return nonce === undefined
    ? { url: url.href, state, codeVerifier }
    : { url: url.href, state, codeVerifier, nonce };
}
