/**
 * Auth0 (OpenID Connect, configured by discovery from its issuer).
 *
 * Not re-checked in the 2026-11-23 review (no time left for it); the facts
 * below are still from memory. Documentation to check them against:
 * https://auth0.com/docs/get-started/applications/configure-applications-with-oidc-discovery
 * and https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure:
 * The issuer is the tenant domain with a trailing slash
 * (`https://example.us.auth0.com/`), which is added when missing.
 * Endpoints, JWKS and ID-token algorithms come from
 * `{issuer}/.well-known/openid-configuration`; scopes
 * `openid profile email`; client credentials by HTTP Basic; PKCE `S256`
 * supported. Email: `email_verified` is a standard claim (false for
 * unverified database and some social connections); the email is used
 * only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { oidcUser } from "../profile.ts";
import { canonicalIssuer } from "./_issuer.ts";

function configureAuth0(options: BuiltInOptionValues): BuiltInSettings {
  if (options.issuer === undefined) return {};
  return {
    issuer: canonicalIssuer(options.issuer, {
      id: "auth0",
      trailingSlash: true,
      example: "https://example.us.auth0.com/",
      pattern: /^https?:\/\/[^/]+$/,
    }),
  };
}

/**
 * Maps Auth0's claims: `sub`, `name`, `picture`, and `email` only when
 * `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { auth0Profile } from "./auth0.ts";
 *
 * auth0Profile({ sub: "auth0|507f1f77bcf86cd799439020", name: "Jane Doe", email: "janedoe@example.com", email_verified: true, picture: "https://s.gravatar.com/avatar/1.png" });
 * // { sub: "auth0|507f1f77bcf86cd799439020", name: "Jane Doe", email: "janedoe@example.com", image: "https://s.gravatar.com/avatar/1.png" }
 * ```
 */
export function auth0Profile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Auth0", { requireVerified: true });
}

/**
 * The built-in Auth0 provider (OpenID Connect): needs `issuer` (or
 * `AUTH0_ISSUER`), e.g. `https://example.us.auth0.com/`; everything else comes from
 * discovery. Credentials come from `AUTH0_CLIENT_ID` /
 * `AUTH0_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { auth0 } from "@service-stack/auth";
 *
 * console.log(auth0.options); // ["issuer"]
 * // createAuth({ oauth: [{ id: "auth0", issuer: "https://example.us.auth0.com/" }] })
 * ```
 */
export const auth0: BuiltInProvider = Object.freeze({
  id: "auth0",
  name: "Auth0",
  scope: "openid profile email",
  responseType: "code",
  options: Object.freeze(["issuer"] as const),
  configure: configureAuth0,
  profile: auth0Profile,
});
