/**
 * `createAuth` without the table of built-in providers by id and without
 * the optional features, for apps that are bundled: each provider is passed
 * as an object (`oauth: [github]`) and each feature the app uses is listed
 * (`features: [email]`), so a bundle holds only what the app imports.
 * OpenID Connect (discovery, JWKS, ID tokens) comes along only with a
 * provider that uses it: a built-in one (`google`, `okta`, ...) brings it,
 * a custom provider with an `issuer` needs `features: [oidc]`. Secrets
 * given as strings or bytes need nothing more; Web Crypto keys in `secret`
 * (`CryptoKey`, `CryptoKeyPair`, `{ sign, encrypt }`) need
 * `features: [webCryptoKeys]`, which brings the asymmetric and JWE key
 * management code. Everything else works as with `createAuth` from
 * `@service-stack/auth`.
 *
 * @example
 * ```ts
 * import { createAuth, github } from "@service-stack/auth/core";
 *
 * const auth = createAuth({ oauth: [github] }); // credentials from GITHUB_CLIENT_ID/_SECRET
 * Deno.serve((request) => auth.handlers.ALL(request));
 * ```
 *
 * @module
 */

import { type Auth, authWith, type Included } from "./src/create_auth.ts";
import type { AuthConfig } from "./src/config.ts";
import type { User } from "./src/types.ts";

export type { Auth, AuthHandlers } from "./src/create_auth.ts";
export type { AuthConfig, AuthFeature } from "./src/config.ts";
export { email, oidc, passkeys, twoFactor, webCryptoKeys } from "./src/features/mod.ts";
export { apiKeys, serviceTokens } from "./src/features/mod.ts";
export * from "./src/oauth/providers/all.ts";

// Neither built-in providers by id nor features beyond those the config lists.
const INCLUDED: Included = { builtIns: {}, features: [] };

/**
 * Creates an instance, like `createAuth` from `@service-stack/auth`, except
 * that a provider is given as an object, never by id: a built-in one as
 * exported here (`github`, or `{ ...okta, issuer }` with options and
 * overrides), or a custom one. A provider id string throws a `TypeError`
 * naming the object to pass. Options (`issuer`, `tenant`, ...) and
 * credentials still come from the entry or the environment. Email sign-in,
 * two-factor and passkeys work only when their feature (`email`,
 * `twoFactor`, `passkeys`, exported here) is in `features`; their config key
 * without it throws a `TypeError` naming the import. A built-in OpenID
 * Connect provider brings the OpenID Connect code with its object; a custom
 * provider with an `issuer` needs the `oidc` feature, and without it throws
 * a `TypeError` naming the import. Likewise a `secret` that is, or a list
 * that holds, a `CryptoKey`, a `CryptoKeyPair` or `{ sign, encrypt }` needs
 * `webCryptoKeys` in `features`: string and byte secrets (HS256 and `dir` +
 * A256GCM keys derived with HKDF) bring no asymmetric or key-management
 * code into the bundle.
 *
 * @example
 * ```ts
 * import { createAuth, github, okta } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [github, { ...okta, issuer: "https://dev-1.okta.com" }],
 *   secret: Deno.env.get("AUTH_SECRET"),
 * });
 * ```
 *
 * @example
 * ```ts
 * import { createAuth, github, twoFactor } from "@service-stack/auth/core";
 *
 * const factors = new Map<string, string>(); // your user records
 * const auth = createAuth({
 *   oauth: [github],
 *   features: [twoFactor],
 *   twoFactor: {
 *     load: (sub) => factors.get(sub) ?? null,
 *     save: (sub, value) => void (value === null ? factors.delete(sub) : factors.set(sub, value)),
 *   },
 * });
 * ```
 *
 * @example
 * ```ts
 * import { createAuth, google, oidc } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [
 *     google, // brings OpenID Connect itself
 *     { id: "corp", name: "Corp", issuer: "https://id.corp.example", clientId: "id", clientSecret: "secret" },
 *   ],
 *   features: [oidc], // for "corp", a custom provider with an issuer
 * });
 * ```
 *
 * @example Web Crypto keys as the secret
 * ```ts
 * import { createAuth, github, webCryptoKeys } from "@service-stack/auth/core";
 *
 * const { privateKey, publicKey } = await crypto.subtle.generateKey("Ed25519", false, [
 *   "sign",
 *   "verify",
 * ]) as CryptoKeyPair;
 * const auth = createAuth({
 *   oauth: [github],
 *   secret: { privateKey, publicKey },
 *   jwt: { mode: "signed" },
 *   features: [webCryptoKeys],
 * });
 * ```
 */
export function createAuth<
  U extends User = User,
  P extends Record<string, unknown> = Record<string, unknown>,
>(config: AuthConfig<U, P>): Auth<U> {
  return authWith(config, INCLUDED);
}
