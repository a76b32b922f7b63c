/**
 * Spotify.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import {
  buildUser,
  isRecord,
  normalizeEmail,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

/**
 * Maps `GET https://api.spotify.com/v1/me` to a `User`: `sub` = `id`, `name`
 * = `display_name`, `email` = `email`, `image` = `images[0].url`. Spotify
 * documents that it does not verify this address: do not link accounts on it.
 *
 * @example
 * ```ts
 * import { spotifyProfile } from "./spotify.ts";
 *
 * spotifyProfile({ id: "wizzler", display_name: "JM Wizzler", email: "email@example.com", images: [] });
 * // { sub: "wizzler", name: "JM Wizzler", email: "email@example.com" }
 * ```
 */
export function spotifyProfile(raw: Record<string, unknown>): User {
  const first = Array.isArray(raw.images) ? raw.images[0] : undefined;
  return buildUser({
    sub: readSubject(raw.id),
    name: readText(raw.display_name),
    email: normalizeEmail(raw.email),
    image: isRecord(first) ? readImageURL(first.url) : undefined,
  }, "Spotify");
}

/**
 * The built-in Spotify provider: scope `user-read-email`, client
 * authentication by HTTP Basic. Credentials come from `SPOTIFY_CLIENT_ID` /
 * `SPOTIFY_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { spotify } from "@service-stack/auth";
 *
 * console.log(spotify.authorizeURL); // "https://accounts.spotify.com/authorize"
 * ```
 */
export const spotify: BuiltInProvider = Object.freeze({
  id: "spotify",
  name: "Spotify",
  authorizeURL: "https://accounts.spotify.com/authorize",
  accessToken: "https://accounts.spotify.com/api/token",
  userInfo: "https://api.spotify.com/v1/me",
  scope: "user-read-email",
  responseType: "code",
  profile: spotifyProfile,
});
