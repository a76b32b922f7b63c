/**
 * GitLab (gitlab.com).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import {
  buildUser,
  firstOf,
  normalizeEmail,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

/**
 * Maps `GET https://gitlab.com/api/v4/user` to a `User`: `sub` = `id`,
 * `name` = `name` or else `username`, `email` = `email`, `image` =
 * `avatar_url`.
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
  return buildUser({
    sub: readSubject(raw.id),
    name: firstOf([raw.name, raw.username], readText),
    email: normalizeEmail(raw.email),
    image: readImageURL(raw.avatar_url),
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
