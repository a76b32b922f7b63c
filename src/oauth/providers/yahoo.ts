/**
 * Yahoo (OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://developer.yahoo.com/oauth2/guide/openid_connect/ and its
 * discovery document: issuer `https://api.login.yahoo.com`, authorization
 * at `/oauth2/request_auth`, token at `/oauth2/get_token` (HTTP Basic),
 * user info at `/openid/v1/userinfo`, JWKS at `/openid/v1/certs`, `ES256`
 * ID tokens. PKCE: not documented (extra parameters are ignored). Email:
 * `email_verified` is a documented claim; the email is used only when it
 * is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

/**
 * Maps Yahoo's claims: `sub`, `name`, `picture`, and `email` only when
 * `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { yahooProfile } from "./yahoo.ts";
 *
 * yahooProfile({ sub: "FSVIDUW3D7FSVIDUW3D72F2F", name: "Jane Doe", email: "janedoe@example.com", email_verified: true });
 * // { sub: "FSVIDUW3D7FSVIDUW3D72F2F", name: "Jane Doe", email: "janedoe@example.com" }
 * ```
 */
export function yahooProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Yahoo", { requireVerified: true });
}

/**
 * The built-in Yahoo provider (OpenID Connect): scopes
 * `openid profile email`, HTTP Basic. Credentials come from
 * `YAHOO_CLIENT_ID` / `YAHOO_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { yahoo } from "@service-stack/auth";
 *
 * console.log(yahoo.accessToken); // "https://api.login.yahoo.com/oauth2/get_token"
 * ```
 */
export const yahoo: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "yahoo",
  name: "Yahoo",
  issuer: "https://api.login.yahoo.com",
  authorizeURL: "https://api.login.yahoo.com/oauth2/request_auth",
  accessToken: "https://api.login.yahoo.com/oauth2/get_token",
  userInfo: "https://api.login.yahoo.com/openid/v1/userinfo",
  jwksURI: "https://api.login.yahoo.com/openid/v1/certs",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["ES256"]),
  scope: "openid profile email",
  responseType: "code",
  profile: yahooProfile,
  verifiesEmail: true,
}, oidcKit);
