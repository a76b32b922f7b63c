/**
 * Auth0 (OpenID Connect, configured by discovery from its issuer).
 *
 * Checked 2026-11-23 against
 * https://auth0.com/docs/get-started/applications/configure-applications-with-oidc-discovery
 * and https://auth0.com/docs/manage-users/user-accounts/user-profiles/verified-email-usage:
 * the discovery document is `https://{yourDomain}/.well-known/openid-configuration`
 * and its `issuer` is the tenant domain with a trailing slash
 * (`https://{yourDomain}.us.auth0.com/`), which is added when missing; the
 * endpoints, JWKS and ID-token algorithms come from it; scopes
 * `openid profile email`; `token_endpoint_auth_methods_supported` lists
 * `client_secret_basic` (used), `client_secret_post` and `private_key_jwt`;
 * `code_challenge_methods_supported` lists `S256`. Email: `email_verified`
 * is a documented claim that says whether the user verified the address
 * (for a federated connection, as the upstream provider reports it, and it
 * records one verification, not continued ownership); the email is used
 * only when it is `true`. The sample's auth-method and PKCE lists were
 * read in a copy of the same page (Auth0's Mintlify build of it), the
 * stored auth0.com copy showing only its start. A custom domain as issuer
 * is accepted as is.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
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
export const auth0: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "auth0",
  name: "Auth0",
  scope: "openid profile email",
  refreshTokenScope: "offline_access",
  responseType: "code",
  options: /* @__PURE__ */ Object.freeze(["issuer"] as const),
  configure: configureAuth0,
  profile: auth0Profile,
  verifiesEmail: true,
}, oidcKit);
