/**
 * Patreon (API v2).
 *
 * Checked 2026-11-23 against https://docs.patreon.com/#oauth and
 * https://docs.patreon.com/#get-api-oauth2-v2-identity: authorization at
 * `www.patreon.com/oauth2/authorize`, token at
 * `www.patreon.com/api/oauth2/token` with the client id and secret as form
 * parameters, scopes `identity identity[email]`. The v2 identity endpoint
 * returns no attributes unless `fields[user]=` lists them, so the
 * user-info URL asks for `email,full_name,image_url,is_email_verified`;
 * the answer is JSON:API (`{ data: { id, attributes } }`). PKCE: not
 * documented (extra parameters are ignored). Email: the email is used only
 * when `is_email_verified` is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { fieldProfile } from "./_fields.ts";

/**
 * Maps `GET https://www.patreon.com/api/oauth2/v2/identity` to a `User`:
 * `sub` = `data.id`, `name` = `attributes.full_name`, `email` only when
 * `is_email_verified` is `true`, `image` = `image_url`.
 *
 * @throws {ProfileError} when the response has no `data` object.
 *
 * @example
 * ```ts
 * import { patreonProfile } from "./patreon.ts";
 *
 * patreonProfile({ data: { id: "12345678", type: "user", attributes: { full_name: "Corgi The Dev", email: "corgi@example.com", is_email_verified: true } } });
 * // { sub: "12345678", name: "Corgi The Dev", email: "corgi@example.com" }
 * ```
 */
export const patreonProfile: (raw: Record<string, unknown>) => User = /* @__PURE__ */ fieldProfile({
  provider: "Patreon",
  wrapper: {
    key: "data",
    error: "The Patreon user-info response has no data object; expected { data: { id } }.",
  },
  sub: ["id"],
  name: [["attributes", "full_name"]],
  email: {
    path: ["attributes", "email"],
    verified: { path: ["attributes", "is_email_verified"] },
  },
  image: ["attributes", "image_url"],
});

/**
 * The built-in Patreon provider: scopes `identity identity[email]`, client
 * id and secret in the body. Credentials come from `PATREON_CLIENT_ID` /
 * `PATREON_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { patreon } from "@service-stack/auth";
 *
 * console.log(patreon.scope); // "identity identity[email]"
 * ```
 */
export const patreon: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "patreon",
  name: "Patreon",
  authorizeURL: "https://www.patreon.com/oauth2/authorize",
  accessToken: "https://www.patreon.com/api/oauth2/token",
  userInfo:
    "https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=email,full_name,image_url,is_email_verified",
  scope: "identity identity[email]",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  profile: patreonProfile,
  verifiesEmail: true,
});
