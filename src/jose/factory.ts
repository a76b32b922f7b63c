/**
 * `createJose`: one configured JOSE object per key (or key list) and purpose.
 *
 * @module
 */

import { buildJose } from "./_jose.ts";
import { checkOptions } from "./_options.ts";
import { WEB_CRYPTO_KEYS } from "./_web_crypto_keys.ts";
import { resolveKeySources } from "./keys.ts";
import type { Jose, JoseOptions, JWTKey } from "./types.ts";

/**
 * Creates a JOSE object for one key (or a list of keys) and one purpose.
 *
 * Synchronous: the keys and options are validated now (an empty list, a
 * secret under 32 bytes, or a lone `CryptoKey`/`CryptoKeyPair` in `sealed`
 * mode, throws a `JoseError` with code `ERR_JOSE_KEY_INVALID`); keys are
 * derived or prepared on first use, once.
 *
 * Keys: a string or byte secret derives, with HKDF-SHA-256 (salt `salt` or
 * SHA-256 of the secret; info `@service-stack/auth {purpose} signing|encryption`),
 * an HS256 key and an A256GCM (`dir`) key. A `CryptoKey`, `CryptoKeyPair` or
 * `{ sign, encrypt }` is used as is and pins its algorithm: HMAC gives
 * HS256/384/512, RSASSA-PKCS1-v1_5 RS*, RSA-PSS PS*, ECDSA ES256/384/512,
 * Ed25519 EdDSA, AES-GCM `dir` + A{len}GCM, AES-KW A128KW/A256KW + A256GCM,
 * RSA-OAEP (SHA-256) RSA-OAEP-256 + A256GCM, ECDH ECDH-ES+A256KW + A256GCM.
 * Pairs sign and decrypt with `privateKey`, verify and encrypt with `publicKey`.
 *
 * The `typ` header is `JWT` for purpose `session` and `{purpose}+jwt`
 * otherwise, and decoding checks it on every header, so tokens of one purpose
 * never pass as another even when keys are shared.
 *
 * Rotation: `key` may be a non-empty list, newest first. The first key makes
 * every token; every key reads. Every header written (the JWS, and the JWE in
 * `sealed` and `encrypted` modes) carries a `kid` naming its key, and decoding
 * picks the key by it: keys are never tried one by one, and a `kid` no key
 * has is refused with `ERR_JOSE_KID_UNKNOWN` before any crypto. A token
 * without `kid` (made by version 0.1.0 or another library) is read with the
 * first key only. Each `kid` is computed once, on first use, and reveals
 * nothing of the key:
 * - string or byte secret: 64 bits of HKDF-SHA-256 (the same salt as the
 *   keys, info `@service-stack/auth {purpose} kid`), base64url (11 characters);
 * - HMAC key: the first 8 bytes of HMAC(key, `@service-stack/auth kid`);
 *   AES-GCM key: the first 8 bytes of the tag of an empty message under a
 *   zero IV with that label as AAD; AES-KW key: the first 8 bytes of the
 *   label's first 16 bytes wrapped; each base64url (11 characters);
 * - asymmetric key or pair: the RFC 7638 SHA-256 thumbprint of the public key
 *   (43 characters), as JWKS publishers commonly use;
 * - a key none of these can read (a non-extractable private key given alone,
 *   a non-extractable imported public key, a decrypt-only AES key): no `kid`,
 *   so its tokens read with the first key only; give such keys their usage or
 *   make them extractable before rotating them.
 *
 * @param key The secret or keys, or a list of them, newest first.
 * @param options Mode, purpose, salt, lifetimes, clock, issuer, audience.
 * @returns The JOSE object.
 *
 * @example
 * ```ts
 * import { createJose } from "@service-stack/auth/jose";
 * const jose = createJose("a-secret-of-at-least-thirty-two-bytes!!");
 * const token = await jose.encodeJWT({ sub: "user-1" });
 * const claims = await jose.decodeJWT(token); // { sub: "user-1", iat, nbf, exp, jti }
 * ```
 *
 * @example Rotation: a new secret first, the old one still read
 * ```ts
 * import { createJose } from "@service-stack/auth/jose";
 * const oldSecret = "the-previous-secret-of-at-least-32-bytes";
 * const newSecret = "the-current-secret-of-at-least-32-bytes!";
 * const before = await createJose(oldSecret).encodeJWT({ sub: "user-1" });
 * const jose = createJose([newSecret, oldSecret]);
 * await jose.decodeJWT(before); // still valid
 * const after = await jose.encodeJWT({ sub: "user-1" }); // made with newSecret
 * ```
 */
export function createJose(key: JWTKey | readonly JWTKey[], options: JoseOptions = {}): Jose {
  const checked = checkOptions(options);
  const sources = resolveKeySources(key, checked.mode, {
    salt: options.salt,
    webCrypto: WEB_CRYPTO_KEYS,
  });
  return buildJose(sources, { ...checked, issuer: options.issuer, audience: options.audience });
}
