/**
 * Dropbox.
 *
 * Checked 2026-11-23 against
 * https://developers.dropbox.com/oauth-guide,
 * https://www.dropbox.com/developers/documentation/http/documentation#oauth2-authorize
 * and https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account:
 * authorization at `www.dropbox.com/oauth2/authorize` with
 * `token_access_type=online`, token at `api.dropboxapi.com/oauth2/token`
 * (HTTP Basic), PKCE `S256` supported, scope `account_info.read`. The
 * account is an RPC call, `POST /2/users/get_current_account` without a
 * body. Email: Dropbox says not to rely on `email` without checking
 * `email_verified`; the email is used only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { fieldProfile } from "./_fields.ts";

/**
 * Maps `POST https://api.dropboxapi.com/2/users/get_current_account` to a
 * `User`: `sub` = `account_id`, `name` = `name.display_name`, `email` only
 * when `email_verified` is `true`, `image` = `profile_photo_url`.
 *
 * @example
 * ```ts
 * import { dropboxProfile } from "./dropbox.ts";
 *
 * dropboxProfile({ account_id: "dbid:AAH4f99", name: { display_name: "Franz Ferdinand" }, email: "franz@dropbox.com", email_verified: true });
 * // { sub: "dbid:AAH4f99", name: "Franz Ferdinand", email: "franz@dropbox.com" }
 * ```
 */
export const dropboxProfile: (raw: Record<string, unknown>) => User = /* @__PURE__ */ fieldProfile({
  provider: "Dropbox",
  sub: ["account_id"],
  name: [["name", "display_name"]],
  email: { path: ["email"], verified: { path: ["email_verified"] } },
  image: ["profile_photo_url"],
});

/**
 * The built-in Dropbox provider: scope `account_info.read`, online access
 * tokens, HTTP Basic, user info by `POST`. Credentials come from
 * `DROPBOX_CLIENT_ID` / `DROPBOX_CLIENT_SECRET` (the app key and secret).
 *
 * @example
 * ```ts
 * import { dropbox } from "@service-stack/auth";
 *
 * console.log(dropbox.userInfoMethod); // "POST"
 * ```
 */
export const dropbox: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "dropbox",
  name: "Dropbox",
  authorizeURL: "https://www.dropbox.com/oauth2/authorize",
  accessToken: "https://api.dropboxapi.com/oauth2/token",
  userInfo: "https://api.dropboxapi.com/2/users/get_current_account",
  scope: "account_info.read",
  responseType: "code",
  userInfoMethod: "POST",
  authorizationParams: /* @__PURE__ */ Object.freeze({ token_access_type: "online" }),
  profile: dropboxProfile,
  verifiesEmail: true,
});
