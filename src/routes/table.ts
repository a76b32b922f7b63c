/**
 * The route table's base: every route of the HTTP interface that is not an
 * optional feature's, declared once.
 *
 * @module
 */

import { type Route, route } from "../router.ts";
import { callbackRoute, formPostCallbackRoute } from "./callback.ts";
import { credentialsRoute } from "./credentials.ts";
import { csrfTokenRoute } from "./csrf_token.ts";
import { getSessionRoute, updateSessionRoute } from "./session.ts";
import { signInRoute } from "./sign_in.ts";
import { signOutRoute } from "./sign_out.ts";
import { signUpRoute } from "./sign_up.ts";

/**
 * The routes every instance has, relative to `basePath`; each optional
 * feature (`src/features/`) brings its own, and the handler joins them.
 */
export const BASE_ROUTES: readonly Route[] = /* @__PURE__ */ Object.freeze([
  route("GET", "session", getSessionRoute),
  route("POST", "session", updateSessionRoute),
  route("PATCH", "session", updateSessionRoute),
  route("GET", "csrfToken", csrfTokenRoute),
  route("POST", "signIn/credentials", credentialsRoute, {
    enabled: (ctx) => ctx.authorize !== undefined,
    needs: "credentials.authorize",
  }),
  route("GET", "signIn/:provider", signInRoute),
  route("GET", "callback/:provider", callbackRoute),
  // A form_post provider posts the response from its own site: `state` is this route's CSRF check.
  route("POST", "callback/:provider", formPostCallbackRoute, {
    enabled: (ctx) => ctx.oidc.formPost,
    anyOrigin: true,
    needs: 'a provider with responseMode: "form_post"',
  }),
  route("POST", "signUp", signUpRoute, {
    enabled: (ctx) => ctx.onCreateUser !== undefined,
    needs: "signUp.onCreateUser",
  }),
  route("POST", "signOut", signOutRoute),
]);
