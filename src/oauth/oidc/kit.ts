/**
 * The OpenID Connect code as one value: issuer checks, the discovery and
 * JWKS caches and the ID-token step of a callback. An instance gets it from
 * the `oidc` feature or from a built-in OpenID Connect provider that brings
 * it with its definition, so that a bundle of a plain OAuth 2.0 app (GitHub)
 * holds none of it.
 *
 * @module
 */

import { AuthError } from "../../errors.ts";
import { singleParam } from "../../http.ts";
import { providerError } from "../provider_fetch.ts";
import type { ResolvedProvider } from "../resolved_provider.ts";
import { clientSecretValue } from "../client_secret.ts";
import type { OAuthTokens } from "../types.ts";
import { fetchUserInfo } from "../user_info.ts";
import { profileClaims } from "./claims.ts";
import {
  checkIssuer,
  createDiscoveryCache,
  type DiscoveryCache,
  type ProviderMetadata,
} from "./discovery.ts";
import {
  checkUserInfoSubject,
  idTokenAlgorithms,
  type IdTokenClaims,
  validateIdToken,
} from "./id_token.ts";
import { createJwksCache, type JwksCache } from "./jwks.ts";

/** What the ID-token step of a callback gets. */
export interface IdTokenInput {
  /** The token response. */
  readonly tokens: OAuthTokens;
  /** The provider's discovered metadata, when it was discovered. */
  readonly metadata: ProviderMetadata | undefined;
  /** The nonce the ID token must carry, when one was sent. */
  readonly nonce: string | undefined;
  /** The authorization response parameters (for the `iss` of a multi-tenant provider). */
  readonly params: URLSearchParams;
  /** The instance's fetch with the provider timeout, for the user-info call. */
  readonly fetch: typeof fetch;
}

/** The OpenID Connect state of one instance. */
export interface OIDCInstance {
  /** Provider metadata per issuer, fetched on first use and kept for an hour. */
  readonly discovery: DiscoveryCache;
  /** Key sets per `jwks_uri`, shared by every sign-in of the instance. */
  readonly jwks: JwksCache;
  /**
   * Validates the token response's ID token, fetches and matches the user
   * info when the provider has an endpoint for it, and returns the profile
   * claims.
   */
  readonly claims: (
    provider: ResolvedProvider,
    input: IdTokenInput,
  ) => Promise<Record<string, unknown>>;
}

/** The OpenID Connect code an instance needs for a provider with an issuer. */
export interface OIDCKit {
  /** Returns the issuer when it is an https URL without query or fragment; throws a `TypeError` otherwise. */
  readonly checkIssuer: (issuer: string) => string;
  /** Makes one instance's caches (nothing is fetched until first use). */
  readonly instance: (options: { fetch: typeof fetch; now: () => number }) => OIDCInstance;
}

/**
 * Validates the ID token (OpenID Connect Core 3.1.3.7): the allowed
 * algorithms are the provider's `idTokenAlgorithms`, else those its metadata
 * lists (RS256 without metadata); keys come from the instance's JWKS cache;
 * the issuer is the metadata's (equal to the configured one) or, for a
 * multi-tenant provider, the one `issuerFor` computes from the verified
 * claims.
 */
async function validatedIdToken(
  provider: ResolvedProvider,
  input: IdTokenInput,
  instance: { jwks: JwksCache; now: () => number },
): Promise<IdTokenClaims> {
  const { tokens, metadata, nonce } = input;
  if (tokens.id_token === undefined) {
    throw providerError(
      "The provider's token response has no id_token; expected one for OpenID Connect.",
    );
  }
  const jwksURI = provider.jwksURI;
  const issuer = provider.issuerFor ?? metadata?.issuer ?? provider.issuer;
  if (jwksURI === undefined || issuer === undefined) {
    throw new AuthError(
      "server_error",
      "The provider's issuer or JWKS is not known; expected them configured or discovered.",
      { status: 500 },
    );
  }
  const algorithms = provider.idTokenAlgorithms ?? idTokenAlgorithms(metadata);
  // HS256 is keyed with the client secret (OpenID Connect Core 10.1), so only then is it needed.
  const clientSecret = algorithms.includes("HS256") && provider.clientSecret !== undefined
    ? await clientSecretValue(provider.clientSecret)
    : undefined;
  return await validateIdToken(tokens.id_token, {
    issuer,
    clientId: provider.clientId,
    nonce,
    algorithms,
    keys: instance.jwks.get(jwksURI),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    now: instance.now,
  });
}

/**
 * For a provider whose issuer depends on the tenant (`issuerFor`), the RFC
 * 9207 `iss` parameter cannot be compared before the ID token is verified:
 * when present, it must name the issuer of the verified token.
 */
function checkTenantIss(params: URLSearchParams, claims: IdTokenClaims): void {
  const iss = singleParam(params, "iss");
  if (iss !== null && iss !== claims.iss) {
    throw new AuthError(
      "invalid_request",
      "The iss parameter does not match the ID token's issuer; expected the same issuer.",
    );
  }
}

/**
 * The OpenID Connect code. Pass it to `defineProvider` for a built-in that
 * uses OpenID Connect; the `oidc` feature carries it for custom providers.
 *
 * @example
 * ```ts
 * import { oidcKit } from "./kit.ts";
 *
 * const instance = oidcKit.instance({ fetch, now: Date.now });
 * oidcKit.checkIssuer("https://accounts.google.com"); // "https://accounts.google.com"
 * console.log(typeof instance.claims); // "function"
 * ```
 */
export const oidcKit: OIDCKit = /* @__PURE__ */ Object.freeze({
  checkIssuer,
  instance(options: { fetch: typeof fetch; now: () => number }): OIDCInstance {
    const jwks = createJwksCache(options);
    return Object.freeze({
      discovery: createDiscoveryCache(options),
      jwks,
      async claims(provider: ResolvedProvider, input: IdTokenInput) {
        const claims = await validatedIdToken(provider, input, { jwks, now: options.now });
        if (provider.issuerFor !== undefined) checkTenantIss(input.params, claims);
        let userInfo: Record<string, unknown> | undefined;
        if (provider.userInfo !== undefined) {
          userInfo = await fetchUserInfo(input.fetch, provider, input.tokens);
          checkUserInfoSubject(userInfo, claims);
        }
        return profileClaims(claims, userInfo);
      },
    });
  },
});
