/**
 * Sessions: reading, issuing, renewing and updating the session token, and
 * validating the users that go into it.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { chunkedCookieLines, clearCookieLines, readChunkedCookie } from "../cookies/chunks.ts";
import { AuthError } from "../errors.ts";
import { quotedName } from "../http.ts";
import { JoseError, type JWTPayload } from "../../jose.ts";
import type { HttpContext } from "../http_context.ts";
import { failingFields, validateWith } from "../standard_schema.ts";
import { imageURL, userFieldProblem } from "../user_fields.ts";
import { callApp } from "./call_app.ts";
import { clearCsrfCookie } from "./csrf.ts";
import { emit } from "./events.ts";
import type { Session, User } from "../types.ts";

/** Claims the module manages; never user fields, never updatable. */
const RESERVED_CLAIMS = new Set(["iat", "nbf", "exp", "jti", "auth_time", "iss", "aud", "sub"]);
const DEFAULT_FIELDS = ["name", "email", "image"] as const;

/** A verified session token's claims. */
export interface SessionPayload extends JWTPayload {
  /** The user's id. */
  sub: string;
  /** When the session was first issued (seconds); renewals never extend past it plus `maxAge`. */
  auth_time: number;
  /** Expiry (seconds). */
  exp: number;
  /** Session id; stable across renewals and updates (CSRF tokens are bound to it). */
  jti: string;
}

/** A session read from a request. */
export interface CurrentSession {
  /** The exact token from the cookie. */
  token: string;
  /** Its verified claims. */
  payload: Readonly<SessionPayload>;
}

function isSessionPayload(payload: JWTPayload): payload is SessionPayload {
  return typeof payload.sub === "string" && payload.sub !== "" &&
    typeof payload.auth_time === "number" && typeof payload.exp === "number" &&
    typeof payload.jti === "string" && payload.jti !== "";
}

/** Verifies a session token; `null` for anything invalid, expired or past the absolute cap. Never throws. */
async function verifySessionToken(
  ctx: AuthContext,
  token: string,
  now: number,
): Promise<Readonly<SessionPayload> | null> {
  const cached = ctx.sessionCache.get(token, now);
  if (cached !== undefined) return withinCap(ctx, cached as SessionPayload, now);
  let payload: JWTPayload;
  try {
    payload = await ctx.sessionJose.decodeJWT(token);
  } catch (error) {
    if (!(error instanceof JoseError)) ctx.logger.error("session token could not be read", error);
    else ctx.logger.log("debug", "session token rejected", { code: error.code });
    return null;
  }
  if (!isSessionPayload(payload)) {
    ctx.logger.log("debug", "session token lacks session claims");
    return null;
  }
  return withinCap(ctx, ctx.sessionCache.set(token, payload), now);
}

function withinCap(ctx: AuthContext, payload: SessionPayload, now: number): SessionPayload | null {
  // Our own exp is exact: the JOSE clock tolerance must not keep a session past its `expires`.
  return now < payload.auth_time + ctx.maxAge && now < payload.exp ? payload : null;
}

/** The id of a session token this instance made and still honours by its claims; `null` otherwise. */
export async function sessionIdOf(
  ctx: AuthContext,
  token: string,
  now: number,
): Promise<string | null> {
  return (await verifySessionToken(ctx, token, now))?.jti ?? null;
}

/** Reads the request's session cookie (joining chunks); `null` when absent or invalid. */
export async function readSession(
  ctx: AuthContext,
  http: HttpContext,
): Promise<CurrentSession | null> {
  const token = readChunkedCookie(http.jar.sessionToken.name, http.cookies);
  if (token === undefined || token === "") return null;
  const payload = await verifySessionToken(ctx, token, http.now);
  if (payload === null) return null;
  // With a store, every read (cached token or not) asks it: a revoked session is no session.
  if (ctx.store) {
    const stored = await ctx.store.getSession(payload.jti);
    if (stored === null || stored.sub !== payload.sub) {
      ctx.sessionCache.delete(token);
      return null;
    }
  }
  return { token, payload };
}

/**
 * The current session when its token is in the verified-token cache, still
 * valid, and no store has to be asked; `undefined` otherwise, and then
 * {@link readSession} decides. Synchronous: a cached read awaits nothing.
 */
