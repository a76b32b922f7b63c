/**
 * Roblox (OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://create.roblox.com/docs/cloud/reference/oauth2: base
 * `https://apis.roblox.com/oauth` (issuer `https://apis.roblox.com/oauth/`),
 * `v1/authorize` with PKCE `S256`, `v1/token` with HTTP Basic or body
 * (Basic used), `v1/userinfo`, JWKS `v1/certs`, `ES256` ID tokens; scopes
 * `openid profile`. Roblox shares no email address. `picture` may be `null`
 * (headshot not generated or moderated); it is then left out.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

/**
 * Maps Roblox's claims: `sub` (the user id), `name` (display name) or else
 * `preferred_username`, `picture`.
 *
 * @example
 * ```ts
 * import { robloxProfile } from "./roblox.ts";
 *
 * robloxProfile({ sub: "45348281", name: "Mighty", preferred_username: "MightyPart", picture: null });
 * // { sub: "45348281", name: "Mighty" }
 * ```
 */
export function robloxProfile(claims: Record<string, unknown>): User {
  const { email: _email, email_verified: _verified, ...rest } = claims;
  return oidcUser(rest, "Roblox");
}

/**
 * The built-in Roblox provider (OpenID Connect): scopes `openid profile`,
 * HTTP Basic, PKCE. Credentials come from `ROBLOX_CLIENT_ID` /
 * `ROBLOX_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { roblox } from "@service-stack/auth";
 *
 * console.log(roblox.issuer); // "https://apis.roblox.com/oauth/"
 * ```
 */
export const roblox: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "roblox",
  name: "Roblox",
  issuer: "https://apis.roblox.com/oauth/",
  authorizeURL: "https://apis.roblox.com/oauth/v1/authorize",
  accessToken: "https://apis.roblox.com/oauth/v1/token",
  userInfo: "https://apis.roblox.com/oauth/v1/userinfo",
  jwksURI: "https://apis.roblox.com/oauth/v1/certs",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["ES256"]),
  scope: "openid profile",
  responseType: "code",
  profile: robloxProfile,
}, oidcKit);
