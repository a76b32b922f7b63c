/**
 * LINE Login v2.1 (OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://developers.line.biz/en/docs/line-login/integrate-line-login/ and
 * https://developers.line.biz/en/docs/line-login/verify-id-token/: issuer
 * `https://access.line.me`, scopes `openid profile email`, channel id and
 * secret as form parameters, PKCE `S256` supported, user info (`sub`,
 * `name`, `picture`) at `https://api.line.me/oauth2/v2.1/userinfo`. ID
 * tokens of web login are signed `HS256` with the channel secret (the
 * discovery document lists only the `ES256` of the SDKs), so the provider
 * names `HS256`: the ID token's key is the client secret. The email is only
 * in the ID token (with the email permission); LINE has the user confirm it
 * when registering it and sends no flag, so it is used as is.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

/**
 * Maps LINE's claims: `sub` (the user id), `name` (display name),
 * `picture`, `email`.
 *
 * @example
 * ```ts
 * import { lineProfile } from "./line.ts";
 *
 * lineProfile({ sub: "U1234567890abcdef1234567890abcdef", name: "Taro Line", picture: "https://profile.line-scdn.net/abcdefghijklmn" });
 * // { sub: "U1234567890abcdef1234567890abcdef", name: "Taro Line", image: "https://profile.line-scdn.net/abcdefghijklmn" }
 * ```
 */
export function lineProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "LINE");
}

/**
 * The built-in LINE provider (OpenID Connect): scopes
 * `openid profile email`, channel credentials in the body, `HS256` ID
 * tokens keyed with the channel secret. Credentials come from
 * `LINE_CLIENT_ID` / `LINE_CLIENT_SECRET` (channel id and secret).
 *
 * @example
 * ```ts
 * import { line } from "@service-stack/auth";
 *
 * console.log(line.idTokenAlgorithms); // ["HS256"]
 * ```
 */
export const line: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "line",
  name: "LINE",
  issuer: "https://access.line.me",
  authorizeURL: "https://access.line.me/oauth2/v2.1/authorize",
  accessToken: "https://api.line.me/oauth2/v2.1/token",
  userInfo: "https://api.line.me/oauth2/v2.1/userinfo",
  jwksURI: "https://api.line.me/oauth2/v2.1/certs",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["HS256"]),
  scope: "openid profile email",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  profile: lineProfile,
}, oidcKit);
