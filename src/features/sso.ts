/**
 * The single sign-on feature: each customer organization signs in through
 * its own OpenID provider, chosen at request time (`sso` in the config).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { AuthFeature } from "../config/feature.ts";
import { route } from "../router.ts";
import { resolveSso } from "../config/sso.ts";
import { ssoCallbackRoute, ssoSignInRoute } from "../routes/sso.ts";
import { defineFeature } from "./feature.ts";

function hasSso(ctx: AuthContext): boolean {
  return ctx.sso !== undefined;
}

/**
 * Enterprise single sign-on (OpenID Connect per organization): list it in
 * `features` to use `sso` with `createAuth` of `core.ts`.
 *
 * @example
 * ```ts
 * import { createAuth, sso } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [],
 *   features: [sso],
 *   sso: {
 *     resolve: ({ domain, organization }) =>
 *       domain === "example.com" || organization === "example"
 *         ? {
 *           id: "example",
 *           issuer: "https://example.okta.com",
 *           clientId: "client-id",
 *           clientSecret: "client-secret",
 *           domains: ["example.com"],
 *         }
 *         : null,
 *   },
 * });
 * ```
 */
export const sso: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "sso",
  resolve: resolveSso,
  hooks: {},
  routes: [
    /* @__PURE__ */ route("POST", "signIn/sso", ssoSignInRoute, { enabled: hasSso }),
    /* @__PURE__ */ route("GET", "callback/sso", ssoCallbackRoute, { enabled: hasSso }),
    /* @__PURE__ */ route("POST", "callback/sso", ssoCallbackRoute, {
      enabled: hasSso,
      anyOrigin: true,
    }),
  ],
});
