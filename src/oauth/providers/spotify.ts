/**
 * Spotify.
 *
 * Checked 2026-11-23 against
 * https://developer.spotify.com/documentation/web-api/tutorials/code-pkce-flow
 * and https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile:
 * endpoints below, client credentials by HTTP Basic, PKCE `S256` supported.
 * Email: Spotify documents that the `email` of `/v1/me` is unverified
 * ("there is no proof it actually belongs to the user"), so the mapping
 * leaves it out; a `profile` of your own may read it for display, never to
 * link accounts.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import {
  buildUser,
  isRecord,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

/**
 * Maps `GET https://api.spotify.com/v1/me` to a `User`: `sub` = `id`, `name`
 * = `display_name`, `image` = `images[0].url`. The unverified `email` is left
 * out.
 *
 * @example
 * ```ts
 * import { spotifyProfile } from "./spotify.ts";
 *
 * spotifyProfile({ id: "wizzler", display_name: "JM Wizzler", email: "email@example.com", images: [] });
 * // { sub: "wizzler", name: "JM Wizzler" }
 * ```
 */
export function spotifyProfile(raw: Record<string, unknown>): User {
  const object = profileObject(raw, "Spotify");
  const first = Array.isArray(object.images) ? object.images[0] : undefined;
  return buildUser({
    sub: readSubject(object.id),
    name: readText(object.display_name),
    image: isRecord(first) ? readImageURL(first.url) : undefined,
  }, "Spotify");
}

/**
 * The built-in Spotify provider: scope `user-read-email` (kept so that an
 * own `profile` can show the address), client authentication by HTTP
 * Basic. Credentials come from `SPOTIFY_CLIENT_ID` / `SPOTIFY_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { spotify } from "@service-stack/auth";
 *
 * console.log(spotify.authorizeURL); // "https://accounts.spotify.com/authorize"
 * ```
 */
export const spotify: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "spotify",
  name: "Spotify",
  authorizeURL: "https://accounts.spotify.com/authorize",
  accessToken: "https://accounts.spotify.com/api/token",
  userInfo: "https://api.spotify.com/v1/me",
  scope: "user-read-email",
  responseType: "code",
  profile: spotifyProfile,
});
