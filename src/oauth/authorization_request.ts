/**
 * The authorization request (RFC 6749 section 4.1.1 with PKCE `S256`, RFC
 * 7636): fresh `state` and verifier, and the URL the browser is sent to.
 *
 * @module
 */

import { codeChallengeS256, randomToken } from "./pkce.ts";
import { requireEndpoint, type ResolvedProvider } from "./resolve.ts";

/** An authorization request and the secrets its callback will need. */
export interface AuthorizationRequest {
  /** The provider's authorization URL with every parameter set. */
  url: string;
  /** The `state` sent (32 random bytes). */
  state: string;
  /** The PKCE verifier whose `S256` challenge was sent. */
  codeVerifier: string;
}

/**
 * Builds the authorization URL. Parameters of the incoming request never
 * reach the provider; the flow's own parameters override any of the same
 * name in the configured URL or `authorizationParams`.
 */
export async function createAuthorizationRequest(
  provider: ResolvedProvider,
  options: { redirectURI: string },
): Promise<AuthorizationRequest> {
  const state = randomToken(32);
  const codeVerifier = randomToken(32);
  const url = new URL(requireEndpoint(provider, "authorizeURL"));
  for (const [key, value] of Object.entries(provider.authorizationParams)) {
    url.searchParams.set(key, value);
  }
  url.searchParams.set("response_type", "code");
  url.searchParams.set(provider.clientIdParam, provider.clientId);
  url.searchParams.set("redirect_uri", options.redirectURI);
  if (provider.scope !== "") url.searchParams.set("scope", provider.scope);
  url.searchParams.set("state", state);
  if (provider.responseMode === "form_post") url.searchParams.set("response_mode", "form_post");
  if (provider.pkce) {
    url.searchParams.set("code_challenge", await codeChallengeS256(codeVerifier));
    url.searchParams.set("code_challenge_method", "S256");
  }
  return { url: url.href, state, codeVerifier };
}
