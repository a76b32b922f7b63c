/**
 * The server API: the routes' core operations for trusted server code, with
 * no CSRF check.
 *
 * @module
 */

import type { AuthContext, Credentials } from "./config.ts";
import type { FeatureHooks, Passkey } from "./config/feature.ts";
import { startOAuthSignIn } from "./core/oauth_sign_in.ts";
import {
  checkedRedirectTarget,
  defaultTarget,
  finish,
  type RedirectIntent,
} from "./core/redirects.ts";
import { readSession, signOut, toSession, updateSession } from "./core/session.ts";
import { emit } from "./core/events.ts";
import { signInWithCredentials } from "./core/sign_in.ts";
import { isTwoFactorRequired, twoFactorPageURL } from "./core/second_step.ts";
import { AuthError, toAuthError } from "./errors.ts";
import { errorResponse, jsonResponse, redirectResponse } from "./http.ts";
import { createHttpContext, type HttpContext } from "./http_context.ts";
import { isRecord } from "./is_record.ts";
import type { Session, User } from "./types.ts";
import type { AccessTokenOptions } from "./service_tokens/access_token.ts";
import type {
  ApiKey,
  CreateApiKeyOptions,
  CreatedApiKey,
  VerifiedApiKey,
} from "./service_tokens/types.ts";

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

/** One of a user's sessions, as `api.listSessions` shows it. */
export interface SessionInfo {
  /** The session id (pass it to `api.revokeSession`). */
  id: string;
  /** When the user signed in, ISO 8601 UTC. */
  createdAt: string;
  /** When the session ends at the latest, ISO 8601 UTC. */
  expiresAt: string;
  /** The browser that signed in, when it said. */
  userAgent?: string;
  /** Whether this is the session of `options.request`. */
  current: boolean;
}

/** Options of `api.listSessions`. */
export interface ListSessionsOptions {
  /** The incoming request: its session is marked `current`. */
  request?: Request;
}

/** The server API of an instance. */
export interface AuthAPI<U extends User = User> {
  /** The request's session, or `null` for any missing, invalid or expired session. Never throws. */
  getSession(request: Request): Promise<Session<U> | null>;
  /** Starts an OAuth sign-in, or signs in with `credentials`; returns the route's `Response`. */
  signIn(providerId: string, options: SignInOptions): Promise<Response>;
  /** A `Response` that clears the session and CSRF cookies. */
  signOut(options?: SignOutOptions): Promise<Response>;
  /**
   * The user's active sessions ("your devices"), newest first. Needs
   * `session.store`; throws `AuthError` 503 when the store fails.
   */
  listSessions(sub: string, options?: ListSessionsOptions): Promise<SessionInfo[]>;
  /** Ends one session on every instance (e.g. "sign out this device"); `true` when it was active. Needs `session.store`. */
  revokeSession(sessionId: string): Promise<boolean>;
  /** Ends every session of a user (password change, ban); resolves how many. Needs `session.store`. */
  revokeSessions(sub: string): Promise<number>;
  /**
   * The user's passkeys, oldest first, without public keys. Needs
   * `passkeys`; throws `AuthError` 503 when the store fails.
   */
  listPasskeys(sub: string): Promise<Passkey[]>;
  /** Deletes one of the user's passkeys; `false` for anyone else's and unknown ids. Needs `passkeys`. */
  deletePasskey(sub: string, id: string): Promise<boolean>;
  /**
   * An access token (RFC 9068, `typ: "at+jwt"`) for another service:
   * `{ request }` for the request's user (`null` without a session), or
   * `{ sub }` for a user your server code names. Needs `serviceTokens`;
   * invalid options throw a `TypeError`.
   */
  issueAccessToken(
    subject: { request: Request } | { sub: string },
    options: AccessTokenOptions,
  ): Promise<string | null>;
  /**
   * The API key in the request's `Authorization: Bearer` header:
   * `{ sub, keyId, scopes }`, or `null` for a missing, malformed, unknown,
   * revoked or expired key. Needs `apiKeys`; a failing store throws
   * `AuthError` 503.
   */
  verifyApiKey(request: Request): Promise<VerifiedApiKey | null>;
  /** Creates an API key for a user: its text (show it once) and its record. Needs `apiKeys`. */
  createApiKey(sub: string, options: CreateApiKeyOptions): Promise<CreatedApiKey>;
  /** The user's API keys, oldest first (never their text or hash). Needs `apiKeys`. */
  listApiKeys(sub: string): Promise<ApiKey[]>;
  /** Deletes one of the user's API keys; `false` for anyone else's and unknown ids. Needs `apiKeys`. */
  deleteApiKey(sub: string, id: string): Promise<boolean>;
  /** Updates the session's user fields; `null` when there is no session. Throws `AuthError` on invalid data. */
  updateSession(
    request: Request,
    data: Partial<U>,
    options?: UpdateSessionOptions,
  ): Promise<Session<U> | null>;
}

