/**
 * Figma.
 *
 * Checked 2026-11-23 against https://developers.figma.com/docs/rest-api/oauth/
 * and https://developers.figma.com/docs/rest-api/users-endpoints/: endpoints
 * below, scope `current_user:read`. Not confirmed in that review: the
 * token endpoint (`api.figma.com/v1/oauth/token` with HTTP Basic; a
 * third-party list still names `www.figma.com/api/v1/oauth/token`) and
 * PKCE `S256` support; the official OAuth page could not be read. Figma accounts confirm their
 * address and `/v1/me` has no verification flag, so the email is used as
 * is (today's behaviour).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import {
  buildUser,
  checkEmail,
  profileObject,
  readImageURL,
  readSubject,
  readText,
} from "../profile.ts";

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
  const object = profileObject(raw, "Figma");
  return buildUser({
    sub: readSubject(object.id),
    name: readText(object.handle),
    email: checkEmail(object.email),
    image: readImageURL(object.img_url),
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
