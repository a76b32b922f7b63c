/**
 * Kakao Login (OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://developers.kakao.com/docs/latest/en/kakaologin/rest-api and
 * https://developers.kakao.com/docs/latest/en/kakaologin/utilize#oidc:
 * issuer `https://kauth.kakao.com`, `RS256` ID tokens, the app key and
 * client secret as form parameters, OpenID Connect user info at
 * `https://kapi.kakao.com/v1/oidc/userinfo` (`sub`, `nickname`, `picture`,
 * `email`, `email_verified`). The email needs the `account_email` consent
 * item (a business app). PKCE `S256` supported. Email: the email is used
 * only when `email_verified` is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

/**
 * Maps Kakao's claims: `sub`, `name` = `nickname`, `picture`, and `email`
 * only when `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { kakaoProfile } from "./kakao.ts";
 *
 * kakaoProfile({ sub: "1234567890", nickname: "Ryan", email: "ryan@kakao.com", email_verified: true });
 * // { sub: "1234567890", name: "Ryan", email: "ryan@kakao.com" }
 * ```
 */
export function kakaoProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Kakao", { requireVerified: true });
}

/**
 * The built-in Kakao provider (OpenID Connect): scopes
 * `openid profile_nickname profile_image account_email`, credentials in the
 * body. Credentials come from `KAKAO_CLIENT_ID` (the REST API key) /
 * `KAKAO_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { kakao } from "@service-stack/auth";
 *
 * console.log(kakao.userInfo); // "https://kapi.kakao.com/v1/oidc/userinfo"
 * ```
 */
export const kakao: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "kakao",
  name: "Kakao",
  issuer: "https://kauth.kakao.com",
  authorizeURL: "https://kauth.kakao.com/oauth/authorize",
  accessToken: "https://kauth.kakao.com/oauth/token",
  userInfo: "https://kapi.kakao.com/v1/oidc/userinfo",
  jwksURI: "https://kauth.kakao.com/.well-known/jwks.json",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
  scope: "openid profile_nickname profile_image account_email",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  profile: kakaoProfile,
  verifiesEmail: true,
}, oidcKit);
