/**
 * The OpenID Connect feature: discovery, JWKS and ID-token validation for
 * a custom provider with an issuer (the built-in OpenID Connect providers
 * bring the same code with their definitions).
 *
 * @module
 */

import type { AuthFeature } from "../config/feature.ts";
import { oidcKit } from "../oauth/oidc/kit.ts";
import { defineFeature } from "./feature.ts";

/**
 * OpenID Connect for custom providers: list it in `features` to pass
 * `createAuth` of `core.ts` a provider with an `issuer` (discovered
 * endpoints, ID tokens checked against the issuer's keys). Built-in
 * OpenID Connect providers (`google`, `okta`, ...) need no feature.
 *
 * @example
 * ```ts
 * import { createAuth, oidc } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [{
 *     id: "corp",
 *     name: "Corp",
 *     issuer: "https://id.corp.example",
 *     clientId: "my-client-id",
 *     clientSecret: "my-client-secret",
 *   }],
 *   features: [oidc],
 * });
 * ```
 */
export const oidc: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "oidc",
  // No config key: the feature only brings the code, so there is nothing to resolve.
  resolve: () => ({}),
  hooks: {},
  routes: [],
  oidc: oidcKit,
});
