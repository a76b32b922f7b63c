/**
 * Figma.
 *
 * Checked 2026-11-23 against Figma's OpenAPI description of the REST API
 * (https://github.com/figma/rest-api-spec, `openapi/openapi.yaml`, read
 * because the official OAuth page https://developers.figma.com/docs/rest-api/oauth/
 * is not stored) and https://developers.figma.com/docs/rest-api/authentication:
 * authorization at `www.figma.com/oauth`, token at
 * `api.figma.com/v1/oauth/token` (the `www.figma.com/api/oauth/token` of
 * third-party lists is the endpoint Figma retired in 2025), scope
 * `current_user:read` (the user's name, email and image); `GET /v1/me` is
 * `{ id, handle, img_url, email }`. HTTP Basic client authentication is confirmed only by
 * Figma's 2025 migration notice as quoted in
 * https://github.com/NangoHQ/nango/pull/3618 (credentials in the
 * Authorization header, Basic scheme), not by a stored Figma page. Not
 * confirmed: PKCE (no Figma page found; the flow always sends `S256` and
 * no report says Figma rejects it). Email: `/v1/me` has no verification
 * flag and no Figma page says whether the address is verified, so the
 * email is mapped as Figma returns it (the rule drops an address only when
 * the provider says it is unverified); do not link accounts on it.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
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
 * `handle`, `email` (Figma gives no verification flag), `image` = `img_url`.
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
 * image of the signed-in user; Figma does not say whether the email is verified), token endpoint
 * `api.figma.com/v1/oauth/token` with HTTP Basic client authentication.
 * Credentials come from `FIGMA_CLIENT_ID` / `FIGMA_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { figma } from "@service-stack/auth";
 *
 * console.log(figma.userInfo); // "https://api.figma.com/v1/me"
 * ```
 */
export const figma: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "figma",
  name: "Figma",
  authorizeURL: "https://www.figma.com/oauth",
  accessToken: "https://api.figma.com/v1/oauth/token",
  userInfo: "https://api.figma.com/v1/me",
  scope: "current_user:read",
  responseType: "code",
  profile: figmaProfile,
});
