/**
 * GitLab (gitlab.com or self-managed).
 *
 * Checked 2026-11-23 against https://docs.gitlab.com/api/oauth2/ (read as
 * its source, `doc/api/oauth2.md` in https://github.com/gitlabhq/gitlabhq),
 * the users API page (an older stored `doc/api/users.md`, for the
 * `confirmed_at` field) and GitLab's own code in that repository: endpoints
 * below; the authorization code flow with
 * PKCE (`code_challenge_method=S256`) is a documented flow; scopes are
 * space-separated and `read_user` gives `GET /api/v4/user`. Client
 * authentication: the page's examples send `client_id` and `client_secret`
 * as form parameters, and GitLab's Doorkeeper set-up
 * (`config/initializers/doorkeeper.rb`) keeps Doorkeeper's default of
 * reading the credentials from an `Authorization: Basic` header first, then
 * from the form, so HTTP Basic (used) and the body both work. Email: `GET
 * /user` presents the user with the `UserPublic` entity (`lib/api/users.rb`,
 * `lib/api/entities/user_public.rb`), which always exposes the primary
 * `email` and the account's `confirmed_at`; the email is used only when
 * `confirmed_at` is a timestamp, so an unconfirmed account (`null`) or a
 * response without the field gives none. Not stated by a page found: that
 * the primary address of a confirmed account is itself always confirmed
 * (the mapping relies on the account's confirmation).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
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
 * `name` = `name` or else `username`, `email` = `email` only when
 * `confirmed_at` is a timestamp (the account is confirmed), `image` =
 * `avatar_url`.
 *
 * @example
 * ```ts
 * import { gitlabProfile } from "./gitlab.ts";
 *
 * gitlabProfile({ id: 1, username: "john_smith", name: "John Smith", email: "john@example.com", confirmed_at: "2012-05-23T09:05:22Z" });
 * // { sub: "1", name: "John Smith", email: "john@example.com" }
 * ```
 */
export function gitlabProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "GitLab");
  return buildUser({
    sub: readSubject(object.id),
    name: firstOf([object.name, object.username], readText),
    email: isTimestamp(object.confirmed_at) ? checkEmail(object.email) : undefined,
    image: readImageURL(object.avatar_url),
  }, "GitLab");
}

/** Whether `value` is a date-time string such as `2012-05-23T09:05:22Z`. */
function isTimestamp(value: unknown): boolean {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) &&
    !Number.isNaN(Date.parse(value));
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
export const gitlab: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "gitlab",
  name: "GitLab",
  authorizeURL: "https://gitlab.com/oauth/authorize",
  accessToken: "https://gitlab.com/oauth/token",
  userInfo: "https://gitlab.com/api/v4/user",
  scope: "read_user",
  responseType: "code",
  profile: gitlabProfile,
  verifiesEmail: true,
});
