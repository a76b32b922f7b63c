/**
 * Reddit.
 *
 * Checked 2026-11-23 against https://github.com/reddit-archive/reddit/wiki/OAuth2
 * and https://www.reddit.com/dev/api#GET_api_v1_me: authorization at
 * `www.reddit.com/api/v1/authorize` with `duration=temporary` (no refresh
 * token), token at `www.reddit.com/api/v1/access_token` with HTTP Basic,
 * user at `oauth.reddit.com/api/v1/me` with scope `identity`. Reddit's API
 * rules require a descriptive `User-Agent` on every call
 * (`<platform>:<app id>:<version> (by /u/<username>)`); a generic one is
 * set, replace it with `headers: { "User-Agent": ... }`. PKCE: not
 * documented (extra parameters are ignored). Reddit shares no email
 * address. `icon_img` comes HTML-escaped (`&amp;`) and is unescaped.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import {
  buildUser,
  firstOf,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

function unescapeAmpersands(value: unknown): unknown {
  return typeof value === "string" ? value.replaceAll("&amp;", "&") : value;
}

/**
 * Maps `GET https://oauth.reddit.com/api/v1/me` to a `User`: `sub` = `id`,
 * `name` = `name` (the username), `image` = `icon_img` (unescaped) or else
 * `snoovatar_img`. No email.
 *
 * @example
 * ```ts
 * import { redditProfile } from "./reddit.ts";
 *
 * redditProfile({ id: "1w72", name: "spez", icon_img: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256" });
 * // { sub: "1w72", name: "spez", image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256" }
 * ```
 */
export function redditProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Reddit");
  return buildUser({
    sub: readSubject(object.id),
    name: readText(object.name),
    image: firstOf(
      [unescapeAmpersands(object.icon_img), unescapeAmpersands(object.snoovatar_img)],
      readImageURL,
    ),
  }, "Reddit");
}

/**
 * The built-in Reddit provider: scope `identity`, `duration=temporary`,
 * HTTP Basic, a `User-Agent` on every call. Credentials come from
 * `REDDIT_CLIENT_ID` / `REDDIT_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { reddit } from "@service-stack/auth";
 *
 * // createAuth({ oauth: [{ id: "reddit", headers: { "User-Agent": "web:com.example.app:v1.2 (by /u/example)" } }] })
 * console.log(reddit.scope); // "identity"
 * ```
 */
export const reddit: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "reddit",
  name: "Reddit",
  authorizeURL: "https://www.reddit.com/api/v1/authorize",
  accessToken: "https://www.reddit.com/api/v1/access_token",
  userInfo: "https://oauth.reddit.com/api/v1/me",
  scope: "identity",
  responseType: "code",
  authorizationParams: /* @__PURE__ */ Object.freeze({ duration: "temporary" }),
  headers: /* @__PURE__ */ Object.freeze({ "User-Agent": "web:service-stack-auth:v0.1 (sign-in)" }),
  profile: redditProfile,
});
