/**
 * `sso`: validated at `createAuth`, with the feature's own OpenID Connect
 * caches (discovery documents and key sets for at most 1,000 issuers, least
 * recently used dropped first; nothing fetched until first use).
 *
 * @module
 */

import { fail, knownKeys } from "./_check.ts";
import type { FeatureInputs } from "./feature.ts";
import { isRecord } from "../is_record.ts";
import { oidcKit } from "../oauth/oidc/kit.ts";
import type { SsoConfig, SsoSettings } from "../sso/types.ts";

/** Issuers whose discovery documents and key sets an instance keeps at most. */
export const MAX_SSO_ISSUERS = 1000;

/** Validates `sso` and makes the instance's per-issuer caches. */
export function resolveSso(value: unknown, inputs: FeatureInputs): SsoSettings {
  if (!isRecord(value)) {
    fail(
      "sso is not an object; expected { resolve({ email, domain } | { organization }, request) }.",
    );
  }
  knownKeys(value, "sso", ["resolve"]);
  if (typeof value.resolve !== "function") {
    fail(
      "sso.resolve is not a function; expected resolve({ email, domain } | { organization }, request).",
    );
  }
  const config = inputs.config;
  const oauth = Array.isArray(config.oauth) ? config.oauth : [];
  if (oauth.some((entry) => entry === "sso" || (isRecord(entry) && entry.id === "sso"))) {
    fail(
      '"sso" is reserved for single sign-on (/signIn/sso, /callback/sso); choose another provider id.',
    );
  }
  const fetchFn = typeof config.fetch === "function"
    ? config.fetch as typeof fetch
    : (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init);
  const now = typeof config.clock === "function" ? config.clock as () => number : Date.now;
  return Object.freeze({
    sso: Object.freeze({
      resolve: value.resolve as SsoConfig["resolve"],
      oidc: oidcKit.instance({ fetch: fetchFn, now, maxIssuers: MAX_SSO_ISSUERS }),
      providers: new Map(),
    }),
  });
}
