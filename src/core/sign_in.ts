/**
 * Signing in: calling application code safely, credentials sign-in, and
 * turning a user into a session plus a fresh CSRF cookie (shared by
 * credentials sign-in, sign-up and the OAuth callback).
 *
 * @module
 */

import type { AuthContext, Credentials } from "../config.ts";
import { readChunkedCookie } from "../cookies/chunks.ts";
import { AuthError } from "../errors.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { failingFields, validateWith } from "../standard_schema.ts";
import type { Session } from "../types.ts";
import { callApp } from "./call_app.ts";
import { issueCsrfToken } from "./csrf.ts";
import { issueSession, type UserSource, validateUser } from "./session.ts";

/**
 * Validates the user, issues the session and a CSRF token bound to it, and
 * adds their cookies to the response. A session cookie the request still
 * carries is evicted from the cache by its exact value, without decoding it.
 */
export async function startSession(
  ctx: AuthContext,
  http: HttpContext,
  value: unknown,
  options: { source: UserSource } = { source: "app" },
): Promise<Session> {
  const user = await validateUser(ctx, value, options);
  const issued = await issueSession(ctx, http, user);
  const previous = readChunkedCookie(http.jar.sessionToken.name, http.cookies);
  if (previous !== undefined) ctx.sessionCache.delete(previous);
  const csrf = await issueCsrfToken(ctx, http, issued.payload.jti);
  http.setCookies.push(...issued.cookies, csrf.cookie);
  return issued.session;
}

/** Credentials sign-in, shared by the route and `api.signIn("credentials")`. */
export async function signInWithCredentials(
  ctx: AuthContext,
  http: HttpContext,
  credentials: Credentials,
): Promise<Session> {
  const authorize = ctx.authorize;
  if (!authorize) {
    throw new AuthError(
      "invalid_request",
      "Credentials sign-in is not configured; expected credentials.authorize in createAuth.",
      { status: 404 },
    );
  }
  const user = await callApp(
    ctx,
    "credentials.authorize",
    () => authorize(credentials, http.request),
  );
  if (user === null || user === undefined) {
    ctx.logger.log("info", "credentials sign-in refused", clientDetails(ctx, http));
    throw new AuthError("access_denied", "Wrong username or password.");
  }
  return await startSession(ctx, http, user);
}

/**
 * Sign-up: validates the payload with `signUp.schema` (when set), creates
 * the user with `signUp.onCreateUser`, and starts the session.
 */
export async function signUp(
  ctx: AuthContext,
  http: HttpContext,
  body: Record<string, unknown>,
): Promise<Session> {
  const onCreateUser = ctx.onCreateUser;
  if (!onCreateUser) {
    throw new AuthError(
      "invalid_request",
      "Sign-up is not configured; expected signUp.onCreateUser in createAuth.",
      { status: 404 },
    );
  }
  let payload = body;
  const schema = ctx.signUpSchema;
  if (schema) {
    const result = await callApp(ctx, "signUp.schema", () => validateWith(schema, payload));
    if (!result.ok) {
      throw new AuthError(
        "invalid_request",
        `The sign-up data is invalid${failingFields(result)}.`,
      );
    }
    payload = result.value;
  }
  const user = await callApp(ctx, "signUp.onCreateUser", () => onCreateUser(payload, http.request));
  return await startSession(ctx, http, user);
}
