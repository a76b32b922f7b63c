/**
 * Atlassian (OAuth 2.0 3LO: Jira, Confluence).
 *
 * Checked 2026-11-23 against
 * https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/:
 * authorization at `auth.atlassian.com/authorize` with
 * `audience=api.atlassian.com` and `prompt=consent`, token at
 * `auth.atlassian.com/oauth/token` with the client id and secret in the
 * body, user at `api.atlassian.com/me` with scope `read:me` (the User
 * Identity API must be enabled). PKCE: not documented (extra parameters
 * are ignored). Email: `/me` returns the account's address and an
 * `email_verified` flag; `email_verified: false` gives no email.
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
  verifiedEmail,
} from "../profile.ts";

/**
 * Maps `GET https://api.atlassian.com/me` to a `User`: `sub` =
 * `account_id`, `name` = `name` or else `nickname`, `email` unless
 * `email_verified` is `false`, `image` = `picture`.
 *
 * @example
 * ```ts
 * import { atlassianProfile } from "./atlassian.ts";
 *
 * atlassianProfile({ account_id: "112233aa-bb11-cc22-33dd-445566abcabc", name: "Mia Krystof", email: "mia@example.com", email_verified: true });
 * // { sub: "112233aa-bb11-cc22-33dd-445566abcabc", name: "Mia Krystof", email: "mia@example.com" }
 * ```
 */
export function atlassianProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Atlassian");
  return buildUser({
    sub: readSubject(object.account_id),
    name: firstOf([object.name, object.nickname], readText),
    email: verifiedEmail(object.email, object.email_verified),
    image: readImageURL(object.picture),
  }, "Atlassian");
}

/**
 * The built-in Atlassian provider: scope `read:me`, `audience` and
 * `prompt=consent` on the authorization request, credentials in the body.
 * Credentials come from `ATLASSIAN_CLIENT_ID` / `ATLASSIAN_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { atlassian } from "@service-stack/auth";
 *
 * console.log(atlassian.authorizationParams); // { audience: "api.atlassian.com", prompt: "consent" }
 * ```
 */
export const atlassian: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "atlassian",
  name: "Atlassian",
  authorizeURL: "https://auth.atlassian.com/authorize",
  accessToken: "https://auth.atlassian.com/oauth/token",
  userInfo: "https://api.atlassian.com/me",
  scope: "read:me",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  authorizationParams: /* @__PURE__ */ Object.freeze({
    audience: "api.atlassian.com",
    prompt: "consent",
  }),
  profile: atlassianProfile,
});
