/**
 * Notion (public connection).
 *
 * Checked 2026-11-23 against
 * https://developers.notion.com/docs/authorization,
 * https://developers.notion.com/reference/create-a-token and
 * https://developers.notion.com/reference/get-self: authorization at
 * `api.notion.com/v1/oauth/authorize` with `owner=user`, token at
 * `api.notion.com/v1/oauth/token` with HTTP Basic; Notion has no scopes
 * (the user picks pages) and no documented PKCE (extra parameters are
 * ignored). Every API call needs a `Notion-Version` header (`2025-09-03`).
 * The user is the owner of the connection's bot: `GET /v1/users/me` returns
 * the bot with `bot.owner.user`. Email: `person.email` has no verification
 * flag; Notion signs users in through that address, so it is used as is.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import {
  buildUser,
  checkEmail,
  isRecord,
  ProfileError,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

/**
 * Maps `GET https://api.notion.com/v1/users/me` (the bot) to its owner: `sub`
 * = `bot.owner.user.id`, `name`, `email` = `person.email`, `image` =
 * `avatar_url`.
 *
 * @throws {ProfileError} when the bot has no user owner (a workspace-owned connection).
 *
 * @example
 * ```ts
 * import { notionProfile } from "./notion.ts";
 *
 * notionProfile({ object: "user", type: "bot", bot: { owner: { type: "user", user: { id: "e79a0b74", name: "Ada", person: { email: "ada@example.com" } } } } });
 * // { sub: "e79a0b74", name: "Ada", email: "ada@example.com" }
 * ```
 */
export function notionProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Notion");
  const bot = isRecord(object.bot) ? object.bot : {};
  const owner = isRecord(bot.owner) ? bot.owner : {};
  const user = owner.type === "user" && isRecord(owner.user) ? owner.user : undefined;
  if (user === undefined) {
    throw new ProfileError(
      "The Notion user-info response has no user owner; expected bot.owner.user (a connection a user installed).",
    );
  }
  const person = isRecord(user.person) ? user.person : {};
  return buildUser({
    sub: readSubject(user.id),
    name: readText(user.name),
    email: checkEmail(person.email),
    image: readImageURL(user.avatar_url),
  }, "Notion");
}

/**
 * The built-in Notion provider: no scope, `owner=user`, HTTP Basic, the
 * `Notion-Version` header. Credentials come from `NOTION_CLIENT_ID` /
 * `NOTION_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { notion } from "@service-stack/auth";
 *
 * console.log(notion.headers); // { "Notion-Version": "2025-09-03" }
 * ```
 */
export const notion: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "notion",
  name: "Notion",
  authorizeURL: "https://api.notion.com/v1/oauth/authorize",
  accessToken: "https://api.notion.com/v1/oauth/token",
  userInfo: "https://api.notion.com/v1/users/me",
  scope: "",
  responseType: "code",
  authorizationParams: /* @__PURE__ */ Object.freeze({ owner: "user" }),
  headers: /* @__PURE__ */ Object.freeze({ "Notion-Version": "2025-09-03" }),
  profile: notionProfile,
});