export function cachedSession(ctx: AuthContext, http: HttpContext): CurrentSession | undefined {
  if (ctx.store) return undefined;
  const token = readChunkedCookie(http.jar.sessionToken.name, http.cookies);
  if (token === undefined || token === "") return undefined;
  const cached = ctx.sessionCache.get(token, http.now);
  if (cached === undefined) return undefined;
  const payload = withinCap(ctx, cached as SessionPayload, http.now);
  return payload === null ? undefined : { token, payload };
}

/** Whether the request carries any session cookie (valid or not). */
export function hasSessionCookie(http: HttpContext): boolean {
  return readChunkedCookie(http.jar.sessionToken.name, http.cookies) !== undefined;
}

/** The user fields of a session payload (reserved claims removed, `sub` kept). */
export function userFromPayload(payload: Readonly<JWTPayload>): User {
  const user: Record<string, unknown> = { sub: payload.sub };
  // An index loop over the keys: this runs on every session read that misses the cache.
  const keys = Object.keys(payload);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!RESERVED_CLAIMS.has(key)) user[key] = payload[key];
  }
  return user as unknown as User;
}

/** The `Session` callers see. */
export function toSession(payload: Readonly<SessionPayload>): Session {
  return { user: userFromPayload(payload), expires: new Date(payload.exp * 1000).toISOString() };
}

/**
 * {@link toSession} of the current session as JSON text, serialized once per
 * cached token (a token served from the verified-token cache is the same
 * payload every time).
 */
export function sessionJSON(ctx: AuthContext, current: CurrentSession): string {
  return ctx.sessionCache.serialized(current.token, current.payload, serializeSession);
}

function serializeSession(payload: Readonly<SessionPayload>): string {
  return JSON.stringify(toSession(payload));
}

/** Options for {@link issueSession}. */
export interface IssueOptions {
  /** Keep an existing session's id (renewal, update). */
  jti?: string;
  /** Keep an existing session's first issue time. */
  authTime?: number;
  /** An expiry to keep when it is earlier than the cap (updates can only shorten). */
  exp?: number;
}

/** Issues a session token for a validated user and returns it with its Set-Cookie lines. */
export async function issueSession(
  ctx: AuthContext,
  http: HttpContext,
  user: User,
  options: IssueOptions = {},
): Promise<{ session: Session; payload: SessionPayload; token: string; cookies: string[] }> {
  const now = http.now;
  const authTime = options.authTime ?? now;
  const cap = authTime + ctx.maxAge;
  const exp = Math.min(options.exp ?? cap, cap, now + ctx.maxAge);
  const payload: SessionPayload = {
    ...user,
    auth_time: authTime,
    exp,
    jti: options.jti ?? crypto.randomUUID(),
  } as SessionPayload;
  let token: string;
  try {
    token = await ctx.sessionJose.encodeJWT(payload);
  } catch (error) {
    // Oversized user fields (e.g. a long update) are the caller's input, not a server failure.
    if (error instanceof JoseError && error.code === "ERR_JOSE_TOO_LARGE") {
      throw new AuthError("invalid_request", "The session would be too large: store less in it.");
    }
    throw error;
  }
  ctx.sessionCache.set(token, { ...payload, iat: now, nbf: now });
  const cookies = chunkedCookieLines(http.jar.sessionToken, token, {
    maxAge: exp - now,
    requestCookies: http.cookies,
    nowMs: http.nowMs,
  });
  return { session: toSession(payload), payload, token, cookies };
}

/**
 * Re-issues the current session for `user`, keeping its id and first issue
 * time; `expires` (an ISO 8601 string) can only shorten it. The replaced
 * token leaves the cache.
 */
export async function reissueSession(
  ctx: AuthContext,
  http: HttpContext,
  current: CurrentSession,
  user: User,
  expires?: unknown,
): ReturnType<typeof issueSession> {
  const exp = expires === undefined
    ? current.payload.exp
    : Math.min(current.payload.exp, parseExpiresUpdate(expires, http.now));
  const next = await issueSession(ctx, http, user, {
    jti: current.payload.jti,
    authTime: current.payload.auth_time,
    exp,
  });
  ctx.sessionCache.delete(current.token);
  return next;
}

/** Set-Cookie lines that remove the session cookie and any of its chunks. */
export function clearSessionCookies(http: HttpContext): string[] {
  return clearCookieLines(http.jar.sessionToken, http.cookies);
}

/** Where a user comes from: the app's own code, or a provider's profile. */
export type UserSource = "app" | "provider";

