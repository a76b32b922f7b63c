/**
 * `joseForPurpose`: the JOSE object the authentication core uses for each
 * kind of token, with the protection the given key allows for that kind.
 *
 * @module
 */

import { buildJose } from "./_jose.ts";
import { checkOptions } from "./_options.ts";
import { WEB_CRYPTO_KEYS } from "./_web_crypto_keys.ts";
import { resolveKeySources, type WebCryptoKit } from "./keys.ts";
import type { Jose, JoseOptions, JWTKey, JWTMode } from "./types.ts";

/** The kinds of token the authentication core makes. */
export type TokenPurpose =
  | "session"
  | "csrf"
  | "oauth-flow"
  | "email"
  | "two-factor"
  | "passkey"
  | "provider-tokens";

/** Options of {@link joseForPurpose}: those of `createJose` with a required purpose. */
export interface PurposeOptions extends Omit<JoseOptions, "mode" | "purpose"> {
  /**
   * What the tokens are for: `"session"`, `"csrf"`, `"oauth-flow"`, `"email"`
   * (email links and codes), `"two-factor"` (the pending second step and the
   * sealed factor) or `"passkey"` (WebAuthn challenges), or `"provider-tokens"` (linked
   * accounts' sealed provider tokens).
   */
  purpose: TokenPurpose;
  /** The configured `jwt.mode`. It decides session tokens only; default `"sealed"`. */
  mode?: JWTMode;
}

const PURPOSES: readonly TokenPurpose[] = [
  "session",
  "csrf",
  "oauth-flow",
  "email",
  "two-factor",
  "passkey",
  "provider-tokens",
];

/**
 * The mode tokens of a purpose get with this key: see {@link joseForPurpose}.
 * `webCrypto` tells what a Web Crypto key can do; without it every key is a secret.
 */
export function purposeMode(
  key: unknown,
  purpose: TokenPurpose,
  sessionMode: JWTMode,
  webCrypto: WebCryptoKit | undefined,
): JWTMode {
  if (purpose === "session") return sessionMode;
  const kind = webCrypto?.kindOf(key);
  if (kind === "encryption") return "encrypted";
  // CSRF tokens are handed to the page anyway: they need integrity, not secrecy.
  if (purpose === "csrf") return "signed";
  return kind === "asymmetric" ? "signed" : "sealed";
}

/**
 * Creates the JOSE object for one kind of token, protected as well as the
 * key allows. The first key of a list decides (the others must fit the same
 * mode); `typ` differs per purpose and is checked on every header, so a
 * token of one purpose never passes as another even when they share a key.
 *
 * The `oauth-flow` column holds for `email`, `two-factor` and `passkey` too.
 *
 * | first key                                     | session | csrf        | oauth-flow         |
 * | --------------------------------------------- | ------- | ----------- | ------------------ |
 * | string or byte secret, or `{ sign, encrypt }` | `mode`  | `signed`    | `sealed`           |
 * | AES-GCM, AES-KW, RSA-OAEP or ECDH key or pair | `mode`  | `encrypted` | `encrypted`        |
 * | HMAC key                                      | `mode`  | `signed`    | `sealed` (derived) |
 * | RSA, ECDSA or Ed25519 key or pair             | `mode`  | `signed`    | `signed`, readable |
 *
 * Session tokens follow `mode` exactly as {@link createJose} does, so a lone
 * key still needs `mode: "signed"` or `"encrypted"` to match it. With a lone
 * HMAC key, flow tokens are signed with it and encrypted (`dir` + A256GCM)
 * with a key derived from it: the first 32 bytes of
 * HMAC(key, `@service-stack/auth {purpose} encryption`), computed once, on
 * first use (the key needs its `sign` usage). No JWS signing input can equal
 * that label, so no token ever carries the derived key.
 *
 * Note (lone asymmetric signing key): nothing secret can be derived from an
 * RSA, ECDSA or Ed25519 key, so OAuth flow cookies are signed only. They
 * cannot be forged or swapped, but their contents (the OAuth `state`, the
 * PKCE code verifier, the return URL) are readable by whoever holds the
 * cookie. The verifier is safe only as long as the cookie is: pass
 * `{ sign, encrypt }` or a string secret to keep it encrypted.
 *
 * Note (lone RSA-OAEP or ECDH key): anyone holding the public key can
 * encrypt, so tokens stay unforgeable only while the public key stays private.
 *
 * @param key The configured secret or keys, or a list of them, newest first.
 * @param options The purpose, the configured `jwt.mode`, and the options of `createJose`.
 * @returns The JOSE object for that purpose.
 * @throws {TypeError} For an unknown purpose or invalid options.
 * @throws {JoseError} `ERR_JOSE_KEY_INVALID` for an unusable key, as `createJose` does.
 *
 * @example
 * ```ts
 * import { joseForPurpose } from "@service-stack/auth/jose";
 * const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
 *   "encrypt",
 *   "decrypt",
 * ]);
 * const session = joseForPurpose(key, { purpose: "session", mode: "encrypted" });
 * const csrf = joseForPurpose(key, { purpose: "csrf", mode: "encrypted" });
 * const token = await csrf.encodeJWT({ sid: "abc" });
 * await csrf.decodeJWT(token); // { sid: "abc", ... }
 * await session.decodeJWT(token).catch((error) => error.code); // "ERR_JOSE_TYP_MISMATCH"
 * ```
 */
export function joseForPurpose(key: JWTKey | readonly JWTKey[], options: PurposeOptions): Jose {
  return purposeJose(key, options, WEB_CRYPTO_KEYS);
}

/**
 * {@link joseForPurpose} with Web Crypto keys supported only when
 * `webCrypto` is given: without it, only string and byte secrets are keys
 * (`createAuth` of `core.ts` without the `webCryptoKeys` feature).
 */
export function purposeJose(
  key: JWTKey | readonly JWTKey[],
  options: PurposeOptions,
  webCrypto: WebCryptoKit | undefined,
): Jose {
  const purpose = options?.purpose;
  if (!PURPOSES.includes(purpose)) {
    throw new TypeError(
      `The purpose ${
        JSON.stringify(purpose)
      } is unknown; expected "session", "csrf", "oauth-flow", "email", "two-factor", "passkey" or "provider-tokens".`,
    );
  }
  const first = Array.isArray(key) ? key[0] : key;
  const checked = checkOptions({
    ...options,
    mode: purposeMode(first, purpose, options.mode ?? "sealed", webCrypto),
  });
  const sources = resolveKeySources(key, checked.mode, {
    salt: options.salt,
    sealWithHmac: purpose !== "session" && purpose !== "csrf",
    webCrypto,
  });
  return buildJose(sources, { ...checked, issuer: options.issuer, audience: options.audience });
}
