/**
 * Every optional feature, in the order `createAuth` of `mod.ts` resolves them.
 *
 * @module
 */

import { email } from "./email.ts";
import type { AuthFeature } from "../config/feature.ts";
import { oidc } from "./oidc.ts";
import { passkeys } from "./passkeys.ts";
import { twoFactor } from "./two_factor.ts";
import { webCryptoKeys } from "./web_crypto_keys.ts";
import { apiKeys, serviceTokens } from "./service_tokens.ts";

export { email, oidc, passkeys, twoFactor, webCryptoKeys };
export { apiKeys, serviceTokens };

/**
 * Email, two-factor, passkeys, OpenID Connect, Web Crypto keys, service
 * tokens and API keys: what `createAuth` of `@service-stack/auth` always
 * includes.
 */
export const ALL_FEATURES: readonly AuthFeature[] = [
  email,
  twoFactor,
  passkeys,
  oidc,
  webCryptoKeys,
  serviceTokens,
  apiKeys,
];
