/**
 * Twitch (OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/: issuer
 * `https://id.twitch.tv/oauth2`, `RS256` ID tokens, client id and secret as
 * form parameters. The ID token and user info carry only `sub` and the
 * standard claims unless asked for with the `claims` parameter, so the
 * authorization request asks for `email`, `email_verified`, `picture` and
 * `preferred_username` in both (scope `user:read:email` grants the email).
 * PKCE: not documented (extra parameters are ignored). Email:
 * `email_verified` is documented; the email is used only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

const CLAIMS = { email: null, email_verified: null, picture: null, preferred_username: null };

/**
 * Maps Twitch's claims: `sub`, `name` = `preferred_username` (the display
 * name), `picture`, and `email` only when `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { twitchProfile } from "./twitch.ts";
 *
 * twitchProfile({ sub: "713936733", preferred_username: "Ada", email: "ada@example.com", email_verified: true });
 * // { sub: "713936733", name: "Ada", email: "ada@example.com" }
 * ```
 */
export function twitchProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Twitch", { requireVerified: true });
}

/**
 * The built-in Twitch provider (OpenID Connect): scopes
 * `openid user:read:email` and a `claims` request for the profile claims,
 * client credentials in the body. Credentials come from `TWITCH_CLIENT_ID`
 * / `TWITCH_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { twitch } from "@service-stack/auth";
 *
 * console.log(twitch.issuer); // "https://id.twitch.tv/oauth2"
 * ```
 */
export const twitch: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "twitch",
  name: "Twitch",
  issuer: "https://id.twitch.tv/oauth2",
  authorizeURL: "https://id.twitch.tv/oauth2/authorize",
  accessToken: "https://id.twitch.tv/oauth2/token",
  userInfo: "https://id.twitch.tv/oauth2/userinfo",
  jwksURI: "https://id.twitch.tv/oauth2/keys",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
  scope: "openid user:read:email",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  authorizationParams: /* @__PURE__ */ Object.freeze({
    claims: /* @__PURE__ */ JSON.stringify({ id_token: CLAIMS, userinfo: CLAIMS }),
  }),
  profile: twitchProfile,
  verifiesEmail: true,
}, oidcKit);
