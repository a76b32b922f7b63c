/**
 * Keycloak (OpenID Connect, configured by discovery from its issuer).
 *
 * Not re-checked in the 2026-11-23 review (no time left for it); the facts
 * below are still from memory. Documentation to check them against:
 * https://www.keycloak.org/securing-apps/oidc-layers:
 * The issuer is a realm, `https://{host}/realms/{realm}` (older
 * versions `/auth/realms/{realm}`), no trailing slash.
 * Endpoints, JWKS and ID-token algorithms come from
 * `{issuer}/.well-known/openid-configuration`; scopes
 * `openid profile email`; client credentials by HTTP Basic; PKCE `S256`
 * supported. Email: `email_verified` is mapped from the user's "Email
 * verified" setting; the email is used only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { oidcUser } from "../profile.ts";
import { canonicalIssuer } from "./_issuer.ts";

function configureKeycloak(options: BuiltInOptionValues): BuiltInSettings {
  if (options.issuer === undefined) return {};
  return {
    issuer: canonicalIssuer(options.issuer, {
      id: "keycloak",
      trailingSlash: false,
      example: "https://sso.example.com/realms/main",
      pattern: /^https?:\/\/[^/]+(\/[^/?#]+)*\/realms\/[^/?#]+$/,
    }),
  };
}

/**
 * Maps Keycloak's claims: `sub`, `name`, `picture`, and `email` only when
 * `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { keycloakProfile } from "./keycloak.ts";
 *
 * keycloakProfile({ sub: "f:1c5e4a3e:alice", preferred_username: "alice", email: "alice@example.com", email_verified: false });
 * // { sub: "f:1c5e4a3e:alice", name: "alice" }
 * ```
 */
export function keycloakProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Keycloak", { requireVerified: true });
}

/**
 * The built-in Keycloak provider (OpenID Connect): needs `issuer` (or
 * `KEYCLOAK_ISSUER`), e.g. `https://sso.example.com/realms/main`; everything else comes from
 * discovery. Credentials come from `KEYCLOAK_CLIENT_ID` /
 * `KEYCLOAK_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { keycloak } from "@service-stack/auth";
 *
 * console.log(keycloak.options); // ["issuer"]
 * // createAuth({ oauth: [{ id: "keycloak", issuer: "https://sso.example.com/realms/main" }] })
 * ```
 */
export const keycloak: BuiltInProvider = Object.freeze({
  id: "keycloak",
  name: "Keycloak",
  scope: "openid profile email",
  responseType: "code",
  options: Object.freeze(["issuer"] as const),
  configure: configureKeycloak,
  profile: keycloakProfile,
});
