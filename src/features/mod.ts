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

export { email, oidc, passkeys, twoFactor };

/**
 * Email, two-factor, passkeys and OpenID Connect: what `createAuth` of
 * `@service-stack/auth` always includes.
 */
export const ALL_FEATURES: readonly AuthFeature[] = [email, twoFactor, passkeys, oidc];
