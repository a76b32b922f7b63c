/**
 * Every optional feature, in the order `createAuth` of `mod.ts` resolves them.
 *
 * @module
 */

import { email } from "./email.ts";
import type { AuthFeature } from "../config/feature.ts";
import { passkeys } from "./passkeys.ts";
import { twoFactor } from "./two_factor.ts";

export { email, passkeys, twoFactor };

/** Email, two-factor and passkeys: what `createAuth` of `@service-stack/auth` always includes. */
export const ALL_FEATURES: readonly AuthFeature[] = [email, twoFactor, passkeys];
