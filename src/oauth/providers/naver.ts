/**
 * Naver Login.
 *
 * Checked 2026-11-23 against
 * https://developers.naver.com/docs/login/api/api.md and
 * https://developers.naver.com/docs/login/profile/profile.md: authorization
 * at `nid.naver.com/oauth2.0/authorize`, token at
 * `nid.naver.com/oauth2.0/token` with the client id and secret as form
 * parameters (`expires_in` comes as a string), profile at
 * `openapi.naver.com/v1/nid/me` wrapped as
 * `{ resultcode: "00", message: "success", response: { ... } }`. Naver has
 * no scope parameter (the items are chosen in the console) and no
 * documented PKCE (extra parameters are ignored). Email: the account's
 * contact address, confirmed by Naver when set, without a flag; used as is.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { fieldProfile } from "./_fields.ts";

/**
 * Maps `GET https://openapi.naver.com/v1/nid/me` to a `User` from its
 * `response` object: `sub` = `id`, `name` = `nickname` or else `name`,
 * `email`, `image` = `profile_image`.
 *
 * @throws {ProfileError} when `resultcode` is not `"00"` or there is no `response`.
 *
 * @example
 * ```ts
 * import { naverProfile } from "./naver.ts";
 *
 * naverProfile({ resultcode: "00", message: "success", response: { id: "32742776", nickname: "OpenAPI", email: "openapi@naver.com" } });
 * // { sub: "32742776", name: "OpenAPI", email: "openapi@naver.com" }
 * ```
 */
export const naverProfile: (raw: Record<string, unknown>) => User = /* @__PURE__ */ fieldProfile({
  provider: "Naver",
  wrapper: {
    key: "response",
    success: { key: "resultcode", equals: "00" },
    error:
      'The Naver user-info response is not a success; expected { resultcode: "00", response }.',
  },
  sub: ["id"],
  name: [["nickname"], ["name"]],
  email: { path: ["email"] },
  image: ["profile_image"],
});

/**
 * The built-in Naver provider: no scope parameter, client id and secret in
 * the body. Credentials come from `NAVER_CLIENT_ID` / `NAVER_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { naver } from "@service-stack/auth";
 *
 * console.log(naver.userInfo); // "https://openapi.naver.com/v1/nid/me"
 * ```
 */
export const naver: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "naver",
  name: "Naver",
  authorizeURL: "https://nid.naver.com/oauth2.0/authorize",
  accessToken: "https://nid.naver.com/oauth2.0/token",
  userInfo: "https://openapi.naver.com/v1/nid/me",
  scope: "",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  profile: naverProfile,
});
