/**
 * Login with Amazon.
 *
 * Checked 2026-11-23 against
 * https://developer.amazon.com/docs/login-with-amazon/customer-profile.html:
 * the `profile` scope gives `user_id`, `name` and `email` (the address the
 * customer registered with Amazon); the page names no verification flag and
 * does not say the address is verified, so that is unconfirmed and the
 * email is used as is. Not re-checked in that review: the authorization
 * (`www.amazon.com/ap/oa`) and token (`api.amazon.com/auth/o2/token`)
 * endpoints, client id and secret as form parameters, and PKCE `S256`
 * (https://developer.amazon.com/docs/login-with-amazon/authorization-code-grant.html).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { buildUser, checkEmail, profileObject, readSubject, readText } from "../profile.ts";

/**
 * Maps `GET https://api.amazon.com/user/profile` to a `User`: `sub` =
 * `user_id`, `name`, `email`. Amazon has no picture.
 *
 * @example
 * ```ts
 * import { amazonProfile } from "./amazon.ts";
 *
 * amazonProfile({ user_id: "amzn1.account.K2LI23KL2LK2", email: "mhashimoto-04@plaxo.com", name: "Mork Hashimoto" });
 * // { sub: "amzn1.account.K2LI23KL2LK2", name: "Mork Hashimoto", email: "mhashimoto-04@plaxo.com" }
 * ```
 */
export function amazonProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Amazon");
  return buildUser({
    sub: readSubject(object.user_id),
    name: readText(object.name),
    email: checkEmail(object.email),
  }, "Amazon");
}

/**
 * The built-in Amazon provider: scope `profile`, client id and secret in
 * the body. Credentials come from `AMAZON_CLIENT_ID` /
 * `AMAZON_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { amazon } from "@service-stack/auth";
 *
 * console.log(amazon.authorizeURL); // "https://www.amazon.com/ap/oa"
 * ```
 */
export const amazon: BuiltInProvider = Object.freeze({
  id: "amazon",
  name: "Amazon",
  authorizeURL: "https://www.amazon.com/ap/oa",
  accessToken: "https://api.amazon.com/auth/o2/token",
  userInfo: "https://api.amazon.com/user/profile",
  scope: "profile",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  profile: amazonProfile,
});
