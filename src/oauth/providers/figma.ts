/**
 * Figma.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { buildUser, normalizeEmail, readImageURL, readSubject, readText } from "../profile.ts";

/**
 * Maps `GET https://api.figma.com/v1/me` to a `User`: `sub` = `id`, `name` =
 * `handle`, `email` = `email`, `image` = `img_url`.
 *
 * @example
 * ```ts
 * import { figmaProfile } from "./figma.ts";
 *
 * figmaProfile({ id: "1234", handle: "Ada", email: "ada@example.com", img_url: "https://s3-alpha.figma.com/profile/1234" });
 * // { sub: "1234", name: "Ada", email: "ada@example.com", image: "https://s3-alpha.figma.com/profile/1234" }
 * ```
 */
export function figmaProfile(raw: Record<string, unknown>): User {
  return buildUser({
    sub: readSubject(raw.id),
    name: readText(raw.handle),
    email: normalizeEmail(raw.email),
    image: readImageURL(raw.img_url),
  }, "Figma");
}

/**
 * The built-in Figma provider: scope `current_user:read` (name, email and
 * image of the signed-in user), token endpoint `api.figma.com/v1/oauth/token`
 * with HTTP Basic client authentication. Credentials come from
 * `FIGMA_CLIENT_ID` / `FIGMA_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { figma } from "@service-stack/auth";
 *
 * console.log(figma.userInfo); // "https://api.figma.com/v1/me"
 * ```
 */
export const figma: BuiltInProvider = Object.freeze({
  id: "figma",
  name: "Figma",
  authorizeURL: "https://www.figma.com/oauth",
  accessToken: "https://api.figma.com/v1/oauth/token",
  userInfo: "https://api.figma.com/v1/me",
  scope: "current_user:read",
  responseType: "code",
  profile: figmaProfile,
});
