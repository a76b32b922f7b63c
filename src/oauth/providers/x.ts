/**
 * X (formerly Twitter), OAuth 2.0 with PKCE.
 *
 * Checked 2026-11-23 against
 * https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code
 * and https://docs.x.com/x-api/users/lookup/integrate: endpoints below, PKCE
 * required, confidential clients by HTTP Basic; `/2/users/me` wraps the
 * user in `data`. Email: only `confirmed_email` (X's confirmed address,
 * returned with the `users.email` scope and field) is used; it is not
 * requested by default.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { fieldProfile } from "./_fields.ts";

/**
 * Maps `GET https://api.x.com/2/users/me` to a `User`. The user is wrapped in
 * `data`: `sub` = `data.id`, `name` = `data.name` or else `data.username`,
 * `image` = `data.profile_image_url`. `email` = `data.confirmed_email`, which
 * X returns only when the app has the `users.email` scope and asks for that
 * field; otherwise it is left out.
 *
 * @throws {ProfileError} when the response has no `data` object.
 *
 * @example
 * ```ts
 * import { xProfile } from "./x.ts";
 *
 * xProfile({ data: { id: "2244994945", name: "X Dev", username: "TwitterDev" } });
 * // { sub: "2244994945", name: "X Dev" }
 * ```
 */
export const xProfile: (raw: Record<string, unknown>) => User = /* @__PURE__ */ fieldProfile({
  provider: "X",
  wrapper: {
    key: "data",
    error: "The X user-info response has no data object: expected { data: { id } }.",
  },
  sub: ["id"],
  name: [["name"], ["username"]],
  email: { path: ["confirmed_email"] },
  image: ["profile_image_url"],
});

/**
 * The built-in X provider: scopes `users.read tweet.read` (both are needed
 * for `/2/users/me`), `user.fields=profile_image_url` on the user-info URL,
 * client authentication by HTTP Basic (confidential client). Credentials
 * come from `X_CLIENT_ID` / `X_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { x } from "@service-stack/auth";
 *
 * console.log(x.userInfo); // "https://api.x.com/2/users/me?user.fields=profile_image_url"
 * ```
 */
export const x: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "x",
  name: "X",
  authorizeURL: "https://x.com/i/oauth2/authorize",
  accessToken: "https://api.x.com/2/oauth2/token",
  userInfo: "https://api.x.com/2/users/me?user.fields=profile_image_url",
  scope: "users.read tweet.read",
  responseType: "code",
  profile: xProfile,
  verifiesEmail: true,
});
