/**
 * Signing in: calling application code safely, credentials sign-in, and
 * turning a user into a session plus a fresh CSRF cookie (shared by
 * credentials sign-in, sign-up and the OAuth callback).
 *
 * @module
 */

import type { AuthContext, Credentials } from "../config.ts";
import type { TwoFactorRequired } from "../config/feature.ts";
import { readChunkedCookie } from "../cookies/chunks.ts";
import { AuthError, errorName } from "../errors.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { failingFields, validateWith } from "../standard_schema.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import type { OAuthTokens } from "../oauth/types.ts";
import type { Session, User } from "../types.ts";
import { sha256 } from "../crypto/sha256.ts";
import { callApp } from "./call_app.ts";
import { emit } from "./events.ts";
import { issueCsrfToken } from "./csrf.ts";
import { issueSession, sessionIdOf, type UserSource, validateUser } from "./session.ts";

/**
 * Issues the session for a validated user and a CSRF token bound to it, and
 * adds their cookies to the response. A session cookie the request still
 * carries is evicted from the cache by its exact value, without decoding it.
 */
export async function startSession(
  ctx: AuthContext,
  http: HttpContext,
  user: User,
): Promise<Session> {
  const issued = await issueSession(ctx, http, user);
  // Saved once, before any cookie is set: a store that fails grants no session.
  await ctx.store?.saveSession({
    id: issued.payload.jti,
    sub: issued.payload.sub,
    createdAt: issued.payload.auth_time,
    expiresAt: issued.payload.auth_time + ctx.maxAge,
    userAgent: http.request.headers.get("User-Agent")?.slice(0, 256) || undefined,
  });
  const previous = readChunkedCookie(http.jar.sessionToken.name, http.cookies);
  if (previous !== undefined) {
    // The browser's earlier session is replaced: with a store it is revoked, not left as a device.
    const replaced = ctx.store ? await sessionIdOf(ctx, previous, http.now) : null;
    if (replaced !== null && replaced !== issued.payload.jti) {
      await ctx.store?.deleteSession(replaced);
    }
    ctx.sessionCache.delete(previous);
  }
  const csrf = await issueCsrfToken(ctx, http, issued.payload.jti);
  http.setCookies.push(...issued.cookies, csrf.cookie);
  return issued.session;
}

/** A sign-in that succeeded with its provider (or `authorize`), before the session exists. */
export interface SignInAttempt {
  /** The user as the provider mapper or `authorize` returned it (not yet validated). */
  user: unknown;
  /** The provider id, or `"credentials"`. */
  provider: string;
  /** Where the user comes from: breaking fields of a provider profile are dropped. */
  source: UserSource;
  /** The provider's user-info object. */
  profile?: Readonly<Record<string, unknown>>;
  /** The provider's tokens. */
  tokens?: Readonly<OAuthTokens>;
  /** The address this sign-in proved (a verified provider email, an email link or code). */
  verifiedEmail?: string;
  /** Where the browser goes once signed in; kept in the `two_factor` cookie when a code is due. */
  redirectTo?: string;
  /** Only for a passkey sign-in with user verification: it needs no second step. */
  passkeyUserVerified?: boolean;
}

/**
 * Finishes a sign-in: validates the user, lets `callbacks.signIn` link or
 * refuse it (`null` is 401 `access_denied`), then either stops at the
 * second step (an enrolled user: the `two_factor` cookie and
 * `TwoFactorRequired`, no session) or starts the session and emits the
 * `signIn` event. Every first factor passes here, so none skips the gate.
 */
export async function finishSignIn(
  ctx: AuthContext,
  http: HttpContext,
  attempt: SignInAttempt,
): Promise<Session | TwoFactorRequired> {
  const verifiedEmail = attempt.verifiedEmail;
  // The app's records may say the address is verified; a provider's profile may not.
  let user = await validateUser(ctx, attempt.user, {
    source: attempt.source,
    verifiedEmail,
    trustEmailVerified: attempt.source === "app",
  });
  const hook = ctx.signInHook;
  if (hook) {
    const linked = await callApp(ctx, "callbacks.signIn", () =>
      hook({
        user,
        provider: attempt.provider,
        profile: attempt.profile,
        tokens: attempt.tokens,
        request: http.request,
      }));
    if (linked === null || linked === undefined) {
      ctx.logger.log("info", "sign-in refused by callbacks.signIn", { provider: attempt.provider });
      throw new AuthError("access_denied", "The sign-in was refused.");
    }
    user = await validateUser(ctx, linked, {
      source: "app",
      verifiedEmail,
      trustEmailVerified: true,
    });
  }
  // The two-factor feature's gate, when configured: shared code never imports the feature.
  const pending = await ctx.secondStep?.(ctx, http, { ...attempt, user });
  if (pending) return pending;
  const session = await startSession(ctx, http, user);
  await emit(ctx, "signIn", { user, provider: attempt.provider, request: http.request });
  return session;
}

