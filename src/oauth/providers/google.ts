/**
 * Google (OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://developers.google.com/identity/openid-connect/openid-connect and
 * https://developers.google.com/identity/openid-connect/reference: issuer
 * `https://accounts.google.com`; the endpoints and JWKS below are those of
 * the discovery document, so no discovery call is needed; ID tokens are
 * `RS256`; client credentials by HTTP Basic or body (Basic used); PKCE
 * `S256` supported. Email: the `email_verified` claim is documented; the
 * email is used only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

/**
 * Maps Google's ID-token claims merged with user info: `sub`, `name`,
 * `picture`, and `email` only when `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { googleProfile } from "./google.ts";
 *
 * googleProfile({ sub: "110169484474386276334", email: "ada@gmail.com", email_verified: true, name: "Ada" });
 * // { sub: "110169484474386276334", name: "Ada", email: "ada@gmail.com" }
 * ```
 */
export function googleProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Google", { requireVerified: true });
}

/**
 * The built-in Google provider (OpenID Connect): scopes
 * `openid email profile`, client authentication by HTTP Basic. Credentials
 * come from `GOOGLE_CLIENT_ID` / `GOOGLE_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { google } from "@service-stack/auth";
 *
 * console.log(google.issuer); // "https://accounts.google.com"
 * ```
 */
export const google: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "google",
  name: "Google",
  issuer: "https://accounts.google.com",
  authorizeURL: "https://accounts.google.com/o/oauth2/v2/auth",
  accessToken: "https://oauth2.googleapis.com/token",
  userInfo: "https://openidconnect.googleapis.com/v1/userinfo",
  jwksURI: "https://www.googleapis.com/oauth2/v3/certs",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
  scope: "openid email profile",
  revocationURL: "https://oauth2.googleapis.com/revoke",
  // Linked accounts: a refresh token needs offline access; Google sends one again only on consent.
  refreshTokenParams: /* @__PURE__ */ Object.freeze({ access_type: "offline" }),
  firstLinkParams: /* @__PURE__ */ Object.freeze({ prompt: "consent" }),
  responseType: "code",
  profile: googleProfile,
  verifiesEmail: true,
}, oidcKit);
