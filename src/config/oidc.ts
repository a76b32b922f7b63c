/**
 * OpenID Connect per instance: the discovery cache, the JWKS cache and the
 * ID-token step, made once at `createAuth` (nothing is fetched then: both
 * caches fetch on first use), and the synchronous checks of the providers'
 * issuers. The code comes from an OIDC kit (`oauth/oidc/kit.ts`), which an
 * instance has only when its entry, its `oidc` feature or one of its
 * built-in providers brings it: without one, no provider may have an issuer.
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import type { OIDCInstance, OIDCKit } from "../oauth/oidc/kit.ts";
import { isOpenIDConnect } from "../oauth/endpoints.ts";
import type { ResolvedProvider } from "../oauth/resolved_provider.ts";
import { fail } from "./_check.ts";

export type { OIDCKit } from "../oauth/oidc/kit.ts";

/** The OpenID Connect state of one instance. */
export interface OIDCSettings extends OIDCInstance {
  /** Whether some provider answers with `form_post` (turns on `POST /callback/:oauth`). */
  readonly formPost: boolean;
}

// Kept apart so that no message reads as an import statement to the import checks.
const CORE_ENTRY = '"@service-stack/auth/core"';

/** Stands in for the OpenID Connect code an instance lacks: createAuth let no provider need it. */
function notIncluded(): never {
  throw new AuthError(
    "server_error",
    "OpenID Connect is not included in this instance; expected the oidc feature.",
    { status: 500 },
  );
}

const WITHOUT_KIT: OIDCInstance = {
  discovery: { get: notIncluded },
  jwks: { get: notIncluded },
  claims: notIncluded,
};

/**
 * Checks the providers' OpenID Connect settings and makes the instance's
 * caches. Every provider with an issuer must name a valid one, and needs
 * `kit`; a provider whose scope asks for `openid` must have an issuer,
 * since its ID tokens are checked against it. Throws a `TypeError` naming
 * the fix.
 */
export function resolveOIDC(
  providers: ReadonlyMap<string, ResolvedProvider>,
  options: { fetch: typeof fetch; clock: () => number; kit: OIDCKit | undefined },
): OIDCSettings {
  const { kit } = options;
  let formPost = false;
  for (const provider of providers.values()) {
    if (provider.issuer !== undefined) {
      if (kit === undefined) {
        fail(
          `provider "${provider.id}" has an issuer, so it needs OpenID Connect, which createAuth of core.ts includes only on request; expected import { oidc } from ${CORE_ENTRY} and features: [oidc].`,
        );
      }
      try {
        kit.checkIssuer(provider.issuer);
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
  const instance = kit?.instance({ fetch: options.fetch, now: options.clock }) ?? WITHOUT_KIT;
  return Object.freeze({ ...instance, formPost });
}
