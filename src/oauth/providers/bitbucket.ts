/**
 * Bitbucket Cloud.
 *
 * Checked 2026-11-23 against https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 * and https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/:
 * authorization at `bitbucket.org/site/oauth2/authorize`, token at
 * `bitbucket.org/site/oauth2/access_token` with the consumer key and secret
 * by HTTP Basic (the page's code exchange is `curl -u "client_id:secret"`);
 * `GET api.bitbucket.org/2.0/user` needs the `account` scope and returns an
 * account (`uuid`, `display_name`, `links.avatar`, ...) without an address;
 * `GET /2.0/user/emails` needs the `email` scope and lists every address,
 * confirmed or not, each saying whether it is confirmed and whether it is
 * the primary one. The email is the entry that is both `is_primary` and
 * `is_confirmed`, so an unconfirmed address never counts; the follow-up
 * call moves with an overridden `userInfo`. Not confirmed by an Atlassian
 * page: the field names `is_primary` / `is_confirmed` (the reference shows
 * only the error schema of that call; the names are those every client
 * reads, e.g. SuperTokens' Bitbucket provider) and PKCE (Bitbucket Cloud's
 * OAuth page names no `code_challenge`, while Bitbucket Data Center
 * documents PKCE; the flow still sends `S256`, and whether Cloud checks it
 * is not documented).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider, ProfileContext } from "../types.ts";
import { defineProvider } from "./_define.ts";
import {
  buildUser,
  firstOf,
  isRecord,
  primaryVerifiedEmail,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";
import { fetchJSON, followUpURL } from "./_fetch_json.ts";

/**
 * Maps `GET https://api.bitbucket.org/2.0/user` to a `User`: `sub` = `uuid`
 * (with its braces), `name` = `display_name` or else `nickname`, `image` =
 * `links.avatar.href`. `email` is the primary confirmed entry of
 * `GET {userInfo}/emails` (needs the `email` scope), left out when that call
 * fails or lists none.
 *
 * @example
 * ```ts
 * import { bitbucketProfile } from "./bitbucket.ts";
 *
 * const user = await bitbucketProfile(
 *   { uuid: "{c4e1d7a2-0000-4000-8000-000000000000}", display_name: "Ada" },
 *   { tokens: { access_token: "token", token_type: "bearer" }, fetch, endpoints: {} },
 * );
 * ```
 */
export async function bitbucketProfile(
  raw: Record<string, unknown>,
  context: ProfileContext,
): Promise<User> {
  const object = profileObject(raw, "Bitbucket");
  const links = isRecord(object.links) ? object.links : {};
  const avatar = isRecord(links.avatar) ? links.avatar : {};
  const user = buildUser({
    sub: readSubject(object.uuid),
    name: firstOf([object.display_name, object.nickname, object.username], readText),
    image: readImageURL(avatar.href),
  }, "Bitbucket");
  const page = await fetchJSON(
    context.fetch,
    followUpURL(context.endpoints.userInfo, "emails"),
    context.tokens.access_token,
  );
  const email = isRecord(page)
    ? primaryVerifiedEmail(page.values, "is_primary", "is_confirmed")
    : undefined;
  if (email !== undefined) user.email = email;
  return user;
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
export const bitbucket: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "bitbucket",
  name: "Bitbucket",
  authorizeURL: "https://bitbucket.org/site/oauth2/authorize",
  accessToken: "https://bitbucket.org/site/oauth2/access_token",
  userInfo: "https://api.bitbucket.org/2.0/user",
  scope: "account email",
  responseType: "code",
  profile: bitbucketProfile,
  verifiesEmail: true,
});
