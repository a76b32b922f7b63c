/**
 * Strava.
 *
 * Checked 2026-11-23 only that the pages exist and that the token
 * exchange sends the client id and secret as parameters; the rest below
 * is not re-read. Documentation:
 * https://developers.strava.com/docs/authentication/ and
 * https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete:
 * authorization at `www.strava.com/oauth/authorize` with
 * `approval_prompt=auto`, token at `www.strava.com/oauth/token` with the
 * client id and secret as form parameters, athlete at
 * `www.strava.com/api/v3/athlete` with scope `read`. PKCE: not documented
 * (extra parameters are ignored). Strava shares no email address. The
 * default avatar is a relative path (`avatar/athlete/large.png`) and is
 * left out.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import {
  buildUser,
  joinName,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

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
export function stravaProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Strava");
  return buildUser({
    sub: readSubject(object.id),
    name: joinName(object.firstname, object.lastname) ?? readText(object.username),
    image: readImageURL(object.profile),
  }, "Strava");
}

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
export const strava: BuiltInProvider = Object.freeze({
  id: "strava",
  name: "Strava",
  authorizeURL: "https://www.strava.com/oauth/authorize",
  accessToken: "https://www.strava.com/oauth/token",
  userInfo: "https://www.strava.com/api/v3/athlete",
  scope: "read",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  authorizationParams: Object.freeze({ approval_prompt: "auto" }),
  profile: stravaProfile,
});
