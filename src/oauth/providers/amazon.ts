/**
 * Login with Amazon.
 *
 * Checked 2026-11-23 against
 * https://developer.amazon.com/docs/login-with-amazon/authorization-code-grant.html
 * and https://developer.amazon.com/docs/login-with-amazon/obtain-customer-profile.html:
 * authorization at `www.amazon.com/ap/oa`, token at
 * `api.amazon.com/auth/o2/token` with the client id and secret as form
 * parameters, PKCE `S256` supported, profile at
 * `api.amazon.com/user/profile` (`user_id`, `name`, `email`) with scope
 * `profile`. Email: the customer's account address, without a flag; used
 * as is.
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
 * amazonProfile({ user_id: "amznl.account.K2LI23KL2LK2", email: "mhashimoto-04@plaxo.com", name: "Mork Hashimoto" });
 * // { sub: "amznl.account.K2LI23KL2LK2", name: "Mork Hashimoto", email: "mhashimoto-04@plaxo.com" }
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
