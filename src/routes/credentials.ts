/**
 * `POST /signIn/credentials`: username and password through `credentials.authorize`.
 *
 * @module
 */

import type { AuthContext, Credentials } from "../config.ts";
import type { Session } from "../types.ts";
import { AuthError } from "../errors.ts";
import { guardMutation } from "../guard.ts";
import type { ResponseParts } from "../http.ts";
import { finish, redirectIntent } from "../redirects.ts";
import { clientDetails, type RequestState } from "../request.ts";
import { callApp, startSession } from "./sign_in_session.ts";

const MAX_FIELD = 1024;

function credential(body: Record<string, unknown>, name: "username" | "password"): string {
  const value = body[name];
  if (typeof value !== "string" || value === "" || value.length > MAX_FIELD) {
    throw new AuthError(
      "invalid_request",
      `"${name}" must be a non-empty string of at most ${MAX_FIELD} characters.`,
    );
  }
  return value;
}

/** `POST /signIn/credentials`: 200 `Session` plus cookies; 401 `access_denied` on bad credentials. */
export async function credentialsRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
): Promise<Response> {
  const guarded = await guardMutation(ctx, state, false);
  const intent = await redirectIntent(state);
  const body = await guarded.body();
  for (const key of Object.keys(body)) {
    if (key !== "username" && key !== "password") {
      throw new AuthError("invalid_request", 'The body takes only "username" and "password".');
    }
  }
  const credentials = {
    username: credential(body, "username"),
    password: credential(body, "password"),
  };
  const session = await signInWithCredentials(ctx, state, credentials, parts);
  return finish(state, intent, session, 200, parts);
}

/** The core of credentials sign-in, shared by the route and `api.signIn("credentials")`. */
export async function signInWithCredentials(
  ctx: AuthContext,
  state: RequestState,
  credentials: Credentials,
  parts: ResponseParts,
): Promise<Session> {
  const authorize = ctx.authorize;
  if (!authorize) {
    throw new AuthError("invalid_request", "Credentials sign-in is not configured.", {
      status: 404,
    });
  }
  const user = await callApp(
    ctx,
    "credentials.authorize",
    () => authorize(credentials, state.request),
  );
  if (user === null || user === undefined) {
    ctx.logger.log("info", "credentials sign-in refused", clientDetails(ctx, state));
    throw new AuthError("access_denied", "Wrong username or password.");
  }
  return await startSession(ctx, state, user, parts);
}
