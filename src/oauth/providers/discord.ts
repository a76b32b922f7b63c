/**
 * Discord.
 *
 * Checked 2026-11-23 against https://discord.com/developers/docs/topics/oauth2
 * and https://discord.com/developers/docs/resources/user#get-current-user
 * (both read as their source in https://github.com/discord/discord-api-docs),
 * with https://discord.com/.well-known/oauth-authorization-server as read in
 * the earlier review: the documented base authorization URL is
 * `https://discord.com/oauth2/authorize` (used, as the docs give it; the
 * metadata document names `/api/oauth2/authorize` instead), token at
 * `discord.com/api/oauth2/token`, where every call takes either HTTP Basic
 * or `client_id` / `client_secret` in the form (Basic used); PKCE `S256`
 * only (from the metadata document; the OAuth2 page itself does not
 * mention PKCE). The user object of `GET /users/@me` has `email` with the
 * `email` scope and `verified`, whether that address has been verified;
 * only `verified: true` gives an email.
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
  readSubject,
  readText,
  verifiedEmail,
} from "../profile.ts";

const CDN = "https://cdn.discordapp.com";
const SNOWFLAKE = /^\d{1,20}$/;
const AVATAR_HASH = /^(?:a_)?[0-9a-f]{32}$/;

/**
 * Maps `GET https://discord.com/api/users/@me` to a `User`: `sub` = `id`,
 * `name` = `global_name` or else `username`, `email` = `email` only when
 * Discord marks it `verified`, `image` = the CDN URL built from `id` and the
 * `avatar` hash (GIF for animated `a_` hashes), or Discord's default avatar
 * when the user has none.
 *
 * @example
 * ```ts
 * import { discordProfile } from "./discord.ts";
 *
 * discordProfile({ id: "80351110224678912", username: "nelly", global_name: null, avatar: null, email: "nelly@example.com", verified: true });
 * // { sub: "80351110224678912", name: "nelly", email: "nelly@example.com", image: "https://cdn.discordapp.com/embed/avatars/5.png" }
 * ```
 */
export function discordProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Discord");
  const sub = readSubject(object.id);
  return buildUser({
    sub,
    name: firstOf([object.global_name, object.username], readText),
    email: verifiedEmail(object.email, object.verified, { required: true }),
    image: sub === undefined ? undefined : avatarURL(sub, object.avatar, object.discriminator),
  }, "Discord");
}

function avatarURL(id: string, avatar: unknown, discriminator: unknown): string | undefined {
  if (!SNOWFLAKE.test(id)) return undefined;
  if (typeof avatar === "string" && AVATAR_HASH.test(avatar)) {
    const extension = avatar.startsWith("a_") ? "gif" : "png";
    return `${CDN}/avatars/${id}/${avatar}.${extension}`;
  }
  // Users on the new username system have discriminator "0"; legacy users keep #1234.
  const legacy = typeof discriminator === "string" && /^\d{1,4}$/.test(discriminator) &&
    discriminator !== "0";
  const index = legacy ? Number(discriminator) % 5 : Number((BigInt(id) >> 22n) % 6n);
  return `${CDN}/embed/avatars/${index}.png`;
}

/**
 * The built-in Discord provider: scopes `identify email`, client
 * authentication by HTTP Basic. Credentials come from `DISCORD_CLIENT_ID` /
 * `DISCORD_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { discord } from "@service-stack/auth";
 *
 * console.log(discord.scope); // "identify email"
 * ```
 */
export const discord: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "discord",
  name: "Discord",
  authorizeURL: "https://discord.com/oauth2/authorize",
  accessToken: "https://discord.com/api/oauth2/token",
  userInfo: "https://discord.com/api/users/@me",
  scope: "identify email",
  revocationURL: "https://discord.com/api/oauth2/token/revoke",
  responseType: "code",
  profile: discordProfile,
  verifiesEmail: true,
});
