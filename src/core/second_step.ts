/**
 * What shared sign-in code knows of a second step, without the two-factor
 * feature: the value a first factor answers when a code is still due, and
 * where a browser goes for it.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { TwoFactorRequired } from "../config/feature.ts";

/** The one {@link TwoFactorRequired} value. */
export const TWO_FACTOR_REQUIRED: TwoFactorRequired = Object.freeze({ twoFactorRequired: true });

/** Whether a sign-in stopped before its second step. */
export function isTwoFactorRequired(value: unknown): value is TwoFactorRequired {
  return value === TWO_FACTOR_REQUIRED;
}

/** Where a browser goes for its second step: `pages.twoFactor`, else the built-in form. */
export function twoFactorPageURL(ctx: AuthContext): string {
  return ctx.twoFactorPage ?? `${ctx.basePath}/twoFactor`;
}
