/**
 * Login with Amazon.
 *
 * Checked 2026-11-23 against
 * https://developer.amazon.com/docs/login-with-amazon/authorization-code-grant.html,
 * https://developer.amazon.com/docs/login-with-amazon/customer-profile.html and
 * https://developer.amazon.com/en-US/docs/alexa/account-linking/your-app-to-alexa-step5.html:
 * authorization at `www.amazon.com/ap/oa` with `code_challenge` and
 * `code_challenge_method` (`S256` recommended, PKCE required of
 * browser-based apps); token at `api.amazon.com/auth/o2/token` with the
 * client id and secret as form parameters (the grant page also allows an
 * `Authorization: Basic` header; the form is what Amazon's token example
 * sends, so it is used) and `code_verifier`; the `profile` scope gives
 * `GET api.amazon.com/user/profile` as `{ user_id, name, email }`, the email
 * being the address the customer registered with Amazon.
 *
 * Email: no Amazon page found says that address is verified. The profile
 * has no flag, and the only Amazon help text found on the subject (an
 * indexed excerpt, the page itself not stored) says Amazon *may* ask a new
 * customer to verify the address, which is not a guarantee. The rule for
 * unverified emails drops an address only when the provider says it is
 * unverified, which Amazon never does, so the email is mapped as Amazon
 * returns it; do not link accounts on it (nOAuth, pre-account takeover).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { buildUser, checkEmail, profileObject, readSubject, readText } from "../profile.ts";

/**
 * Maps `GET https://api.amazon.com/user/profile` to a `User`: `sub` =
 * `user_id`, `name`, `email` (Amazon gives no verification flag); Amazon has no picture.
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
 * the body; the email carries no verification flag. Credentials come from
 * `AMAZON_CLIENT_ID` / `AMAZON_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { amazon } from "@service-stack/auth";
 *
 * console.log(amazon.authorizeURL); // "https://www.amazon.com/ap/oa"
 * ```
 */
export const amazon: BuiltInProvider = /* @__PURE__ */ defineProvider({
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
