/**
 * GitHub (OAuth app or GitHub App user authorization).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider, ProfileContext } from "../types.ts";
import {
  buildUser,
  firstOf,
  normalizeEmail,
  primaryVerifiedEmail,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";
import { fetchJSON } from "./_fetch_json.ts";

const EMAILS_URL = "https://api.github.com/user/emails";
const GITHUB_JSON = "application/vnd.github+json";

/**
 * Maps `GET https://api.github.com/user` to a `User`: `sub` = `id`, `name` =
 * `name` or else `login`, `image` = `avatar_url`. `email` is the public
 * profile address when set; otherwise the primary verified address from
 * `GET /user/emails` (needs the `user:email` scope), left out when that call
 * fails or lists none.
 *
 * @example
 * ```ts
 * import { githubProfile } from "./github.ts";
 *
 * const user = await githubProfile(
 *   { id: 1, login: "octocat", name: null, email: "octocat@github.com" },
 *   { tokens: { access_token: "gho_x", token_type: "bearer" }, fetch },
 * );
 * // { sub: "1", name: "octocat", email: "octocat@github.com" }
 * ```
 */
export async function githubProfile(
  raw: Record<string, unknown>,
  context: ProfileContext,
): Promise<User> {
  const sub = readSubject(raw.id);
  const user = buildUser({
    sub,
    name: firstOf([raw.name, raw.login], readText),
    email: normalizeEmail(raw.email),
    image: readImageURL(raw.avatar_url),
  }, "GitHub");
  if (user.email === undefined) {
    const email = await listedEmail(context);
    if (email !== undefined) user.email = email;
  }
  return user;
}

async function listedEmail(context: ProfileContext): Promise<string | undefined> {
  const list = await fetchJSON(context.fetch, EMAILS_URL, context.tokens.access_token, {
    Accept: GITHUB_JSON,
    "X-GitHub-Api-Version": "2022-11-28",
  });
  return primaryVerifiedEmail(list, "primary", "verified");
}

/**
 * The built-in GitHub provider: scopes `read:user user:email`, client
 * authentication by HTTP Basic (GitHub also accepts body credentials).
 * Credentials come from `GITHUB_CLIENT_ID` / `GITHUB_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { github } from "@service-stack/auth";
 *
 * console.log(github.authorizeURL); // "https://github.com/login/oauth/authorize"
 * ```
 */
export const github: BuiltInProvider = Object.freeze({
  id: "github",
  name: "GitHub",
  authorizeURL: "https://github.com/login/oauth/authorize",
  accessToken: "https://github.com/login/oauth/access_token",
  userInfo: "https://api.github.com/user",
  scope: "read:user user:email",
  responseType: "code",
  profile: githubProfile,
});
