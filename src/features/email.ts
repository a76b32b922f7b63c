/**
 * The email feature: sign-in links and codes, verification, change of
 * address and password reset (`email` in the config).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { resolveEmail } from "../config/email.ts";
import { requestVerification } from "../core/email.ts";
import { route } from "../router.ts";
import {
  changeEmailRoute,
  emailCallbackRoute,
  emailLinkRoute,
  emailSignInRoute,
  forgotPasswordRoute,
  resetFormRoute,
  resetPasswordRoute,
  verifyEmailRoute,
} from "../routes/email.ts";
import type { AuthFeature } from "../config/feature.ts";
import { defineFeature } from "./feature.ts";

function hasEmail(ctx: AuthContext): boolean {
  return ctx.email !== undefined;
}

// What a password reset route's 404 names while it is off.
const RESET = "email and credentials.resetPassword";

function hasPasswordReset(ctx: AuthContext): boolean {
  return ctx.email !== undefined && ctx.resetPassword !== undefined;
}

/**
 * Email sign-in, verification, change of address and password reset: list
 * it in `features` to use `email` with `createAuth` of `core.ts`.
 *
 * @example
 * ```ts
 * import { createAuth, email } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [],
 *   features: [email],
 *   email: { send: (message) => console.log(message.to, message.url), findUser: () => null },
 * });
 * ```
 */
export const email: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "email",
  resolve: resolveEmail,
  hooks: { sendVerification: requestVerification },
  routes: [
    /* @__PURE__ */ route("POST", "signIn/email", emailSignInRoute, { enabled: hasEmail }),
    /* @__PURE__ */ route("GET", "callback/email", emailLinkRoute, { enabled: hasEmail }),
    /* @__PURE__ */ route("POST", "callback/email", emailCallbackRoute, { enabled: hasEmail }),
    /* @__PURE__ */ route("POST", "email/verify", verifyEmailRoute, { enabled: hasEmail }),
    /* @__PURE__ */ route("POST", "email/change", changeEmailRoute, { enabled: hasEmail }),
    /* @__PURE__ */ route("POST", "password/forgot", forgotPasswordRoute, {
      enabled: hasPasswordReset,
      needs: RESET,
    }),
    /* @__PURE__ */ route("GET", "password/reset", resetFormRoute, {
      enabled: hasPasswordReset,
      needs: RESET,
    }),
    /* @__PURE__ */ route("POST", "password/reset", resetPasswordRoute, {
      enabled: hasPasswordReset,
      needs: RESET,
    }),
  ],
});
