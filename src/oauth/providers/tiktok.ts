/**
 * TikTok (Login Kit for Web).
 *
 * Checked 2026-11-23 against https://developers.tiktok.com/doc/login-kit-web,
 * https://developers.tiktok.com/doc/oauth-user-access-token-management and
 * https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info: the client
 * id is called `client_key` in the authorization and token requests; the
 * key and secret go in the form body; scope `user.info.basic`. PKCE is
 * for the desktop and mobile kits only and uses a hex challenge, so a web
 * client sends none. User info needs `fields=` and wraps the user as
 * `{ data: { user }, error: { code: "ok" } }`. TikTok shares no email
 * address.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import {
  buildUser,
  isRecord,
  ProfileError,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

/**
 * Maps `GET https://open.tiktokapis.com/v2/user/info/` to a `User`: `sub` =
 * `data.user.open_id`, `name` = `display_name`, `image` = `avatar_url`.
 *
 * @throws {ProfileError} when `error.code` is not `"ok"` or there is no `data.user`.
 *
 * @example
 * ```ts
 * import { tiktokProfile } from "./tiktok.ts";
 *
 * tiktokProfile({ data: { user: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", display_name: "Tik Toker" } }, error: { code: "ok" } });
 * // { sub: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", name: "Tik Toker" }
 * ```
 */
export function tiktokProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "TikTok");
  if (isRecord(object.error) && object.error.code !== "ok") {
    throw new ProfileError('The TikTok user-info response is an error; expected error.code "ok".');
  }
  const data = isRecord(object.data) ? object.data : {};
  if (!isRecord(data.user)) {
    throw new ProfileError(
      "The TikTok user-info response has no user; expected { data: { user } }.",
    );
  }
  const user = data.user;
  return buildUser({
    sub: readSubject(user.open_id),
    name: readText(user.display_name),
    image: readImageURL(user.avatar_url),
  }, "TikTok");
}

/**
 * The built-in TikTok provider: scope `user.info.basic`, `client_key`
 * instead of `client_id`, key and secret in the body, no PKCE. Credentials
 * come from `TIKTOK_CLIENT_ID` / `TIKTOK_CLIENT_SECRET` (the client key and
 * secret).
 *
 * @example
 * ```ts
 * import { tiktok } from "@service-stack/auth";
 *
 * console.log(tiktok.clientIdParam); // "client_key"
 * ```
 */
export const tiktok: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "tiktok",
  name: "TikTok",
  authorizeURL: "https://www.tiktok.com/v2/auth/authorize/",
  accessToken: "https://open.tiktokapis.com/v2/oauth/token/",
  userInfo:
    "https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name",
  scope: "user.info.basic",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  clientIdParam: "client_key",
  pkce: false,
  profile: tiktokProfile,
});