function invalidUser(ctx: AuthContext, message: string, details: Record<string, string>): never {
  ctx.logger.log("error", message, details);
  throw new AuthError("server_error", "The server could not complete the request.");
}

/**
 * Validates a user from `authorize`, `onCreateUser`, the sign-in hook or a
 * provider profile against `identity.schema`, or by default keeps `sub`
 * (required, non-empty) and the optional string fields `name`, `email`,
 * `image`; anything else is dropped so that records such as password hashes
 * never enter a token. Then every field must obey the user-field rules: a
 * provider's breaking field is left out, the app's is refused with 400.
 * A user failing `identity.schema` is a server error, logged with the failing
 * field paths (never the values).
 */
export async function validateUser(
  ctx: AuthContext,
  value: unknown,
  options: {
    source: UserSource;
    verifiedEmail?: string;
    /**
     * The value comes from the app's own records through a server hook
     * (`authorize`, `findUser`, `createUser`, `callbacks.signIn`): its
     * `emailVerified: true` counts for its `email`. Never for anything built
     * from a client's input (`signUp.onCreateUser`).
     */
    trustEmailVerified?: boolean;
  },
): Promise<User> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    invalidUser(ctx, "user is not an object", { expected: "an object with a string sub" });
  }
  let user: Record<string, unknown>;
  const schema = ctx.identitySchema;
  if (schema) {
    const result = await callApp(ctx, "identity.schema", () => validateWith(schema, value));
    if (!result.ok) {
      invalidUser(ctx, "user does not match identity.schema", {
        fields: result.paths.join(", ") || "(unnamed)",
      });
    }
    user = { ...result.value as unknown as Record<string, unknown> };
  } else {
    const input = value as Record<string, unknown>;
    user = { sub: input.sub };
    for (const field of DEFAULT_FIELDS) {
      const fieldValue = input[field];
      if (fieldValue === undefined || fieldValue === null || fieldValue === "") continue;
      if (typeof fieldValue !== "string") {
        invalidUser(ctx, "user field is not a string", { field });
      }
      user[field] = fieldValue;
    }
  }
  if (typeof user.sub !== "string" || user.sub === "") {
    invalidUser(ctx, "user has no sub", { expected: "a non-empty string sub" });
  }
  const input = value as Record<string, unknown>;
  const recorded = options.trustEmailVerified === true && input.emailVerified === true &&
      typeof input.email === "string"
    ? input.email
    : undefined;
  return checkUserClaims(
    markEmailVerified(
      enforceFieldRules(user, options.source),
      options.verifiedEmail ?? recorded,
      recorded,
    ),
  );
}

/**
 * `emailVerified` is the library's alone: whatever the input said is
 * dropped, and it is `true` only while `email` is the address the library
 * saw proven (compared without case).
 */
function markEmailVerified(
  user: Record<string, unknown>,
  verifiedEmail: string | undefined,
  recordedEmail?: string,
): Record<string, unknown> {
  delete user.emailVerified;
  for (const proven of [verifiedEmail, recordedEmail]) {
    if (
      proven !== undefined && typeof user.email === "string" &&
      user.email.toLowerCase() === proven.toLowerCase()
    ) {
      user.emailVerified = true;
    }
  }
  return user;
}

/** Applies the user-field rules: a provider's breaking field is dropped, anything else refused. */
function enforceFieldRules(
  user: Record<string, unknown>,
  source: UserSource,
): Record<string, unknown> {
  let problem = userFieldProblem(user);
  while (problem !== undefined) {
    if (source !== "provider" || problem.field === "sub") {
      throw new AuthError(
        "invalid_request",
        `The user field ${quotedName(problem.field)}is invalid; expected ${problem.expected}.`,
      );
    }
    delete user[problem.field];
    problem = userFieldProblem(user);
  }
  const image = imageURL(user.image);
  if (image !== undefined) user.image = image;
  return user;
}

function checkUserClaims(value: unknown): User {
  if (typeof value !== "object" || value === null) {
    throw new TypeError("The user must be an object.");
  }
  const user = value as Record<string, unknown>;
  if (typeof user.sub !== "string" || user.sub === "") {
    throw new TypeError("The user must have a non-empty string `sub`.");
  }
  const clean: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(user)) {
    if (key === "sub" || !RESERVED_CLAIMS.has(key)) clean[key] = field;
  }
  return clean as unknown as User;
}

/**
 * Applies a session update (`name`, `email`, `image` and identity-schema
 * fields): `sub`, reserved claims and unknown fields are refused with 400;
 * `expires` may only shorten the session.
 */