/**
 * Credentials sign-in, shared by the route and `api.signIn("credentials")`;
 * `redirectTo` is where a browser goes after a second step, when one is due.
 */
export async function signInWithCredentials(
  ctx: AuthContext,
  http: HttpContext,
  credentials: Credentials,
  options: { redirectTo?: string } = {},
): Promise<Session | TwoFactorRequired> {
  const authorize = ctx.authorize;
  if (!authorize) {
    throw new AuthError(
      "invalid_request",
      "Credentials sign-in is not configured; expected credentials.authorize in createAuth.",
      { status: 404 },
    );
  }
  const throttle = ctx.throttle;
  const key = throttle ? throttleKey(credentials.username) : undefined;
  if (key && throttle) {
    // Counted before authorize, atomically: concurrent guesses cannot all pass one check.
    const attempts = await ctx.throttleStore.hit(key, throttle.window);
    if (attempts.count > throttle.maxAttempts) {
      ctx.logger.log("warn", "credentials sign-in throttled", clientDetails(ctx, http));
      http.headers.push(["Retry-After", String(attempts.resetIn)]);
      throw new AuthError(
        "temporarily_unavailable",
        "Too many sign-in attempts for this username; expected a pause before the next try.",
        { status: 429 },
      );
    }
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
  // The right password gives the attempts back (the store has no decrement: all of them).
  if (key) await ctx.throttleStore.resetHits(key);
  return await finishSignIn(ctx, http, {
    user,
    provider: "credentials",
    source: "app",
    redirectTo: options.redirectTo,
  });
}

const encoder = new TextEncoder();

/**
 * The throttle key of a username: a hash, so stores never hold usernames and
 * keys stay short. The username is folded as an `authorize` that looks users
 * up reasonably would fold it (NFKC, outer Unicode whitespace trimmed, no-break
 * spaces included, lower case), so that no spelling of one account gets a
 * counter of its own.
 */
function throttleKey(username: string): string {
  return `credentials:${encodeBase64Url(sha256(encoder.encode(foldUsername(username))))}`;
}

/** NFKC (fullwidth letters, no-break spaces), outer whitespace trimmed, lower case. */
function foldUsername(username: string): string {
  // NFKC again after lowercasing: a lowercase letter may compose where its capital did not.
  return username.normalize("NFKC").trim().toLowerCase().normalize("NFKC");
}

/**
 * Sign-up: validates the payload with `signUp.schema` (when set), creates
 * the user with `signUp.onCreateUser`, starts the session and emits
 * `signUp`; a hook that answers with an account that has two-factor on gets
 * the second step instead (`TwoFactorRequired`, no session, no event).
 */
export async function signUp(
  ctx: AuthContext,
  http: HttpContext,
  body: Record<string, unknown>,
): Promise<Session | TwoFactorRequired> {
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
  const created = await callApp(
    ctx,
    "signUp.onCreateUser",
    () => onCreateUser(payload, http.request),
  );
  const user = await validateUser(ctx, created, { source: "app" });
  // An existing, enrolled account returned by the hook must not skip its second step.
  const pending = await ctx.secondStep?.(ctx, http, { user, provider: "signUp" });
  if (pending) return pending;
  const session = await startSession(ctx, http, user);
  await emit(ctx, "signUp", { user, request: http.request });
  const sendVerification = ctx.sendVerification;
  if (ctx.verifyEmailOnSignUp && sendVerification && typeof user.email === "string") {
    // The account exists either way: a message that cannot go out is logged, not answered.
    await sendVerification(ctx, http, user).catch((error) => {
      ctx.logger.log("warn", "sign-up verification message not sent", { error: errorName(error) });
    });
  }
  return session;
}
