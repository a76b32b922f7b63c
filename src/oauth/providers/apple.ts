/**
 * Sign in with Apple (OpenID Connect, `form_post`).
 *
 * Checked 2026-11-23 against
 * https://developer.apple.com/documentation/signinwithapplerestapi/request-an-authorization-to-the-sign-in-with-apple-server.,
 * https://developer.apple.com/documentation/accountorganizationaldatasharing/creating-a-client-secret
 * and https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple:
 * issuer `https://appleid.apple.com`, `RS256` ID tokens from
 * `/auth/keys`; no user-info endpoint, everything is in the ID token;
 * `response_mode=form_post` is required when asking for `name` or `email`;
 * the client secret is an ES256 JWT signed with the `.p8` key and sent in
 * the body (`client_secret_post`); PKCE `S256` is enforced once sent.
 * Email: `email_verified` is a boolean or the string `"true"`/`"false"`
 * (Apple at Work & School addresses may be unverified); the email is used
 * only when it says true. Apple's ID token has no name: Apple posts it,
 * on the first sign-in only, as `{ "name": { "firstName", "lastName" } }`
 * JSON in the `user` form field beside the code. That field is not signed;
 * it reaches the callback bound to the flow by `state` like the code, so
 * its name is mapped (as display data), its email never.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type {
  BuiltInOptionValues,
  BuiltInProvider,
  BuiltInSettings,
  ProfileContext,
} from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser, readText } from "../profile.ts";
import { appleClientSecret } from "./_apple_client_secret.ts";

export { appleClientSecret, type AppleClientSecretOptions } from "./_apple_client_secret.ts";

/**
 * Maps Apple's ID-token claims: `sub`, and `email` only when
 * `email_verified` is `true` or `"true"`; `name` from the `user` object
 * Apple posts on the first sign-in (`firstName` and `lastName`), when the
 * context has one. Apple gives no picture.
 *
 * @example
 * ```ts
 * import { appleProfile } from "./apple.ts";
 *
 * appleProfile({ sub: "001234.abcd.1234", email: "x@privaterelay.appleid.com", email_verified: "true" });
 * // { sub: "001234.abcd.1234", email: "x@privaterelay.appleid.com" }
 * appleProfile({ sub: "001234.abcd.1234" }, {
 *   postedUser: { name: { firstName: "Ada", lastName: "Lovelace" }, email: "ignored@example.com" },
 * });
 * // { sub: "001234.abcd.1234", name: "Ada Lovelace" }
 * ```
 */
export function appleProfile(
  claims: Record<string, unknown>,
  context?: Pick<ProfileContext, "postedUser">,
): User {
  const user = oidcUser(claims, "Apple", { requireVerified: true });
  const name = postedName(context?.postedUser);
  return name === undefined ? user : { ...user, name };
}

/** "firstName lastName" from Apple's posted `user` object; either part may be missing. */
function postedName(posted: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const name = posted?.name;
  if (typeof name !== "object" || name === null) return undefined;
  const { firstName, lastName } = name as Record<string, unknown>;
  const parts = [readText(firstName), readText(lastName)].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : readText(parts.join(" "));
}

/**
 * Builds Apple's client secret from `teamId`, `keyId` and `privateKey`
 * (entry or `APPLE_TEAM_ID`, `APPLE_KEY_ID`, `APPLE_PRIVATE_KEY`). With none
 * of them, the secret comes from `clientSecret` / `APPLE_CLIENT_SECRET` (a
 * JWT made elsewhere); with some but not all, a `TypeError` names the rest.
 */
function configureApple(options: BuiltInOptionValues): BuiltInSettings {
  const { teamId, keyId, privateKey, clientId } = options;
  const given = { teamId, keyId, privateKey };
  const missing = Object.entries(given).filter(([, value]) => value === undefined);
  if (missing.length === 3) return {};
  if (missing.length > 0) {
    const names = missing.map(([name]) => name).join(", ");
    throw new TypeError(
      `createAuth: provider "apple" needs ${names} to sign its client secret; expected teamId, keyId and privateKey (or APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY).`,
    );
  }
  try {
    return {
      clientSecret: appleClientSecret({
        teamId: teamId!,
        keyId: keyId!,
        privateKey: privateKey!,
        clientId,
      }),
    };
  } catch (error) {
    if (error instanceof TypeError) throw new TypeError(`createAuth: ${error.message}`);
    throw error;
  }
}

/**
 * The built-in Apple provider (OpenID Connect): scopes `openid name email`,
 * `response_mode=form_post`, the ES256 client secret signed from `teamId`,
 * `keyId` and `privateKey` (or `APPLE_TEAM_ID`, `APPLE_KEY_ID`,
 * `APPLE_PRIVATE_KEY`). The client id (`APPLE_CLIENT_ID`) is the Services
 * ID.
 *
 * @example
 * ```ts
 * import { apple } from "@service-stack/auth";
 *
 * console.log(apple.responseMode); // "form_post"
 * // createAuth({ oauth: [{ id: "apple", teamId: "ABCDE12345", keyId: "XYZ9876543", privateKey: p8 }] })
 * ```
 */
export const apple: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "apple",
  name: "Apple",
  issuer: "https://appleid.apple.com",
  authorizeURL: "https://appleid.apple.com/auth/authorize",
  accessToken: "https://appleid.apple.com/auth/token",
  jwksURI: "https://appleid.apple.com/auth/keys",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
  scope: "openid name email",
  responseType: "code",
  responseMode: "form_post",
  clientAuthMethod: "client_secret_post",
  options: /* @__PURE__ */ Object.freeze(["teamId", "keyId", "privateKey"] as const),
  configure: configureApple,
  profile: appleProfile,
  verifiesEmail: true,
}, oidcKit);
