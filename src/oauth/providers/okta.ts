/**
 * Okta (OpenID Connect, configured by discovery from its issuer).
 *
 * Not re-checked in the 2026-11-23 review (no time left for it); the facts
 * below are still from memory. Documentation to check them against:
 * https://developer.okta.com/docs/api/openapi/okta-oauth/guides/overview/ and
 * https://developer.okta.com/docs/concepts/auth-servers/:
 * The issuer is the org (`https://dev-1.okta.com`) or a custom
 * authorization server (`https://dev-1.okta.com/oauth2/default`), no
 * trailing slash.
 * Endpoints, JWKS and ID-token algorithms come from
 * `{issuer}/.well-known/openid-configuration`; scopes
 * `openid profile email`; client credentials by HTTP Basic; PKCE `S256`
 * supported. Email: `email_verified` is a standard claim of the
 * `email` scope; the email is used only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { oidcUser } from "../profile.ts";
import { canonicalIssuer } from "./_issuer.ts";

function configureOkta(options: BuiltInOptionValues): BuiltInSettings {
  if (options.issuer === undefined) return {};
  return {
    issuer: canonicalIssuer(options.issuer, {
      id: "okta",
      trailingSlash: false,
      example: "https://dev-1.okta.com/oauth2/default",
      pattern: /^https?:\/\/[^/]+(\/oauth2\/[A-Za-z0-9]+)?$/,
    }),
  };
}

/**
 * Maps Okta's claims: `sub`, `name`, `picture`, and `email` only when
 * `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { oktaProfile } from "./okta.ts";
 *
 * oktaProfile({ sub: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com", email_verified: true });
 * // { sub: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com" }
 * ```
 */
export function oktaProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Okta", { requireVerified: true });
}

/**
 * The built-in Okta provider (OpenID Connect): needs `issuer` (or
 * `OKTA_ISSUER`), e.g. `https://dev-1.okta.com/oauth2/default`; everything else comes from
 * discovery. Credentials come from `OKTA_CLIENT_ID` /
 * `OKTA_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { okta } from "@service-stack/auth";
 *
 * console.log(okta.options); // ["issuer"]
 * // createAuth({ oauth: [{ id: "okta", issuer: "https://dev-1.okta.com/oauth2/default" }] })
 * ```
 */
export const okta: BuiltInProvider = Object.freeze({
  id: "okta",
  name: "Okta",
  scope: "openid profile email",
  responseType: "code",
  options: Object.freeze(["issuer"] as const),
  configure: configureOkta,
  profile: oktaProfile,
});
