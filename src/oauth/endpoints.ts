/**
 * A resolved provider's endpoints at sign-in: whether it runs OpenID
 * Connect, whether discovery must complete it first, the endpoint a step
 * needs (failing closed when unknown), and the provider completed by its
 * discovered metadata. Apart from the resolution at start, since these run
 * per sign-in.
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { defined } from "./_defined.ts";
import type { ResolvedProvider } from "./resolved_provider.ts";
import type { ProviderEndpoints } from "./types.ts";

/**
 * Whether a provider runs OpenID Connect: its scope contains `openid`.
 *
 * @example
 * ```ts
 * import { isOpenIDConnect } from "./endpoints.ts";
 *
 * isOpenIDConnect({ scope: "openid email" }); // true
 * ```
 */
export function isOpenIDConnect(provider: { readonly scope: string }): boolean {
  return provider.scope.split(/\s+/).includes("openid");
}

/**
 * Whether a provider's configuration must be completed by discovery before
 * the flow can run: an `issuer` is set and the authorization or token
 * endpoint is missing, or (OpenID Connect) the JWKS URL is.
 *
 * @example
 * ```ts
 * import { needsDiscovery } from "./endpoints.ts";
 *
 * needsDiscovery({ issuer: "https://dev-1.okta.com", scope: "openid" }); // true
 * ```
 */
export function needsDiscovery(
  provider: Pick<ResolvedProvider, "issuer" | "authorizeURL" | "accessToken" | "jwksURI" | "scope">,
): boolean {
  if (provider.issuer === undefined) return false;
  return provider.authorizeURL === undefined || provider.accessToken === undefined ||
    (isOpenIDConnect(provider) && provider.jwksURI === undefined);
}

/**
 * A provider endpoint the flow needs, or a 500 `AuthError` when it is not
 * known (an issuer-only provider whose discovery has not run): the flow
 * fails closed rather than guessing a URL.
 *
 * @example
 * ```ts
 * import { requireEndpoint } from "./endpoints.ts";
 *
 * requireEndpoint({ id: "github", accessToken: "https://github.com/login/oauth/access_token" }, "accessToken");
 * ```
 */
export function requireEndpoint(
  provider: Pick<ResolvedProvider, "id" | "authorizeURL" | "accessToken" | "userInfo">,
  key: "authorizeURL" | "accessToken" | "userInfo",
): string {
  const url = provider[key];
  if (url === undefined) {
    throw new AuthError(
      "server_error",
      `The provider's ${key} is not known; expected it configured or discovered from its issuer.`,
      { status: 500 },
    );
  }
  return url;
}

/** The metadata members that complete a provider (see {@link withMetadata}). */
export interface DiscoveredMetadata {
  /** The authorization endpoint. */
  readonly authorization_endpoint: string;
  /** The token endpoint. */
  readonly token_endpoint: string;
  /** The user-info endpoint, when the provider has one. */
  readonly userinfo_endpoint?: string;
  /** The JWKS URL. */
  readonly jwks_uri?: string;
}

/**
 * The provider's endpoints as discovery found them, for a profile mapper's
 * `discovered` (configured endpoints still win there).
 *
 * @example
 * ```ts
 * import { discoveredEndpoints } from "./endpoints.ts";
 *
 * discoveredEndpoints({
 *   authorization_endpoint: "https://id.example/authorize",
 *   token_endpoint: "https://id.example/token",
 * }).accessToken; // "https://id.example/token"
 * ```
 */
export function discoveredEndpoints(metadata: DiscoveredMetadata): ProviderEndpoints {
  return Object.freeze({
    authorizeURL: metadata.authorization_endpoint,
    accessToken: metadata.token_endpoint,
    ...defined({ userInfo: metadata.userinfo_endpoint }),
  });
}

/**
 * The provider completed by its discovered metadata: every endpoint and the
 * JWKS URL it does not configure itself are taken from the metadata;
 * configured ones win. Without metadata the provider is returned as is.
 *
 * @example
 * ```ts ignore
 * import { withMetadata } from "./endpoints.ts";
 *
 * const complete = withMetadata(provider, await discovery.get(provider.issuer));
 * complete.accessToken; // the configured token endpoint, else the discovered one
 * ```
 */
export function withMetadata(
  provider: ResolvedProvider,
  metadata: DiscoveredMetadata | undefined,
): ResolvedProvider {
  if (metadata === undefined) return provider;
  return Object.freeze({
    ...provider,
    authorizeURL: provider.authorizeURL ?? metadata.authorization_endpoint,
    accessToken: provider.accessToken ?? metadata.token_endpoint,
    ...defined({
      userInfo: provider.userInfo ?? metadata.userinfo_endpoint,
      jwksURI: provider.jwksURI ?? metadata.jwks_uri,
    }),
  });
}