export async function updatedUser(
  ctx: AuthContext,
  current: Readonly<SessionPayload>,
  update: Record<string, unknown>,
): Promise<User> {
  for (const key of Object.keys(update)) {
    if (key === "sub") {
      throw new AuthError("invalid_request", "The user's sub cannot be changed; expected no sub.");
    }
    if (key === "emailVerified") {
      throw new AuthError(
        "invalid_request",
        '"emailVerified" is set by the server only; expected only user fields.',
      );
    }
    if (RESERVED_CLAIMS.has(key)) {
      throw new AuthError(
        "invalid_request",
        `"${key}" is managed by the server; expected only user fields.`,
      );
    }
  }
  const base = userFromPayload(current) as unknown as Record<string, unknown>;
  const verifiedEmail = base.emailVerified === true && typeof base.email === "string"
    ? base.email
    : undefined;
  delete base.emailVerified;
  const schema = ctx.identitySchema;
  if (!schema) {
    const next: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(update)) {
      if (!(DEFAULT_FIELDS as readonly string[]).includes(key)) {
        throw new AuthError(
          "invalid_request",
          `The user field ${quotedName(key)}is unknown; expected name, email or image.`,
        );
      }
      if (typeof value !== "string") {
        throw new AuthError(
          "invalid_request",
          `The user field "${key}" is not a string; expected a string.`,
        );
      }
      if (value === "") delete next[key];
      else next[key] = value;
    }
    return checkUserClaims(markEmailVerified(enforceFieldRules(next, "app"), verifiedEmail));
  }
  const result = await callApp(
    ctx,
    "identity.schema",
    () => validateWith(schema, { ...base, ...update }),
  );
  if (!result.ok) {
    throw new AuthError(
      "invalid_request",
      `The update does not match identity.schema${failingFields(result)}.`,
    );
  }
  const output = { ...result.value as unknown as Record<string, unknown> };
  for (const key of Object.keys(update)) {
    if (!Object.hasOwn(output, key)) {
      throw new AuthError(
        "invalid_request",
        `The user field ${quotedName(key)}is unknown; expected a field of identity.schema.`,
      );
    }
  }
  if (output.sub !== current.sub) {
    throw new AuthError("invalid_request", "The user's sub cannot be changed; expected no sub.");
  }
  return checkUserClaims(markEmailVerified(enforceFieldRules(output, "app"), verifiedEmail));
}

/** Parses an `expires` update: an ISO 8601 date in the future; returns seconds. */
function parseExpiresUpdate(value: unknown, now: number): number {
  if (typeof value !== "string" || value.length > 64) {
    throw new AuthError("invalid_request", "expires must be an ISO 8601 date string.");
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new AuthError("invalid_request", "expires must be an ISO 8601 date string.");
  }
  const seconds = Math.floor(ms / 1000);
  if (seconds <= now) throw new AuthError("invalid_request", "expires must be in the future.");
  return seconds;
}

/**
 * Ends the request's session: the token leaves the verified-token cache, the
 * session and CSRF cookies are cleared, and with a store the session is
 * revoked on every instance. Idempotent: without a session it only clears
 * the cookies.
 */
export async function signOut(
  ctx: AuthContext,
  http: HttpContext,
  session: CurrentSession | null,
): Promise<void> {
  if (session) ctx.sessionCache.delete(session.token);
  http.setCookies.push(...clearSessionCookies(http), clearCsrfCookie(http));
  // The cookies go either way; a store that cannot revoke makes the answer a 503.
  if (session && ctx.store) await ctx.store.deleteSession(session.payload.jti);
  await emit(ctx, "signOut", {
    session: session ? toSession(session.payload) : null,
    request: http.request,
  });
}

/**
 * Applies an update to the current session (user fields through the same
 * rules as sign-in, `expires` only shortening), re-issues it, adds its
 * cookies to the response and emits `sessionUpdate`.
 */
export async function updateSession(
  ctx: AuthContext,
  http: HttpContext,
  change: { current: CurrentSession; user: Record<string, unknown>; expires?: unknown },
): Promise<Session> {
  const user = await updatedUser(ctx, change.current.payload, change.user);
  const next = await reissueSession(ctx, http, change.current, user, change.expires);
  http.setCookies.push(...next.cookies);
  await emit(ctx, "sessionUpdate", { session: next.session, request: http.request });
  return next.session;
}
