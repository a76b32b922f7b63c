/**
 * The two-factor feature: TOTP and backup codes as a second step after
 * every first factor (`twoFactor` in the config).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { resolveTwoFactor } from "../config/two_factor.ts";
import { secondStepGate } from "../core/two_factor.ts";
import { route } from "../router.ts";
import {
  confirmRoute,
  disableRoute,
  enrollRoute,
  secondStepPageRoute,
  verifyRoute,
} from "../routes/two_factor.ts";
import type { AuthFeature } from "../config/feature.ts";
import { defineFeature } from "./feature.ts";

function hasTwoFactor(ctx: AuthContext): boolean {
  return ctx.twoFactor !== undefined;
}

/**
 * Two-factor sign-in (its routes, and the gate every first factor passes):
 * list it in `features` to use `twoFactor` with `createAuth` of `core.ts`.
 *
 * @example
 * ```ts
 * import { createAuth, twoFactor } from "@service-stack/auth/core";
 *
 * const factors = new Map<string, string>();
 * const auth = createAuth({
 *   oauth: [],
 *   features: [twoFactor],
 *   twoFactor: {
 *     load: (sub) => factors.get(sub) ?? null,
 *     save: (sub, value) => void (value === null ? factors.delete(sub) : factors.set(sub, value)),
 *   },
 * });
 * ```
 */
export const twoFactor: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "twoFactor",
  resolve: resolveTwoFactor,
  hooks: { secondStep: secondStepGate },
  routes: [
    /* @__PURE__ */ route("GET", "twoFactor", secondStepPageRoute, { enabled: hasTwoFactor }),
    /* @__PURE__ */ route("POST", "twoFactor/verify", verifyRoute, { enabled: hasTwoFactor }),
    /* @__PURE__ */ route("POST", "twoFactor/enroll", enrollRoute, { enabled: hasTwoFactor }),
    /* @__PURE__ */ route("POST", "twoFactor/confirm", confirmRoute, { enabled: hasTwoFactor }),
    /* @__PURE__ */ route("POST", "twoFactor/disable", disableRoute, { enabled: hasTwoFactor }),
  ],
});
