/**
 * Cognito (OpenID Connect, configured by discovery from its issuer).
 *
 * Checked 2026-11-23 against
 * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-oidc-flow.html
 * and https://docs.aws.amazon.com/cognito/latest/developerguide/userinfo-endpoint.html:
 * The issuer is the user pool,
 * `https://cognito-idp.{region}.amazonaws.com/{userPoolId}`; the
 * endpoints live on the pool's domain and come from discovery.
 * Endpoints, JWKS and ID-token algorithms come from
 * `{issuer}/.well-known/openid-configuration`; scopes
 * `openid profile email`; client credentials by HTTP Basic; PKCE `S256`
 * supported. Email: `email_verified` comes as a boolean in the ID
 * token and as the string `"true"`/`"false"` from user info; the email
 * is used only when it says true.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";
import { canonicalIssuer } from "./_issuer.ts";

function configureCognito(options: BuiltInOptionValues): BuiltInSettings {
  if (options.issuer === undefined) return {};
  return {
    issuer: canonicalIssuer(options.issuer, {
      id: "cognito",
      trailingSlash: false,
      example: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123",
      pattern: /^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com\/[a-z0-9-]+_[A-Za-z0-9]+$/,
    }),
  };
}

/**
 * Maps Cognito's claims: `sub`, `name`, `picture`, and `email` only when
 * `email_verified` is `true` (also the string `"true"`).
 *
 * @example
 * ```ts
 * import { cognitoProfile } from "./cognito.ts";
 *
 * cognitoProfile({ sub: "aaaaaaaa-bbbb-cccc-dddd-example", email: "jane@example.com", email_verified: "true", name: "Jane" });
 * // { sub: "aaaaaaaa-bbbb-cccc-dddd-example", name: "Jane", email: "jane@example.com" }
 * ```
 */
export function cognitoProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Cognito", { requireVerified: true });
}

/**
 * The built-in Cognito provider (OpenID Connect): needs `issuer` (or
 * `COGNITO_ISSUER`), e.g. `https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123`; everything else comes from
 * discovery. Credentials come from `COGNITO_CLIENT_ID` /
 * `COGNITO_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { cognito } from "@service-stack/auth";
 *
 * console.log(cognito.options); // ["issuer"]
 * // createAuth({ oauth: [{ id: "cognito", issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123" }] })
 * ```
 */
export const cognito: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "cognito",
  name: "Cognito",
  scope: "openid profile email",
  responseType: "code",
  options: /* @__PURE__ */ Object.freeze(["issuer"] as const),
  configure: configureCognito,
  profile: cognitoProfile,
  verifiesEmail: true,
}, oidcKit);
