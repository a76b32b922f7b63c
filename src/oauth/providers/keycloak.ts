/**
 * Keycloak (OpenID Connect, configured by discovery from its issuer).
 *
 * Checked 2026-11-23 against https://www.keycloak.org/securing-apps/oidc-layers,
 * the server administration guide's client chapters
 * (`docs/documentation/server_admin/topics/clients/oidc/` in
 * https://github.com/keycloak/keycloak: confidential client credentials,
 * advanced settings) and Keycloak's code in that repository: the issuer is
 * a realm, `https://{host}/realms/{realm}` (older versions served it under
 * `/auth/realms/{realm}`), no trailing slash, with discovery at
 * `{issuer}/.well-known/openid-configuration` and the endpoints under
 * `{issuer}/protocol/openid-connect/`; scopes `openid profile email`. The
 * default client authenticator, "Client ID and Secret", takes the
 * credentials from the form or an `Authorization: Basic` header (HTTP Basic
 * used). PKCE: applied whenever the client sends it; a client can be set to
 * require `S256` (or `plain`). Email: the built-in "email verified" mapper
 * of the `email` scope puts the user's Email verified setting into the
 * `email_verified` claim (`OIDCLoginProtocolFactory`); the email is used
 * only when it is `true`. That setting belongs to the user record, which
 * the realm's admins can edit, so trust only a realm whose admins you
 * trust.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
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
export const keycloak: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "keycloak",
  name: "Keycloak",
  scope: "openid profile email",
  responseType: "code",
  options: /* @__PURE__ */ Object.freeze(["issuer"] as const),
  configure: configureKeycloak,
  profile: keycloakProfile,
  verifiesEmail: true,
}, oidcKit);
