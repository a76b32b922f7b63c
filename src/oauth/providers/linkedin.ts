/**
 * LinkedIn (Sign In with LinkedIn using OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 * and https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow:
 * issuer `https://www.linkedin.com/oauth`, scopes `openid profile email`,
 * user info at `https://api.linkedin.com/v2/userinfo`, client credentials
 * in the body. Two deviations, both known and still current: the token
 * endpoint refuses a confidential web client that sends a `code_verifier`
 * (401 `invalid_client`), so PKCE is off; and LinkedIn's ID tokens carry
 * no `nonce`, so that check is off (`state`, the client secret and the
 * direct token request remain). Email: `email_verified` is documented; the
 * email is used only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

/**
 * Maps LinkedIn's claims: `sub`, `name`, `picture`, and `email` only when
 * `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { linkedinProfile } from "./linkedin.ts";
 *
 * linkedinProfile({ sub: "782bbtaQ", name: "John Doe", email: "doe@email.com", email_verified: true });
 * // { sub: "782bbtaQ", name: "John Doe", email: "doe@email.com" }
 * ```
 */
export function linkedinProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "LinkedIn", { requireVerified: true });
}

/**
 * The built-in LinkedIn provider (OpenID Connect): scopes
 * `openid profile email`, client credentials in the body, no PKCE, no
 * `nonce` check. Credentials come from `LINKEDIN_CLIENT_ID` /
 * `LINKEDIN_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { linkedin } from "@service-stack/auth";
 *
 * console.log(linkedin.pkce); // false
 * ```
 */
export const linkedin: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "linkedin",
  name: "LinkedIn",
  issuer: "https://www.linkedin.com/oauth",
  authorizeURL: "https://www.linkedin.com/oauth/v2/authorization",
  accessToken: "https://www.linkedin.com/oauth/v2/accessToken",
  userInfo: "https://api.linkedin.com/v2/userinfo",
  jwksURI: "https://www.linkedin.com/oauth/openid/jwks",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
  scope: "openid profile email",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  pkce: false,
  nonce: false,
  profile: linkedinProfile,
  verifiesEmail: true,
}, oidcKit);
