/**
 * Bitbucket Cloud.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider, ProfileContext } from "../types.ts";
import {
  buildUser,
  firstOf,
  isRecord,
  primaryVerifiedEmail,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";
import { fetchJSON } from "./_fetch_json.ts";

const EMAILS_URL = "https://api.bitbucket.org/2.0/user/emails";

/**
 * Maps `GET https://api.bitbucket.org/2.0/user` to a `User`: `sub` = `uuid`
 * (with its braces), `name` = `display_name` or else `nickname`, `image` =
 * `links.avatar.href`. That response has no address, so `email` is the
 * primary confirmed entry of `GET /2.0/user/emails` (needs the `email`
 * scope), left out when that call fails or lists none.
 *
 * @example
 * ```ts
 * import { bitbucketProfile } from "./bitbucket.ts";
 *
 * const user = await bitbucketProfile(
 *   { uuid: "{c4e1d7a2-0000-4000-8000-000000000000}", display_name: "Ada" },
 *   { tokens: { access_token: "token", token_type: "bearer" }, fetch },
 * );
 * ```
 */
export async function bitbucketProfile(
  raw: Record<string, unknown>,
  context: ProfileContext,
): Promise<User> {
  const links = isRecord(raw.links) ? raw.links : {};
  const avatar = isRecord(links.avatar) ? links.avatar : {};
  const user = buildUser({
    sub: readSubject(raw.uuid),
    name: firstOf([raw.display_name, raw.nickname, raw.username], readText),
    image: readImageURL(avatar.href),
  }, "Bitbucket");
  const email = await primaryConfirmedEmail(context);
  if (email !== undefined) user.email = email;
  return user;
}

async function primaryConfirmedEmail(context: ProfileContext): Promise<string | undefined> {
  const page = await fetchJSON(context.fetch, EMAILS_URL, context.tokens.access_token);
  return isRecord(page)
    ? primaryVerifiedEmail(page.values, "is_primary", "is_confirmed")
    : undefined;
}

/**
 * The built-in Bitbucket Cloud provider: scopes `account email`, client
 * authentication by HTTP Basic. Credentials come from
 * `BITBUCKET_CLIENT_ID` / `BITBUCKET_CLIENT_SECRET` (the consumer key and
 * secret).
 *
 * @example
 * ```ts
 * import { bitbucket } from "@service-stack/auth";
 *
 * console.log(bitbucket.accessToken); // "https://bitbucket.org/site/oauth2/access_token"
 * ```
 */
export const bitbucket: BuiltInProvider = Object.freeze({
  id: "bitbucket",
  name: "Bitbucket",
  authorizeURL: "https://bitbucket.org/site/oauth2/authorize",
  accessToken: "https://bitbucket.org/site/oauth2/access_token",
  userInfo: "https://api.bitbucket.org/2.0/user",
  scope: "account email",
  responseType: "code",
  profile: bitbucketProfile,
});
