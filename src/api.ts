/**
 * The server API: the routes' core operations for trusted server code, with
 * no CSRF check.
 *
 * @module
 */

import type { AuthContext, Credentials } from "./config.ts";
import { clearCsrfCookie } from "./csrf.ts";
import { AuthError } from "./errors.ts";
import { errorResponse, jsonResponse, redirectResponse, responseParts } from "./http.ts";
import { safeRedirectTarget } from "./origins.ts";
import { type RequestState, requestState } from "./request.ts";
import { signInWithCredentials } from "./routes/credentials.ts";
import { startOAuthSignIn } from "./routes/sign_in.ts";
import {
  clearSessionCookies,
  issueSession,
  parseExpiresUpdate,
  readSession,
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
      const parts = responseParts();
      try {
        const redirectTo = options.redirectTo === undefined
          ? null
          : safeRedirectTarget(options.redirectTo, state.origin, await state.matcher());
        if (options.redirectTo !== undefined && redirectTo === null) {
          throw new AuthError(
            "invalid_redirect_to",
            "redirectTo must be a path on this site or a URL on a trusted origin.",
          );
        }
        if (providerId === "credentials") {
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
          const previous = await readSession(ctx, state);
          const session = await signInWithCredentials(ctx, state, credentials, previous, parts);
          return options.redirect === true
            ? redirectResponse(redirectTo ?? "/", parts)
            : jsonResponse(session, 200, parts);
        }
        return await startOAuthSignIn(ctx, state, parts, providerId, {
          redirectTo,
          redirect: options.redirect !== false,
        });
      } catch (error) {
        if (error instanceof AuthError) return errorResponse(error, parts);
        ctx.logger.error("api.signIn failed", error);
        return errorResponse(
          new AuthError("server_error", "The server could not complete the request."),
          parts,
        );
      }
    },

    signOut(options: SignOutOptions = {}): Promise<Response> {
      const parts = responseParts();
      if (options.request) {
        const state = stateOf(ctx, options.request);
        parts.cookies.push(...clearSessionCookies(state), clearCsrfCookie(state));
      } else {
        for (const secure of [false, true]) {
          const request = new Request(secure ? "https://localhost/" : "http://localhost/");
          const state = stateOf(ctx, request);
          parts.cookies.push(...clearSessionCookies(state), clearCsrfCookie(state));
        }
      }
      if (options.redirect === true) {
        const own = options.request ? new URL(options.request.url).origin : "http://localhost";
        const target = options.redirectTo === undefined
          ? "/"
          : safeRedirectTarget(options.redirectTo, own, () => false);
        if (target === null) {
          return Promise.resolve(
            errorResponse(
              new AuthError("invalid_redirect_to", "redirectTo must be a path on this site."),
              parts,
            ),
          );
        }
        return Promise.resolve(redirectResponse(target, parts));
      }
      return Promise.resolve(jsonResponse({ ok: true }, 200, parts));
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
      const exp = options.expires === undefined
        ? current.payload.exp
        : Math.min(current.payload.exp, parseExpiresUpdate(options.expires, state.now));
      const next = await issueSession(ctx, state, user, {
        jti: current.payload.jti,
        authTime: current.payload.auth_time,
        exp,
      });
      ctx.sessionCache.delete(current.token);
      for (const line of next.cookies) options.headers?.append("Set-Cookie", line);
      return next.session as Session<U>;
    },
  });
}
