/**
 * The Web Crypto keys feature: `secret` may hold a `CryptoKey`, a
 * `CryptoKeyPair` or `{ sign, encrypt }` (or a list with them).
 *
 * @module
 */

import type { AuthFeature } from "../config/feature.ts";
import { WEB_CRYPTO_KEYS } from "../jose/_web_crypto_keys.ts";
import { defineFeature } from "./feature.ts";

/**
 * Web Crypto keys in `secret`: a `CryptoKey`, a `CryptoKeyPair` or
 * `{ sign, encrypt }`, alone or in a rotation list, with every algorithm
 * `createJose` supports (RS*, PS*, ES*, EdDSA, HS*, AES-GCM, AES-KW,
 * RSA-OAEP, ECDH-ES). List it in `features` to use such keys with
 * `createAuth` of `core.ts`; string and byte secrets need nothing, so an
 * app configured with them bundles none of that code.
 *
 * @example
 * ```ts
 * import { createAuth, github, webCryptoKeys } from "@service-stack/auth/core";
 *
 * const sign = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
 *   "sign",
 *   "verify",
 * ]);
 * const encrypt = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
 *   "encrypt",
 *   "decrypt",
 * ]);
 * const auth = createAuth({ oauth: [github], secret: { sign, encrypt }, features: [webCryptoKeys] });
 * ```
 */
export const webCryptoKeys: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "webCryptoKeys",
  // It serves no config key of its own: `secret` is read by the core, with its support.
  resolve: () => ({}),
  hooks: {},
  routes: [],
  webCrypto: WEB_CRYPTO_KEYS,
});
