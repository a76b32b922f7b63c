/**
 * OpenID Connect per instance: the discovery cache and the JWKS cache, made
 * once at `createAuth` (nothing is fetched then: both fetch on first use),
 * and the synchronous checks of the providers' issuers.
 *
 * @module
 */

import { checkIssuer, createDiscoveryCache, type DiscoveryCache } from "../oauth/oidc/discovery.ts";
import { createJwksCache, type JwksCache } from "../oauth/oidc/jwks.ts";
import { isOpenIDConnect, type ResolvedProvider } from "../oauth/resolve.ts";
import { fail } from "./_check.ts";

/** The OpenID Connect state of one instance. */
export interface OIDCSettings {
  /** Provider metadata per issuer, fetched on first use and kept for an hour. */
  readonly discovery: DiscoveryCache;
  /** Key sets per `jwks_uri`, shared by every sign-in of the instance. */
  readonly jwks: JwksCache;
  /** Whether some provider answers with `form_post` (turns on `POST /callback/:oauth`). */
  readonly formPost: boolean;
}

/**
 * Checks the providers' OpenID Connect settings and makes the instance's
 * caches. Every provider with an issuer must name a valid one; a provider
 * whose scope asks for `openid` must have an issuer, since its ID tokens are
 * checked against it. Throws a `TypeError` naming the fix.
 */
export function resolveOIDC(
  providers: ReadonlyMap<string, ResolvedProvider>,
  options: { fetch: typeof fetch; clock: () => number },
): OIDCSettings {
  let formPost = false;
  for (const provider of providers.values()) {
    if (provider.issuer !== undefined) {
      try {
        checkIssuer(provider.issuer);
      } catch {
        fail(
          `provider "${provider.id}" issuer is not an https URL without query or fragment; expected e.g. "https://accounts.example.com" (http only for localhost).`,
        );
      }
    } else if (isOpenIDConnect(provider)) {
      fail(
        `provider "${provider.id}" asks for the openid scope but has no issuer; expected issuer: "https://id.example.com" (its ID tokens are checked against it), or a scope without openid.`,
      );
    }
    if (provider.responseMode === "form_post") formPost = true;
  }
  const cacheOptions = { fetch: options.fetch, now: options.clock };
  return Object.freeze({
    discovery: createDiscoveryCache(cacheOptions),
    jwks: createJwksCache(cacheOptions),
    formPost,
  });
}
