/**
 * Zoom.
 *
 * Checked 2026-11-23 against
 * https://developers.zoom.us/docs/integrations/oauth/ and
 * https://developers.zoom.us/docs/api/users/#tag/users/get/users/{userId}:
 * authorization at `zoom.us/oauth/authorize`, token at `zoom.us/oauth/token`
 * with HTTP Basic, PKCE `S256` supported, user at
 * `api.zoom.us/v2/users/me` with the granular scope `user:read:user`.
 * Email: the user's `verified` is `1` when the address is verified and `0`
 * otherwise; the email is used only for `1`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { fieldProfile } from "./_fields.ts";

/**
 * Maps `GET https://api.zoom.us/v2/users/me` to a `User`: `sub` = `id`,
 * `name` = `display_name` or else `first_name` + `last_name`, `email` only
 * when `verified` is `1`, `image` = `pic_url`.
 *
 * @example
 * ```ts
 * import { zoomProfile } from "./zoom.ts";
 *
 * zoomProfile({ id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", email: "jchill@example.com", verified: 1 });
 * // { sub: "KDcuGIm1QgePTO8WbOqwIQ", name: "Jill Chill", email: "jchill@example.com" }
 * ```
 */
export const zoomProfile: (raw: Record<string, unknown>) => User = /* @__PURE__ */ fieldProfile({
  provider: "Zoom",
  sub: ["id"],
  name: [["display_name"], { join: [["first_name"], ["last_name"]] }],
  email: { path: ["email"], verified: { path: ["verified"], equals: 1 } },
  image: ["pic_url"],
});

/**
 * The built-in Zoom provider: scope `user:read:user`, HTTP Basic.
 * Credentials come from `ZOOM_CLIENT_ID` / `ZOOM_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { zoom } from "@service-stack/auth";
 *
 * console.log(zoom.userInfo); // "https://api.zoom.us/v2/users/me"
 * ```
 */
export const zoom: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "zoom",
  name: "Zoom",
  authorizeURL: "https://zoom.us/oauth/authorize",
  accessToken: "https://zoom.us/oauth/token",
  userInfo: "https://api.zoom.us/v2/users/me",
  scope: "user:read:user",
  responseType: "code",
  profile: zoomProfile,
  verifiesEmail: true,
});
