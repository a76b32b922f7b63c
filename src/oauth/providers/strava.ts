/**
 * Strava.
 *
 * Checked 2026-11-23 against https://developers.strava.com/docs/authentication/
 * and https://developers.strava.com/docs/oauth-updates/, with the older
 * official pages https://strava.github.io/api/v3/oauth/ and
 * https://strava.github.io/api/v3/athlete/ for the parameter table and the
 * athlete fields the stored copies of the current pages cut off:
 * authorization at `www.strava.com/oauth/authorize` with `approval_prompt`
 * (`auto`, the default, or `force`) and comma-separated scopes, of which
 * `read` covers public profile data (name and picture; `profile:read_all`
 * is only needed for private profile fields); the code is exchanged by
 * presenting the client id and secret with it as parameters (form
 * parameters used) at `www.strava.com/oauth/token` (that URL itself comes
 * from clients' and tutorials' examples: the stored official pages cut off
 * before it); the athlete is
 * `GET www.strava.com/api/v3/athlete` (`id`, `firstname`, `lastname`,
 * `profile`, `profile_medium`, ...). Email: never mapped; the older athlete
 * page's `email` field carries no verification flag, and no stored
 * current page shows one. The default avatar is a relative path
 * (`avatar/athlete/large.png`) and is left out. Not confirmed: PKCE (no
 * Strava page mentions it; the flow still sends `S256`, and whether Strava
 * ignores or checks it is not documented).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { fieldProfile } from "./_fields.ts";

/**
 * Maps `GET https://www.strava.com/api/v3/athlete` to a `User`: `sub` =
 * `id`, `name` = `firstname` + `lastname` or else `username`, `image` =
 * `profile`.
 *
 * @example
 * ```ts
 * import { stravaProfile } from "./strava.ts";
 *
 * stravaProfile({ id: 134815, username: "marianne_t", firstname: "Marianne", lastname: "Teutenberg" });
 * // { sub: "134815", name: "Marianne Teutenberg" }
 * ```
 */
export const stravaProfile: (raw: Record<string, unknown>) => User = /* @__PURE__ */ fieldProfile({
  provider: "Strava",
  sub: ["id"],
  name: [{ join: [["firstname"], ["lastname"]] }, ["username"]],
  image: ["profile"],
});

/**
 * The built-in Strava provider: scope `read`, client id and secret in the
 * body. Credentials come from `STRAVA_CLIENT_ID` / `STRAVA_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { strava } from "@service-stack/auth";
 *
 * console.log(strava.userInfo); // "https://www.strava.com/api/v3/athlete"
 * ```
 */
export const strava: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "strava",
  name: "Strava",
  authorizeURL: "https://www.strava.com/oauth/authorize",
  accessToken: "https://www.strava.com/oauth/token",
  userInfo: "https://www.strava.com/api/v3/athlete",
  scope: "read",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  authorizationParams: /* @__PURE__ */ Object.freeze({ approval_prompt: "auto" }),
  profile: stravaProfile,
});
