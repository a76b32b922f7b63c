/**
 * The route table: every route of the HTTP interface, declared once.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { type Route, route } from "../router.ts";
import { callbackRoute, formPostCallbackRoute } from "./callback.ts";
import { credentialsRoute } from "./credentials.ts";
import { csrfTokenRoute } from "./csrf_token.ts";
import {
  changeEmailRoute,
  emailCallbackRoute,
  emailLinkRoute,
  emailSignInRoute,
  forgotPasswordRoute,
  resetFormRoute,
  resetPasswordRoute,
  verifyEmailRoute,
} from "./email.ts";
import { getSessionRoute, updateSessionRoute } from "./session.ts";
import { signInRoute } from "./sign_in.ts";
import { signOutRoute } from "./sign_out.ts";
import { signUpRoute } from "./sign_up.ts";
import {
  confirmRoute,
  disableRoute,
  enrollRoute,
  secondStepPageRoute,
  verifyRoute,
} from "./two_factor.ts";

function hasEmail(ctx: AuthContext): boolean {
  return ctx.email !== undefined;
}

function hasTwoFactor(ctx: AuthContext): boolean {
  return ctx.twoFactor !== undefined;
}

function hasPasswordReset(ctx: AuthContext): boolean {
  return ctx.email !== undefined && ctx.resetPassword !== undefined;
}

/** Every route, relative to `basePath`. */
export const ROUTES: readonly Route[] = Object.freeze([
  route("GET", "session", getSessionRoute),
  route("POST", "session", updateSessionRoute),
  route("PATCH", "session", updateSessionRoute),
  route("GET", "csrfToken", csrfTokenRoute),
  route("POST", "signIn/credentials", credentialsRoute, {
    enabled: (ctx) => ctx.authorize !== undefined,
  }),
  route("GET", "signIn/:provider", signInRoute),
  route("GET", "callback/:provider", callbackRoute),
  // A form_post provider posts the response from its own site: `state` is this route's CSRF check.
  route("POST", "callback/:provider", formPostCallbackRoute, {
    enabled: (ctx) => ctx.oidc.formPost,
    anyOrigin: true,
  }),
  route("POST", "signIn/email", emailSignInRoute, { enabled: hasEmail }),
  route("GET", "callback/email", emailLinkRoute, { enabled: hasEmail }),
  route("POST", "callback/email", emailCallbackRoute, { enabled: hasEmail }),
  route("POST", "email/verify", verifyEmailRoute, { enabled: hasEmail }),
  route("POST", "email/change", changeEmailRoute, { enabled: hasEmail }),
  route("POST", "password/forgot", forgotPasswordRoute, { enabled: hasPasswordReset }),
  route("GET", "password/reset", resetFormRoute, { enabled: hasPasswordReset }),
  route("POST", "password/reset", resetPasswordRoute, { enabled: hasPasswordReset }),
  route("GET", "twoFactor", secondStepPageRoute, { enabled: hasTwoFactor }),
  route("POST", "twoFactor/verify", verifyRoute, { enabled: hasTwoFactor }),
  route("POST", "twoFactor/enroll", enrollRoute, { enabled: hasTwoFactor }),
  route("POST", "twoFactor/confirm", confirmRoute, { enabled: hasTwoFactor }),
  route("POST", "twoFactor/disable", disableRoute, { enabled: hasTwoFactor }),
  route("POST", "signUp", signUpRoute, { enabled: (ctx) => ctx.onCreateUser !== undefined }),
  route("POST", "signOut", signOutRoute),
]);
