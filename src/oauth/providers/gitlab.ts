/**
 * GitLab (gitlab.com or self-managed).
 *
 * Checked 2026-11-23 against https://docs.gitlab.com/api/oauth2/ and
 * https://docs.gitlab.com/api/users/#get-the-current-user: endpoints below
 * and PKCE support (authorization code with PKCE is a listed flow)
 * confirmed; client credentials by HTTP Basic or body (Basic used) not
 * re-checked. Email: `email` is the primary address, confirmed unless the
 * user's `confirmed_at` is `null`; an explicit `confirmed_at: null` (an
 * unconfirmed account) gives no email.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import {
  buildUser,
  checkEmail,
  firstOf,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

/**
 * Maps `GET https://gitlab.com/api/v4/user` to a `User`: `sub` = `id`,
 * `name` = `name` or else `username`, `email` = `email` (left out when
 * `confirmed_at` is `null`), `image` = `avatar_url`.
 *
 * @example
 * ```ts
 * import { gitlabProfile } from "./gitlab.ts";
 *
 * gitlabProfile({ id: 1, username: "john_smith", name: "John Smith", email: "john@example.com" });
 * // { sub: "1", name: "John Smith", email: "john@example.com" }
 * ```
 */
export function gitlabProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "GitLab");
  return buildUser({
    sub: readSubject(object.id),
    name: firstOf([object.name, object.username], readText),
    email: object.confirmed_at === null ? undefined : checkEmail(object.email),
    image: readImageURL(object.avatar_url),
  }, "GitLab");
}

/**
 * The built-in GitLab provider for gitlab.com: scope `read_user`, client
 * authentication by HTTP Basic. For a self-managed instance spread it and
 * replace the three URLs. Credentials come from `GITLAB_CLIENT_ID` /
 * `GITLAB_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { gitlab } from "@service-stack/auth";
 *
 * const selfManaged = {
 *   ...gitlab,
 *   authorizeURL: "https://git.example.com/oauth/authorize",
 *   accessToken: "https://git.example.com/oauth/token",
 *   userInfo: "https://git.example.com/api/v4/user",
 * };
 * ```
 */
export const gitlab: BuiltInProvider = Object.freeze({
  id: "gitlab",
  name: "GitLab",
  authorizeURL: "https://gitlab.com/oauth/authorize",
  accessToken: "https://gitlab.com/oauth/token",
  userInfo: "https://gitlab.com/api/v4/user",
  scope: "read_user",
  responseType: "code",
  profile: gitlabProfile,
});