/** Runs an API action through the one error wrapper: an `AuthError` becomes its error response. */
async function answer(
  ctx: AuthContext,
  http: HttpContext,
  action: () => Promise<Response>,
): Promise<Response> {
  try {
    return await action();
  } catch (error) {
    return errorResponse(http, toAuthError(error, ctx.logger, "api"));
  }
}

function httpContext(ctx: AuthContext, request: Request): HttpContext {
  return createHttpContext(ctx, request, new URL(request.url));
}

async function intentOf(
  http: HttpContext,
  options: { redirect?: boolean; redirectTo?: string },
  redirectByDefault: boolean,
): Promise<RedirectIntent> {
  return {
    redirect: options.redirect ?? redirectByDefault,
    redirectTo: options.redirectTo === undefined
      ? null
      : await checkedRedirectTarget(http, options.redirectTo),
  };
}

function checkedCredentials(credentials: unknown): Credentials {
  if (
    !isRecord(credentials) || typeof credentials.username !== "string" ||
    typeof credentials.password !== "string"
  ) {
    throw new AuthError(
      "invalid_request",
      'api.signIn("credentials") has no credentials; expected options.credentials with a username and password.',
    );
  }
  return { username: credentials.username, password: credentials.password };
}

function storeOf(ctx: AuthContext, method: string): NonNullable<AuthContext["store"]> {
  if (!ctx.store) {
    throw new TypeError(
      `api.${method} has no store to ask; expected session.store in createAuth (memoryStore(), redisStore(client), ...).`,
    );
  }
  return ctx.store;
}

/** The passkeys feature's operation behind `api.{method}`; throws when passkeys are not configured. */
function passkeysOf<M extends "listPasskeys" | "deletePasskey">(
  ctx: AuthContext,
  method: M,
): NonNullable<FeatureHooks<AuthContext>[M]> {
  const operation = ctx[method];
  if (!ctx.passkeys || operation === undefined) {
    throw new TypeError(
      `api.${method} has no passkeys to ask; expected passkeys: { store, findUser } in createAuth.`,
    );
  }
  return operation as NonNullable<FeatureHooks<AuthContext>[M]>;
}

/** A service token or API key operation behind `api.{method}`; throws when its feature is not configured. */
function serviceOf<
  M extends "issueAccessToken" | "verifyApiKey" | "createApiKey" | "listApiKeys" | "deleteApiKey",
>(ctx: AuthContext, method: M): NonNullable<FeatureHooks<AuthContext>[M]> {
  const operation = ctx[method];
  const configured = method === "issueAccessToken" ? ctx.serviceTokens : ctx.apiKeys;
  if (!configured || operation === undefined) {
    throw new TypeError(
      method === "issueAccessToken"
        ? "api.issueAccessToken has no signing keys; expected serviceTokens: { keys: [keyPair] } in createAuth."
        : `api.${method} has no API keys to ask; expected apiKeys: { store } in createAuth.`,
    );
  }
  return operation as NonNullable<FeatureHooks<AuthContext>[M]>;
}

function requiredText(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "" || value.length > 256) {
    throw new TypeError(`${name} is invalid; expected a string of 1 to 256 characters.`);
  }
  return value;
}

