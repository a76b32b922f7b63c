/**
 * Okta (OpenID Connect, configured by discovery from its issuer).
 *
 * Checked 2026-11-23 against https://developer.okta.com/docs/concepts/auth-servers/,
 * https://developer.okta.com/docs/guides/implement-grant-type/authcode/main/,
 * https://developer.okta.com/docs/guides/implement-grant-type/authcodepkce/main/,
 * https://developer.okta.com/docs/concepts/oauth-claims/ and
 * https://developer.okta.com/docs/guides/submit-app-prereq/main/ (all read as
 * their source in https://github.com/okta/okta-developer-docs): the issuer
 * is the org authorization server, `https://{yourOktaDomain}`, or a custom
 * one, `https://{yourOktaDomain}/oauth2/{authorizationServerId}` (`default`
 * or an id like `aus9o8wzkhckw9TLa0h7z`), without a trailing slash, and its
 * discovery document is `{issuer}/.well-known/openid-configuration`, which
 * gives the endpoints, JWKS and ID-token algorithms; scopes
 * `openid profile email`; the web-app guide's token request authenticates
 * with HTTP Basic (used); PKCE `S256` (the only method Okta's guides use).
 * Email: the `email` scope carries `email` and `email_verified`; the email
 * is used only when `email_verified` is `true`. Okta tells integrations
 * published to its catalogue (one app, many customer orgs) not to rely on
 * `email_verified`, since each org's admins control it: this provider
 * trusts the one org its `issuer` names, so configure only an org whose
 * admins you trust. A custom URL domain as issuer is accepted as is.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
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
export const okta: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "okta",
  name: "Okta",
  scope: "openid profile email",
  refreshTokenScope: "offline_access",
  responseType: "code",
  options: /* @__PURE__ */ Object.freeze(["issuer"] as const),
  configure: configureOkta,
  profile: oktaProfile,
  verifiesEmail: true,
}, oidcKit);
