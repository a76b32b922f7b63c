/**
 * The server API: the routes' core operations for trusted server code, with
 * no CSRF check.
 *
 * @module
 */

import type { AuthContext, Credentials } from "./config.ts";
import { clearCsrfCookie } from "./csrf.ts";
import { AuthError } from "./errors.ts";
import { errorResponse, type ResponseParts, responseParts } from "./http.ts";
import { checkedRedirectTarget, finish } from "./redirects.ts";
import { type RequestState, requestState } from "./request.ts";
import { signInWithCredentials } from "./routes/credentials.ts";
import { startOAuthSignIn } from "./routes/sign_in.ts";
import {
  clearSessionCookies,
  readSession,
  reissueSession,
  toSession,
  updatedUser,
} from "./session.ts";
import type { Session, User } from "./types.ts";

/** Options of `api.signIn`. */
export interface SignInOptions {
  /** The incoming request: its origin, scheme and cookies decide the response. Required. */
  request: Request;
  /** Where to land after sign-in: a path on this site or a URL on a trusted origin. */
  redirectTo?: string;
  /** For OAuth: `false` answers 200 `{ url }` instead of the 302 (default `true`). For credentials: `true` answers 302 instead of 200 JSON (default `false`). */
  redirect?: boolean;
  /** Username and password, for `api.signIn("credentials", ...)`. */
  credentials?: Credentials;
}

/** Options of `api.signOut`. */
export interface SignOutOptions {
  /** The incoming request (its scheme and chunked cookies); without it, cookies of both schemes are cleared. */
  request?: Request;
  /** Where to go after sign-out, with `redirect: true`. */
  redirectTo?: string;
  /** `true` answers 302 to `redirectTo` (default `/`) instead of 200 `{ ok: true }`. */
  redirect?: boolean;
}

/** Options of `api.updateSession`. */
export interface UpdateSessionOptions {
  /** Response headers that receive the new session cookie's Set-Cookie lines. */
  headers?: Headers;
  /** Shortens the session to this ISO 8601 date (never extends it). */
  expires?: string;
}

/** The server API of an instance. */
export interface AuthAPI<U extends User = User> {
  /** The request's session, or `null` for any missing, invalid or expired session. Never throws. */
  getSession(request: Request): Promise<Session<U> | null>;
  /** Starts an OAuth sign-in, or signs in with `credentials`; returns the route's `Response`. */
  signIn(providerId: string, options: SignInOptions): Promise<Response>;
  /** A `Response` that clears the session and CSRF cookies. */
  signOut(options?: SignOutOptions): Promise<Response>;
  /** Updates the session's user fields; `null` when there is no session. Throws `AuthError` on invalid data. */
  updateSession(
    request: Request,
    data: Partial<U>,
    options?: UpdateSessionOptions,
  ): Promise<Session<U> | null>;
}

/** Runs an API action: an `AuthError` becomes its error response, anything else a logged 500. */
async function answer(
  ctx: AuthContext,
  what: string,
  action: (parts: ResponseParts) => Promise<Response>,
): Promise<Response> {
  const parts = responseParts();
  try {
    return await action(parts);
  } catch (error) {
    if (error instanceof AuthError) return errorResponse(error, parts);
    ctx.logger.error(`${what} failed`, error);
    return errorResponse(
      new AuthError("server_error", "The server could not complete the request."),
      parts,
    );
  }
}

function stateOf(ctx: AuthContext, request: Request): RequestState {
  return requestState(ctx, request, new URL(request.url));
}

/** Builds the server API over a context. */
export function createAPI<U extends User>(ctx: AuthContext): AuthAPI<U> {
  return Object.freeze({
    async getSession(request: Request): Promise<Session<U> | null> {
      try {
        const current = await readSession(ctx, stateOf(ctx, request));
        return current ? (toSession(current.payload) as Session<U>) : null;
      } catch (error) {
        ctx.logger.error("getSession failed", error);
        return null;
      }
    },

    async signIn(providerId: string, options: SignInOptions): Promise<Response> {
      if (!options || !(options.request instanceof Request)) {
        throw new TypeError("api.signIn needs options.request, the incoming Request.");
      }
      const state = stateOf(ctx, options.request);
      return await answer(ctx, "api.signIn", async (parts) => {
        const redirectTo = options.redirectTo === undefined
          ? null
          : await checkedRedirectTarget(state, options.redirectTo);
        if (providerId !== "credentials") {
          return await startOAuthSignIn(ctx, state, parts, providerId, {
            redirectTo,
            redirect: options.redirect !== false,
          });
        }
        const credentials = options.credentials;
        if (
          !credentials || typeof credentials.username !== "string" ||
          typeof credentials.password !== "string"
        ) {
          throw new AuthError(
            "invalid_request",
            'api.signIn("credentials") needs options.credentials with a username and password.',
          );
        }
        const session = await signInWithCredentials(ctx, state, credentials, parts);
        return await finish(
          state,
          { redirect: options.redirect === true, redirectTo },
          session,
          200,
          parts,
        );
      });
    },

    signOut(options: SignOutOptions = {}): Promise<Response> {
      // Without the request the scheme is unknown: clear the cookies of both.
      const states = options.request
        ? [stateOf(ctx, options.request)]
        : [false, true].map((secure) =>
          stateOf(ctx, new Request(secure ? "https://localhost/" : "http://localhost/"))
        );
      return answer(ctx, "api.signOut", async (parts) => {
        for (const state of states) {
          parts.cookies.push(...clearSessionCookies(state), clearCsrfCookie(state));
        }
        const state = states[0];
        const redirectTo = options.redirectTo === undefined
          ? null
          : await checkedRedirectTarget(state, options.redirectTo);
        return await finish(
          state,
          { redirect: options.redirect === true, redirectTo },
          { ok: true },
          200,
          parts,
        );
      });
    },

    async updateSession(
      request: Request,
      data: Partial<U>,
      options: UpdateSessionOptions = {},
    ): Promise<Session<U> | null> {
      const state = stateOf(ctx, request);
      const current = await readSession(ctx, state);
      if (!current) return null;
      if (typeof data !== "object" || data === null) {
        throw new AuthError("invalid_request", "data must be an object of user fields.");
      }
      const user = await updatedUser(ctx, current.payload, data as Record<string, unknown>);
      const next = await reissueSession(ctx, state, current, user, options.expires);
      for (const line of next.cookies) options.headers?.append("Set-Cookie", line);
      return next.session as Session<U>;
    },
  });
}
