/**
 * GitHub (OAuth app or GitHub App user authorization).
 *
 * Checked 2026-11-23 against
 * https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * (also read as its source in https://github.com/github/docs),
 * https://docs.github.com/en/rest/users/users#get-the-authenticated-user and
 * https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user:
 * endpoints below. Client authentication: the token request documents
 * `client_id` and `client_secret` as parameters and no Authorization
 * header, and GitHub Enterprise Server has been reported to refuse HTTP
 * Basic there (https://github.com/authlib/authlib/issues/398), so the
 * credentials go in the body (`client_secret_post`; until this review
 * HTTP Basic was sent, which no GitHub page documents).
 * PKCE: only `S256` is accepted (confirmed in
 * https://github.blog/changelog/2025-07-14-pkce-support-for-oauth-and-github-app-authentication;
 * the stored copy of the authorizing page predates it and still says PKCE
 * is not supported).
 * Email: only an address `/user/emails` lists as `verified` counts (GitHub's
 * email reference says managed-user accounts made after 2024-08-01 start
 * with unverified addresses, so the public profile address is not trusted
 * on its own): the profile address when the list marks it verified, else
 * the primary entry whose `verified` is `true`; none when the call fails. The
 * follow-up call goes to `{userInfo}/emails`, so a GitHub Enterprise
 * Server `userInfo` (`https://git.corp.example/api/v3/user`) moves it to
 * that host.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider, ProfileContext } from "../types.ts";
import { defineProvider } from "./_define.ts";
import {
  buildUser,
  checkEmail,
  firstOf,
  primaryVerifiedEmail,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";
import { isRecord } from "../../is_record.ts";
import { fetchJSON, followUpURL } from "./_fetch_json.ts";

const GITHUB_JSON = "application/vnd.github+json";

/**
 * Maps `GET https://api.github.com/user` to a `User`: `sub` = `id`, `name` =
 * `name` or else `login`, `image` = `avatar_url`. `email` is the public
 * profile address when set; otherwise the primary verified address from
 * `GET {userInfo}/emails` (needs the `user:email` scope), left out when that
 * call fails or lists none.
 *
 * @example
 * ```ts
 * import { githubProfile } from "./github.ts";
 *
 * const user = await githubProfile(
 *   { id: 1, login: "octocat", name: null, email: "octocat@github.com" },
 *   { tokens: { access_token: "gho_x", token_type: "bearer" }, fetch, endpoints: {} },
 * );
 * // { sub: "1", name: "octocat", email: "octocat@github.com" }
 * ```
 */
export async function githubProfile(
  raw: Record<string, unknown>,
  context: ProfileContext,
): Promise<User> {
  const object = profileObject(raw, "GitHub");
  const user = buildUser({
    sub: readSubject(object.id),
    name: firstOf([object.name, object.login], readText),
    image: readImageURL(object.avatar_url),
  }, "GitHub");
  const email = await listedEmail(context, checkEmail(object.email));
  if (email !== undefined) user.email = email;
  return user;
}

/** The profile address when `/user/emails` lists it as verified, else the primary verified one. */
async function listedEmail(
  context: ProfileContext,
  profileEmail: string | undefined,
): Promise<string | undefined> {
  const url = followUpURL(context.endpoints.userInfo, "emails");
  const list = await fetchJSON(context.fetch, url, context.tokens.access_token, {
    Accept: GITHUB_JSON,
    "X-GitHub-Api-Version": "2022-11-28",
  });
  const listed = Array.isArray(list) &&
    list.some((entry) =>
      isRecord(entry) && entry.verified === true && checkEmail(entry.email) === profileEmail
    );
  return profileEmail !== undefined && listed
    ? profileEmail
    : primaryVerifiedEmail(list, "primary", "verified");
}

/**
 * The built-in GitHub provider: scopes `read:user user:email`, client id
 * and secret in the body, as GitHub documents. Credentials come from
 * `GITHUB_CLIENT_ID` / `GITHUB_CLIENT_SECRET`. For GitHub Enterprise Server,
 * override the three URLs; the `/user/emails` follow-up moves with
 * `userInfo`.
 *
 * @example
 * ```ts
 * import { github } from "@service-stack/auth";
 *
 * console.log(github.authorizeURL); // "https://github.com/login/oauth/authorize"
 * ```
 */
export const github: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "github",
  name: "GitHub",
  authorizeURL: "https://github.com/login/oauth/authorize",
  accessToken: "https://github.com/login/oauth/access_token",
  userInfo: "https://api.github.com/user",
  scope: "read:user user:email",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  profile: githubProfile,
  verifiesEmail: true,
});
