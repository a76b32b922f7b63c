/**
 * The email routes: `POST /signIn/email`, `GET|POST /callback/email`,
 * `POST /email/verify`, `POST /email/change`, `POST /password/forgot`,
 * `GET|POST /password/reset`.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { bodyRedirectTo, isFormPost, onlyKeys } from "./_body.ts";
import { browserFailure } from "../core/browser_failure.ts";
import {
  checkedAddress,
  confirmEmailCode,
  confirmEmailToken,
  requestEmailChange,
  requestEmailSignIn,
  requestPasswordReset,
  requestVerification,
  resetPassword,
  resetTokenIsValid,
} from "../core/email.ts";
import { guardMutation, guardSessionMutation } from "../core/guard.ts";
import { finish, redirectIntent } from "../core/redirects.ts";
import { userFromPayload } from "../core/session.ts";
import { isTwoFactorRequired, twoFactorPageURL } from "../core/two_factor.ts";
import { openEmailToken } from "../email/token.ts";
import { confirmationPage, donePage, resetFormPage } from "../email/pages.ts";
import { AuthError } from "../errors.ts";
import { jsonResponse, readBody, redirectResponse, singleParam } from "../http.ts";
import type { HttpContext } from "../http_context.ts";

const OK = /* @__PURE__ */ Object.freeze({ ok: true });

/** `POST /signIn/email` `{ email, redirectTo? }`: 200 `{ ok: true }` for every well-formed address. */
export async function emailSignInRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  const body = await guarded.body();
  onlyKeys(body, ["email", "redirectTo"]);
  const redirectTo = (await bodyRedirectTo(http, body.redirectTo, intent)) ?? undefined;
  await requestEmailSignIn(ctx, http, { email: checkedAddress(body.email), redirectTo });
  return finish(http, { redirect: intent.redirect, redirectTo: intent.redirectTo }, {
    body: OK,
    status: 200,
  });
}

/** `GET /callback/email?token=...`: a confirmation page; nothing is used up. */
export async function emailLinkRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  try {
    const token = singleParam(http.url.searchParams, "token");
    const opened = await openEmailToken(ctx.emailJose, token, [
      "sign-in",
      "verify-email",
      "change-email",
    ], http.now);
    if (opened === null || token === null) {
      throw new AuthError(
        "invalid_grant",
        "This link is invalid or has expired; ask for a new one.",
      );
    }
    return confirmationPage(http, {
      kind: opened.kind as "sign-in" | "verify-email" | "change-email",
      action: `${ctx.basePath}/callback/email`,
      token,
      appName: ctx.email?.appName,
    });
  } catch (error) {
    return browserFailure(ctx, http, { error, route: "GET /callback/email" });
  }
}

/**
 * `POST /callback/email` `{ token }` or `{ code }`: signs in (302 to the
 * flow's target for a form post, 200 `Session` for JSON), or confirms a
 * verification or change (302 to `/` for a form post, 200 `{ ok: true }`).
 */
export async function emailCallbackRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const form = isFormPost(http);
  try {
    const body = await readBody(http.request);
    onlyKeys(body, ["token", "code"]);
    if ((body.token === undefined) === (body.code === undefined)) {
      throw new AuthError(
        "invalid_request",
        'The body needs "token" or "code"; expected one of them.',
      );
    }
    if (body.code !== undefined) {
      const done = await confirmEmailCode(ctx, http, body.code);
      return signedIn(ctx, http, form, done);
    }
    const done = await confirmEmailToken(ctx, http, { token: body.token });
    if (done.kind === "sign-in") return signedIn(ctx, http, form, done);
    return form ? redirectResponse(http, "/") : jsonResponse(http, OK, 200);
  } catch (error) {
    if (form) return browserFailure(ctx, http, { error, route: "POST /callback/email" });
    throw error;
  }
}

/**
 * The answer of an email sign-in: the session (a 302 to the target for a
 * form post), or `{ twoFactorRequired: true }` (a 302 to the second-step
 * page for a form post) when the user must still give a code.
 */
function signedIn(
  ctx: AuthContext,
  http: HttpContext,
  form: boolean,
  done: { session: unknown; redirectTo?: string },
): Response {
  if (!form) return jsonResponse(http, done.session, 200);
  const pending = isTwoFactorRequired(done.session);
  return redirectResponse(http, pending ? twoFactorPageURL(ctx) : done.redirectTo ?? "/");
}

/** `POST /email/verify` (session, CSRF): a verification link to the session's address. */
export async function verifyEmailRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const { session, body } = await guardSessionMutation(ctx, http);
  const intent = await redirectIntent(http);
  onlyKeys(await body({ optional: true }), []);
  const user = userFromPayload(session.payload);
  await requestVerification(ctx, http, user);
  return finish(http, intent, { body: OK, status: 200 });
}

/** `POST /email/change` `{ email }` (session, CSRF): a confirmation link to the new address. */
export async function changeEmailRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const { session, body } = await guardSessionMutation(ctx, http);
  const intent = await redirectIntent(http);
  const read = await body();
  onlyKeys(read, ["email"]);
  await requestEmailChange(ctx, http, { session, email: read.email });
  return finish(http, intent, { body: OK, status: 200 });
}

/** `POST /password/forgot` `{ email }` (CSRF): 200 `{ ok: true }` whatever the address. */
export async function forgotPasswordRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const guarded = await guardMutation(ctx, http);
  const intent = await redirectIntent(http);
  const body = await guarded.body();
  onlyKeys(body, ["email"]);
  await requestPasswordReset(ctx, http, body.email);
  return finish(http, intent, { body: OK, status: 200 });
}

/** `GET /password/reset?token=...`: the built-in form (the token is checked, not used). */
export async function resetFormRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  try {
    const token = singleParam(http.url.searchParams, "token");
    if (token === null || !(await resetTokenIsValid(ctx, token, http.now))) {
      throw new AuthError(
        "invalid_grant",
        "This reset link is invalid or has expired; ask for a new one.",
      );
    }
    return resetFormPage(http, {
      action: `${ctx.basePath}/password/reset`,
      token,
      appName: ctx.email?.appName,
    });
  } catch (error) {
    return browserFailure(ctx, http, { error, route: "GET /password/reset" });
  }
}

/** `POST /password/reset` `{ token, password }`: 200 `{ ok: true }` (a page for a form post); signs nobody in. */
export async function resetPasswordRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const form = isFormPost(http);
  try {
    const body = await readBody(http.request);
    onlyKeys(body, ["token", "password"]);
    await resetPassword(ctx, http, { token: body.token, password: body.password });
    return form
      ? donePage(http, {
        title: "Your password was changed",
        text: "Sign in with your new password.",
        next: "/",
        appName: ctx.email?.appName,
      })
      : jsonResponse(http, OK, 200);
  } catch (error) {
    if (form) return browserFailure(ctx, http, { error, route: "POST /password/reset" });
    throw error;
  }
}