function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** Builds the server API over a context. */
export function createAPI<U extends User>(ctx: AuthContext): AuthAPI<U> {
  return Object.freeze({
    async listSessions(sub: string, options: ListSessionsOptions = {}): Promise<SessionInfo[]> {
      const store = storeOf(ctx, "listSessions");
      const sessions = await store.listSessions(requiredText(sub, "sub"));
      const current = options.request
        ? (await readSession(ctx, httpContext(ctx, options.request)))?.payload.jti
        : undefined;
      return sessions
        .sort((a, b) => b.createdAt - a.createdAt)
        .map((session) => {
          const info: SessionInfo = {
            id: session.id,
            createdAt: isoDate(session.createdAt),
            expiresAt: isoDate(session.expiresAt),
            current: session.id === current,
          };
          if (session.userAgent !== undefined) info.userAgent = session.userAgent;
          return info;
        });
    },

    async revokeSession(sessionId: string): Promise<boolean> {
      const store = storeOf(ctx, "revokeSession");
      const revoked = await store.deleteSession(requiredText(sessionId, "sessionId"));
      if (revoked) await emit(ctx, "sessionRevoked", { sessionId });
      return revoked;
    },

    async revokeSessions(sub: string): Promise<number> {
      const store = storeOf(ctx, "revokeSessions");
      const count = await store.deleteSessions(requiredText(sub, "sub"));
      await emit(ctx, "sessionRevoked", { sub });
      return count;
    },

    async listPasskeys(sub: string): Promise<Passkey[]> {
      const list = passkeysOf(ctx, "listPasskeys");
      return await list(ctx, requiredText(sub, "sub"));
    },

    async deletePasskey(sub: string, id: string): Promise<boolean> {
      const remove = passkeysOf(ctx, "deletePasskey");
      if (typeof id !== "string") throw new TypeError("id is invalid; expected a credential id.");
      return await remove(ctx, requiredText(sub, "sub"), id);
    },

    async issueAccessToken(
      subject: { request: Request } | { sub: string },
      options: AccessTokenOptions,
    ): Promise<string | null> {
      const issue = serviceOf(ctx, "issueAccessToken");
      const given = subject as Record<string, unknown>;
      if (isRecord(given) && given.request instanceof Request) {
        return await issue(ctx, { http: httpContext(ctx, given.request) }, options);
      }
      if (!isRecord(given) || !("sub" in given)) {
        throw new TypeError(
          "api.issueAccessToken has no subject; expected { request } (the incoming Request) or { sub }.",
        );
      }
      return await issue(ctx, { sub: requiredText(given.sub, "sub") }, options);
    },

    async verifyApiKey(request: Request): Promise<VerifiedApiKey | null> {
      const verify = serviceOf(ctx, "verifyApiKey");
      if (!(request instanceof Request)) {
        throw new TypeError("api.verifyApiKey has no request; expected the incoming Request.");
      }
      return await verify(ctx, request);
    },

    async createApiKey(sub: string, options: CreateApiKeyOptions): Promise<CreatedApiKey> {
      const create = serviceOf(ctx, "createApiKey");
      return await create(ctx, requiredText(sub, "sub"), options);
    },

    async listApiKeys(sub: string): Promise<ApiKey[]> {
      const list = serviceOf(ctx, "listApiKeys");
      return await list(ctx, requiredText(sub, "sub"));
    },

    async deleteApiKey(sub: string, id: string): Promise<boolean> {
      const remove = serviceOf(ctx, "deleteApiKey");
      if (typeof id !== "string") throw new TypeError("id is invalid; expected an API key id.");
      return await remove(ctx, requiredText(sub, "sub"), id);
    },

    async getSession(request: Request): Promise<Session<U> | null> {
      try {
        const current = await readSession(ctx, httpContext(ctx, request));
        return current ? (toSession(current.payload) as Session<U>) : null;
      } catch (error) {
        toAuthError(error, ctx.logger, "api.getSession");
        return null;
      }
    },

    async signIn(providerId: string, options: SignInOptions): Promise<Response> {
      if (!options || !(options.request instanceof Request)) {
        throw new TypeError(
          "api.signIn has no request; expected options.request, the incoming Request.",
        );
      }
      const http = httpContext(ctx, options.request);
      return await answer(ctx, http, async () => {
        if (providerId !== "credentials") {
          const intent = await intentOf(http, options, true);
          const url = await startOAuthSignIn(ctx, http, {
            providerId,
            redirectTo: intent.redirectTo,
          });
          return intent.redirect ? redirectResponse(http, url) : jsonResponse(http, { url }, 200);
        }
        const intent = await intentOf(http, options, false);
        const session = await signInWithCredentials(
          ctx,
          http,
          checkedCredentials(options.credentials),
          {
            redirectTo: ctx.twoFactor ? await defaultTarget(http, intent.redirectTo) : undefined,
          },
        );
        if (isTwoFactorRequired(session) && intent.redirect) {
          return redirectResponse(http, twoFactorPageURL(ctx));
        }
        return await finish(http, intent, { body: session, status: 200 });
      });
    },

    signOut(options: SignOutOptions = {}): Promise<Response> {
      // Without the request the scheme is unknown: clear the cookies of both.
      const requests = options.request
        ? [options.request]
        : [new Request("http://localhost/"), new Request("https://localhost/")];
      const [http, ...others] = requests.map((request) => httpContext(ctx, request));
      return answer(ctx, http, async () => {
        await signOut(ctx, http, await readSession(ctx, http));
        for (const other of others) {
          await signOut(ctx, other, null);
          http.setCookies.push(...other.setCookies);
        }
        const intent = await intentOf(http, options, false);
        return await finish(http, intent, { body: { ok: true }, status: 200 });
      });
    },

    async updateSession(
      request: Request,
      data: Partial<U>,
      options: UpdateSessionOptions = {},
    ): Promise<Session<U> | null> {
      const http = httpContext(ctx, request);
      const current = await readSession(ctx, http);
      if (!current) return null;
      if (!isRecord(data)) {
        throw new AuthError(
          "invalid_request",
          "data is not an object; expected an object of user fields.",
        );
      }
      const session = await updateSession(ctx, http, {
        current,
        user: data,
        expires: options.expires,
      });
      for (const line of http.setCookies) options.headers?.append("Set-Cookie", line);
      return session as Session<U>;
    },
  });
}
