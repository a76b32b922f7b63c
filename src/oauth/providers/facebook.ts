/**
 * Facebook Login (Graph API v26.0).
 *
 * Checked 2026-11-23 against
 * https://developers.facebook.com/documentation/facebook-login/guides/advanced/manual-flow,
 * https://developers.facebook.com/docs/graph-api/reference/user/ and
 * https://developers.facebook.com/docs/graph-api/changelog (v26.0, the
 * newest version, released 2026-07-29): dialog at
 * `www.facebook.com/v26.0/dialog/oauth`, token at
 * `graph.facebook.com/v26.0/oauth/access_token` with the app id and secret
 * as form parameters, PKCE `S256` accepted; `/me` returns only `id` and
 * `name` unless `fields=` asks for more, so the user-info URL asks for
 * `id,name,email,picture`. Email: the Graph API returns the primary address
 * only when it is a valid, confirmed one and has no verification flag, so
 * it is used as is.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import {
  buildUser,
  checkEmail,
  isRecord,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

/**
 * Maps `GET /me?fields=id,name,email,picture` to a `User`: `sub` = `id`
 * (app-scoped), `name`, `email`, `image` = `picture.data.url` unless it is
 * the default silhouette.
 *
 * @example
 * ```ts
 * import { facebookProfile } from "./facebook.ts";
 *
 * facebookProfile({ id: "10158284587591234", name: "Ada Lovelace", email: "ada@example.com" });
 * // { sub: "10158284587591234", name: "Ada Lovelace", email: "ada@example.com" }
 * ```
 */
export function facebookProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Facebook");
  const picture = isRecord(object.picture) && isRecord(object.picture.data)
    ? object.picture.data
    : {};
  return buildUser({
    sub: readSubject(object.id),
    name: readText(object.name),
    email: checkEmail(object.email),
    image: picture.is_silhouette === true ? undefined : readImageURL(picture.url),
  }, "Facebook");
}

/**
 * The built-in Facebook provider: scopes `email public_profile`, app id and
 * secret in the body, Graph API v26.0. Credentials come from
 * `FACEBOOK_CLIENT_ID` / `FACEBOOK_CLIENT_SECRET` (the app id and secret).
 *
 * @example
 * ```ts
 * import { facebook } from "@service-stack/auth";
 *
 * console.log(facebook.userInfo); // "https://graph.facebook.com/v26.0/me?fields=id,name,email,picture"
 * ```
 */
export const facebook: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "facebook",
  name: "Facebook",
  authorizeURL: "https://www.facebook.com/v26.0/dialog/oauth",
  // Whole strings, not a template: a template with a variable keeps this in every bundle.
  accessToken: "https://graph.facebook.com/v26.0/oauth/access_token",
  userInfo: "https://graph.facebook.com/v26.0/me?fields=id,name,email,picture",
  scope: "email public_profile",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  profile: facebookProfile,
});
