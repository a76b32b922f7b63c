/**
 * The email flows: sign-in links and codes, verification, change of address
 * and password reset. Each message carries one sealed token (purpose
 * `email`, one kind each); using it consumes its id through the store, so a
 * link works once, and the sign-in code shares that id. Known and unknown
 * addresses get the same answer after the same work: a token is sealed and
 * `send` is awaited for both.
 *
 * @module
 */

import { sha256 } from "../crypto/sha256.ts";
import type { AuthContext } from "../config.ts";
import type { EmailMessage, EmailMessageKind } from "../config/email.ts";
import { RESET_MAX_AGE } from "../config/email.ts";
import { clearCookieLine, serializeCookie } from "../cookies/serialize.ts";
import {
  emailCodeMatches,
  type EmailToken,
  type EmailTokenKind,
  generateEmailCode,
  isEmailCode,
  openEmailToken,
  sealEmailToken,
  shortHash,
} from "../email/token.ts";
import { isLoopbackOrigin } from "../config/origins.ts";
import { AuthError, errorName } from "../errors.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import type { Session } from "../types.ts";
import { isPlainEmail } from "../user_fields.ts";
import { callApp } from "./call_app.ts";
import { noResetSince, readResetMark, recordReset } from "./reset_mark.ts";
import type { CurrentSession } from "./session.ts";
import { readSession, reissueSession, userFromPayload } from "./session.ts";
import { finishSignIn } from "./sign_in.ts";
import type { TwoFactorRequired } from "./two_factor.ts";

/** Messages per address per window: later requests answer the same and send nothing. */
const MAX_MESSAGES = 3;
const MESSAGE_WINDOW = 15 * 60;
/** Wrong codes one flow takes; the next attempt, right or wrong, finds the flow dead. */
const MAX_CODE_ATTEMPTS = 5;
const EMAIL_CODE_PURPOSE = "email-code";

const encoder = /* @__PURE__ */ new TextEncoder();

/** The configured email hooks; 404 when `email` is not configured. */
function emailHooks(ctx: AuthContext): NonNullable<AuthContext["email"]> {
  if (ctx.email === undefined) {
    throw new AuthError(
      "invalid_request",
      "Email is not configured; expected email: { send, findUser } in createAuth.",
      { status: 404 },
    );
  }
  return ctx.email;
}

/** A submitted address: one plain address within the user-field rules, else 400. */
export function checkedAddress(value: unknown): string {
  if (!isPlainEmail(value)) {
    throw new AuthError(
      "invalid_request",
      '"email" is missing or invalid; expected one plain email address.',
    );
  }
  return value;
}

function invalidGrant(description: string): AuthError {
  return new AuthError("invalid_grant", description);
}

/** Counts a message to an address; `false` once the address had its share in this window. */
async function underMessageLimit(ctx: AuthContext, address: string): Promise<boolean> {
  const key = `email-send:${encodeBase64Url(sha256(encoder.encode(address.toLowerCase())))}`;
  const counted = await ctx.throttleStore.hit(key, MESSAGE_WINDOW);
  return counted.count <= MAX_MESSAGES;
}

/** Hands one message to `email.send`; a failing transport is 503, logged without the message. */
async function deliver(ctx: AuthContext, http: HttpContext, message: EmailMessage): Promise<void> {
  const send = emailHooks(ctx).send;
  try {
    await send(message, http.request);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    ctx.logger.log("error", "email.send failed", { kind: message.kind, error: errorName(error) });
    throw new AuthError(
      "temporarily_unavailable",
      "The message could not be sent; try again later.",
      { status: 503 },
    );
  }
}

/** The longest link a message carries: some mail clients break longer ones. */
export const MAX_LINK_LENGTH = 200;

/**
 * The origin links are built on: `baseURL`, else the request's origin when
 * it is loopback or one of `trustedOrigins`. Anything else would put a
 * client's `Host` header into a link (a reset link pointing at an attacker's
 * site): 500 `server_error`, nothing sent, and a log line naming `baseURL`.
 */
async function linkOrigin(ctx: AuthContext, http: HttpContext): Promise<string> {
  if (ctx.publicOrigin !== undefined || isLoopbackOrigin(http.origin)) return http.origin;
  if ((await http.trustedOrigins())(http.origin) === true) return http.origin;
  ctx.logger.log(
    "error",
    "email link not sent: the request's origin is neither loopback nor trusted; expected baseURL (or AUTH_URL) in createAuth, or the origin in trustedOrigins",
    { origin: http.origin },
  );
  throw new AuthError(
    "server_error",
    "Email links need a known origin; expected baseURL in createAuth.",
    { status: 500 },
  );
}

/** The link a message carries: `{origin}{basePath}/{path}?token=...`. */
function link(ctx: AuthContext, origin: string, path: string, token: string): string {
  return `${linkPrefix(ctx, origin, path)}${encodeURIComponent(token)}`;
}

function linkPrefix(ctx: AuthContext, origin: string, path: string): string {
  return `${origin}${ctx.basePath}/${path}?token=`;
}

/**
 * The link of a password reset: the app's `pages.resetPassword` when set, else the built-in form.
 * Always absolute: a path alone in a message opens nothing from a mail app.
 */
function resetLink(ctx: AuthContext, origin: string, token: string): string {
  const page = ctx.resetPasswordPage;
  if (page === undefined) return link(ctx, origin, "password/reset", token);
  const url = new URL(page, origin);
  url.searchParams.set("token", token);
  return url.href;
}

/** The user of an address: `findUser`, else `createUser` when configured, else `null`. */
async function findUser(ctx: AuthContext, http: HttpContext, address: string): Promise<unknown> {
  const hooks = emailHooks(ctx);
  const found = await callApp(ctx, "email.findUser", () => hooks.findUser(address, http.request));
  return found === undefined ? null : found;
}

function subOf(user: unknown): string | undefined {
  if (typeof user !== "object" || user === null) return undefined;
  const sub = (user as { sub?: unknown }).sub;
  return typeof sub === "string" && sub !== "" ? sub : undefined;
}

/** What `POST /signIn/email` was asked. */
export interface EmailSignInRequest {
  /** The address typed. */
  email: string;
  /** Where to land after sign-in (already validated). */
  redirectTo?: string;
}

/**
 * `POST /signIn/email`: a `"sign-in"` message (link and code) to a known
 * address (or any address when `createUser` is set), a `"no-account"` one to
 * an unknown address, the same answer and the same work for both, and the
 * sealed `email_flow` cookie that lets this browser type the code.
 */
export async function requestEmailSignIn(
  ctx: AuthContext,
  http: HttpContext,
  request: EmailSignInRequest,
): Promise<void> {
  const hooks = emailHooks(ctx);
  const address = checkedAddress(request.email);
  const origin = await linkOrigin(ctx, http);
  if (!(await underMessageLimit(ctx, address))) {
    ctx.logger.log("warn", "email message limit reached", clientDetails(ctx, http));
    return;
  }
  const user = await findUser(ctx, http, address);
  const known = user !== null || hooks.createUser !== undefined;
  const sub = subOf(user);
  const resetMark = sub === undefined ? "" : await readResetMark(ctx, sub, http.now);
  const { token, claims } = await sealEmailToken(ctx.emailJose, {
    kind: "sign-in",
    email: address,
    maxAge: hooks.maxAge,
    now: http.now,
    redirectTo: request.redirectTo,
    resetMark,
    // A redirect that would make the link too long stays in this browser's flow cookie only.
    maxTokenLength: MAX_LINK_LENGTH - linkPrefix(ctx, origin, "callback/email").length,
  });
  const code = generateEmailCode();
  const flowClaims: Record<string, string | number> = {
    pur: EMAIL_CODE_PURPOSE,
    i: claims.id,
    c: code,
    em: address,
    k: known ? 1 : 0,
    exp: claims.expiresAt,
  };
  if (request.redirectTo !== undefined) flowClaims.rt = request.redirectTo;
  if (resetMark !== "") flowClaims.rs = resetMark;
  const flow = await ctx.emailJose.encodeJWT(flowClaims);
  const expiresAt = new Date(claims.expiresAt * 1000);
  await deliver(
    ctx,
    http,
    known
      ? {
        kind: "sign-in",
        to: address,
        url: link(ctx, origin, "callback/email", token),
        code,
        expiresAt,
      }
      : { kind: "no-account", to: address, url: `${origin}/`, expiresAt },
  );
  http.setCookies.push(serializeCookie({
    name: http.jar.emailFlow.name,
    value: flow,
    attributes: { ...http.jar.emailFlow.attributes, maxAge: hooks.maxAge },
  }, http.nowMs));
}

/** Marks a token's id used; a second use is 400 `invalid_grant`. */
async function consumeToken(ctx: AuthContext, http: HttpContext, token: EmailToken): Promise<void> {
  // The mark lives exactly as long as the token (plus the JOSE tolerance), as the memory
  // store's bound on marks needs: its floor then only ever refuses tokens already expired.
  const ttl = Math.max(1, token.expiresAt - http.now + 5);
  if (!(await ctx.oneTimeStore.consume(`email:${token.id}`, ttl))) {
    throw invalidGrant("This link or code was already used; ask for a new one.");
  }
}

/** Refuses what was made before the user's latest password reset. */
async function requireNoResetSince(
  ctx: AuthContext,
  http: HttpContext,
  sub: string,
  mark: string | undefined,
): Promise<void> {
  if (!(await noResetSince(ctx, sub, mark, http.now))) {
    ctx.logger.log("info", "email token refused: the password was reset since it was sent");
    throw invalidGrant("This link or code was sent before a password reset; ask for a new one.");
  }
}

/** Signs in the owner of a proven address (`createUser` for a new one). */
async function signInProven(
  ctx: AuthContext,
  http: HttpContext,
  address: string,
  redirectTo: string | undefined,
  resetMark: string | undefined,
): Promise<Session | TwoFactorRequired> {
  const hooks = emailHooks(ctx);
  let user = await findUser(ctx, http, address);
  const found = subOf(user);
  if (found !== undefined) await requireNoResetSince(ctx, http, found, resetMark);
  if (user === null && hooks.createUser !== undefined) {
    const create = hooks.createUser;
    user = await callApp(ctx, "email.createUser", () => create(address, http.request));
  }
  if (user === null) throw invalidGrant("There is no account for this address.");
  // A user record without an address gets the one just proven.
  const withEmail = typeof user === "object" && user !== null &&
      (user as { email?: unknown }).email === undefined
    ? { ...user, email: address }
    : user;
  return await finishSignIn(ctx, http, {
    user: withEmail,
    provider: "email",
    source: "app",
    verifiedEmail: address,
    redirectTo,
  });
}

/** What a confirmed email token did. */
export type EmailConfirmation =
  | { kind: "sign-in"; session: Session | TwoFactorRequired; redirectTo?: string }
  | { kind: "verify-email" | "change-email"; session: Session | null };

const LINK_KINDS: readonly EmailTokenKind[] = ["sign-in", "verify-email", "change-email"];

/**
 * `POST /callback/email` with a token: signs in (`sign-in`), or confirms a
 * verification or a change of address. Used, expired, forged tokens and
 * tokens of another purpose are 400 `invalid_grant`.
 */
export async function confirmEmailToken(
  ctx: AuthContext,
  http: HttpContext,
  input: { token: unknown },
): Promise<EmailConfirmation> {
  emailHooks(ctx);
  const token = await openEmailToken(ctx.emailJose, input.token, LINK_KINDS, http.now);
  if (token === null) throw invalidGrant("This link is invalid or has expired; ask for a new one.");
  if (token.kind === "change-email") {
    // Checked before the token is used: signing in first and opening the link again works.
    const change = await changeToConfirm(ctx, http, token);
    await consumeToken(ctx, http, token);
    return { kind: "change-email", session: await confirmChange(ctx, http, token, change) };
  }
  await consumeToken(ctx, http, token);
  if (token.kind === "sign-in") {
    const redirectTo = token.redirectTo ?? await flowRedirect(ctx, http, token.id);
    const session = await signInProven(ctx, http, token.email, redirectTo, token.resetMark);
    http.setCookies.push(clearEmailFlowCookie(http));
    return { kind: "sign-in", session, redirectTo };
  }
  return { kind: "verify-email", session: await confirmVerification(ctx, http, token) };
}

/** The opened `email_flow` cookie of this browser, or `null`. */
async function readFlow(
  ctx: AuthContext,
  http: HttpContext,
): Promise<Record<string, unknown> | null> {
  const cookie = http.cookies.get(http.jar.emailFlow.name);
  if (!cookie) return null;
  try {
    return await ctx.emailJose.decodeJWT(cookie, { clockTolerance: 0 });
  } catch {
    return null;
  }
}

/** The `redirectTo` a link left out for length, from the asking browser's flow cookie. */
async function flowRedirect(
  ctx: AuthContext,
  http: HttpContext,
  id: string,
): Promise<string | undefined> {
  const flow = await readFlow(ctx, http);
  return flow !== null && flow.pur === EMAIL_CODE_PURPOSE && flow.i === id &&
      typeof flow.rt === "string"
    ? flow.rt
    : undefined;
}

/** `POST /callback/email` with a code: only with this browser's `email_flow` cookie. */
export async function confirmEmailCode(
  ctx: AuthContext,
  http: HttpContext,
  code: unknown,
): Promise<{ session: Session | TwoFactorRequired; redirectTo?: string }> {
  emailHooks(ctx);
  if (!isEmailCode(code)) {
    throw new AuthError("invalid_request", '"code" is invalid; expected six digits.');
  }
  const flow = await readFlow(ctx, http);
  if (
    flow === null || flow.pur !== EMAIL_CODE_PURPOSE || typeof flow.i !== "string" ||
    typeof flow.c !== "string" || typeof flow.em !== "string" || typeof flow.exp !== "number" ||
    (flow.rt !== undefined && typeof flow.rt !== "string") ||
    (flow.rs !== undefined && typeof flow.rs !== "string")
  ) {
    throw invalidGrant(
      "There is no sign-in by email in progress in this browser; ask for a new code.",
    );
  }
  // Counted before comparing, atomically: concurrent guesses cannot pass the bound.
  const attempts = await ctx.throttleStore.hit(
    `email-code:${flow.i}`,
    Math.max(1, flow.exp - http.now + 5),
  );
  if (attempts.count > MAX_CODE_ATTEMPTS) {
    http.setCookies.push(clearEmailFlowCookie(http));
    throw invalidGrant("Too many wrong codes; ask for a new one.");
  }
  if (flow.k !== 1 || !emailCodeMatches(code, flow.c)) {
    ctx.logger.log("info", "wrong email code", clientDetails(ctx, http));
    throw invalidGrant("The code is wrong.");
  }
  const token: EmailToken = {
    kind: "sign-in",
    email: flow.em,
    id: flow.i,
    expiresAt: flow.exp,
  };
  await consumeToken(ctx, http, token);
  const session = await signInProven(
    ctx,
    http,
    token.email,
    typeof flow.rt === "string" ? flow.rt : undefined,
    typeof flow.rs === "string" ? flow.rs : undefined,
  );
  http.setCookies.push(clearEmailFlowCookie(http));
  return typeof flow.rt === "string" ? { session, redirectTo: flow.rt } : { session };
}

function clearEmailFlowCookie(http: HttpContext): string {
  return clearCookieLine(http.jar.emailFlow);
}

/** Sends one message with a sealed token of `kind` and the given link. */
async function sendTokenMessage(
  ctx: AuthContext,
  http: HttpContext,
  message: {
    kind: EmailTokenKind & EmailMessageKind;
    to: string;
    sub: string;
    maxAge: number;
    origin: string;
    previousEmail?: string;
    resetMark?: string;
  },
): Promise<void> {
  const { token, claims } = await sealEmailToken(ctx.emailJose, {
    kind: message.kind,
    email: message.to,
    // A change link binds the user and the old address in one hash, so that it stays short.
    sub: message.kind === "change-email" ? undefined : message.sub,
    subHash: message.kind === "change-email"
      ? changeHash(message.sub, message.previousEmail ?? "")
      : undefined,
    maxAge: message.maxAge,
    now: http.now,
    resetMark: message.resetMark,
  });
  const url = message.kind === "reset-password"
    ? resetLink(ctx, message.origin, token)
    : link(ctx, message.origin, "callback/email", token);
  await deliver(ctx, http, {
    kind: message.kind,
    to: message.to,
    url,
    expiresAt: new Date(claims.expiresAt * 1000),
  });
}

/** `POST /email/verify` (and sign-up with `signUp.verifyEmail`): a verification link to the session's address. */
export async function requestVerification(
  ctx: AuthContext,
  http: HttpContext,
  user: { sub: string; email?: unknown },
): Promise<void> {
  const hooks = emailHooks(ctx);
  if (typeof user.email !== "string" || !isPlainEmail(user.email)) {
    throw new AuthError(
      "invalid_request",
      "The session has no email address to verify; expected a user with an email.",
    );
  }
  const origin = await linkOrigin(ctx, http);
  if (!(await underMessageLimit(ctx, user.email))) {
    ctx.logger.log("warn", "email message limit reached", clientDetails(ctx, http));
    return;
  }
  await sendTokenMessage(ctx, http, {
    kind: "verify-email",
    to: user.email,
    sub: user.sub,
    maxAge: hooks.maxAge,
    origin,
  });
}

/** `POST /email/change`: a confirmation link to the new address. */
export async function requestEmailChange(
  ctx: AuthContext,
  http: HttpContext,
  input: { session: CurrentSession; email: unknown },
): Promise<void> {
  const hooks = emailHooks(ctx);
  const address = checkedAddress(input.email);
  const current = input.session.payload.email;
  if (typeof current === "string" && current.toLowerCase() === address.toLowerCase()) {
    throw new AuthError(
      "invalid_request",
      '"email" is the current address; expected a new address.',
    );
  }
  const origin = await linkOrigin(ctx, http);
  if (!(await underMessageLimit(ctx, address))) {
    ctx.logger.log("warn", "email message limit reached", clientDetails(ctx, http));
    return;
  }
  await sendTokenMessage(ctx, http, {
    kind: "change-email",
    to: address,
    sub: input.session.payload.sub,
    maxAge: hooks.maxAge,
    origin,
    previousEmail: typeof current === "string" ? current : undefined,
  });
}

/**
 * Re-issues the browser's session when it belongs to `sub`, with `email`
 * proven. Read only here: a sign-in link needs no session read. The link
 * has done its work by now, so a store that cannot answer means no session
 * to update, not a failure.
 */
async function markSession(
  ctx: AuthContext,
  http: HttpContext,
  change: { sub: string; email: string; from?: string },
): Promise<Session | null> {
  const session = await readSession(ctx, http).catch((error) => {
    ctx.logger.log("warn", "session not updated after an email link", { error: errorName(error) });
    return null;
  });
  if (session === null || session.payload.sub !== change.sub) return null;
  const user = userFromPayload(session.payload) as unknown as Record<string, unknown>;
  // A verification proves the address the session still has; a change moves it.
  if (change.from === undefined && user.email !== change.email) return null;
  user.email = change.email;
  user.emailVerified = true;
  const next = await reissueSession(ctx, http, session, user as never);
  http.setCookies.push(...next.cookies);
  return next.session;
}

/**
 * The user an address belongs to now, in the app's records, when it is the
 * user a token was made for (`subHash`); else the token speaks for an
 * address that moved: 400 `invalid_grant`.
 */
async function ownerNow(
  ctx: AuthContext,
  http: HttpContext,
  address: string,
  subHash: string | undefined,
): Promise<string> {
  const sub = subOf(await findUser(ctx, http, address));
  if (sub === undefined || subHash === undefined || !timingSafeEqual(shortHash(sub), subHash)) {
    ctx.logger.log("info", "email token refused: the address belongs to another account now");
    throw invalidGrant("This link is for an address the account no longer has; ask for a new one.");
  }
  return sub;
}

async function confirmVerification(
  ctx: AuthContext,
  http: HttpContext,
  token: EmailToken,
): Promise<Session | null> {
  const hooks = emailHooks(ctx);
  const sub = await ownerNow(ctx, http, token.email, token.subHash);
  const onVerified = hooks.onVerified;
  if (onVerified) {
    await callApp(
      ctx,
      "email.onVerified",
      () => onVerified({ sub, email: token.email }, http.request),
    );
  }
  return await markSession(ctx, http, { sub, email: token.email });
}

/** The hash a change link carries: the user and the address being replaced, together. */
function changeHash(sub: string, from: string): string {
  return shortHash(`${sub}\n${from.toLowerCase()}`);
}

/** A change of address the token may confirm: who, from which address, and the session. */
interface ChangeToConfirm {
  sub: string;
  from: string;
  origin: string;
}

/**
 * Checks a change link before it is used: the browser must hold the session
 * of the user who asked (the link carries only hashes of the user and of the
 * old address, so that it stays short), the session's address must be the
 * one the change started from, and the app's records must still give that
 * address to that user. Whether the new address is free is the app's to
 * say in `onChanged`.
 */
async function changeToConfirm(
  ctx: AuthContext,
  http: HttpContext,
  token: EmailToken,
): Promise<ChangeToConfirm> {
  const origin = await linkOrigin(ctx, http);
  const session = await readSession(ctx, http);
  if (session === null) {
    throw new AuthError(
      "invalid_session_token",
      "Confirming a change of address needs the session of the account that asked; expected the link opened where that account is signed in.",
      { status: 401 },
    );
  }
  const sub = session.payload.sub;
  const current = session.payload.email;
  const from = typeof current === "string" ? current : "";
  // One hash binds the user and the address the change started from.
  if (token.subHash === undefined || !timingSafeEqual(changeHash(sub, from), token.subHash)) {
    throw invalidGrant("This link is for another account or an address it no longer has.");
  }
  if (from !== "") await ownerNow(ctx, http, from, shortHash(sub));
  return { sub, from, origin };
}

async function confirmChange(
  ctx: AuthContext,
  http: HttpContext,
  token: EmailToken,
  change: ChangeToConfirm,
): Promise<Session | null> {
  const hooks = emailHooks(ctx);
  const { sub, from } = change;
  const onChanged = hooks.onChanged;
  if (onChanged) {
    await callApp(
      ctx,
      "email.onChanged",
      () => onChanged({ sub, from, to: token.email }, http.request),
    );
  }
  if (from !== "") {
    await deliver(ctx, http, {
      kind: "email-changed",
      to: from,
      url: `${change.origin}/`,
      expiresAt: new Date(token.expiresAt * 1000),
    });
  }
  return await markSession(ctx, http, { sub, email: token.email, from });
}

/**
 * `POST /password/forgot`: a `"reset-password"` link (1 hour) to a known
 * address, `"no-account"` to an unknown one; the same answer for both.
 */
export async function requestPasswordReset(
  ctx: AuthContext,
  http: HttpContext,
  email: unknown,
): Promise<void> {
  requireReset(ctx);
  const address = checkedAddress(email);
  const origin = await linkOrigin(ctx, http);
  if (!(await underMessageLimit(ctx, address))) {
    ctx.logger.log("warn", "email message limit reached", clientDetails(ctx, http));
    return;
  }
  const sub = subOf(await findUser(ctx, http, address));
  if (sub !== undefined) {
    await sendTokenMessage(ctx, http, {
      kind: "reset-password",
      to: address,
      sub,
      maxAge: RESET_MAX_AGE,
      origin,
      resetMark: await readResetMark(ctx, sub, http.now),
    });
    return;
  }
  // The same sealing work as for a known address, so both answers take the same time.
  const { claims } = await sealEmailToken(ctx.emailJose, {
    kind: "reset-password",
    email: address,
    maxAge: RESET_MAX_AGE,
    now: http.now,
  });
  await deliver(ctx, http, {
    kind: "no-account",
    to: address,
    url: `${origin}/`,
    expiresAt: new Date(claims.expiresAt * 1000),
  });
}

function requireReset(ctx: AuthContext): NonNullable<AuthContext["resetPassword"]> {
  emailHooks(ctx);
  if (ctx.resetPassword === undefined) {
    throw new AuthError(
      "invalid_request",
      "Password reset is not configured; expected credentials.resetPassword in createAuth.",
      { status: 404 },
    );
  }
  return ctx.resetPassword;
}

const MAX_PASSWORD = 1024;

/** Whether a reset token is valid now, without using it (the built-in form checks before showing). */
export async function resetTokenIsValid(
  ctx: AuthContext,
  token: unknown,
  now?: number,
): Promise<boolean> {
  requireReset(ctx);
  return (await openEmailToken(ctx.emailJose, token, "reset-password", now)) !== null;
}

/**
 * `POST /password/reset`: uses the token once, calls
 * `credentials.resetPassword`, records the reset (every link, code and
 * pending second step of the user made before it stops working), and
 * revokes every session of the user when a store is set. Signs nobody in.
 */
export async function resetPassword(
  ctx: AuthContext,
  http: HttpContext,
  input: { token: unknown; password: unknown },
): Promise<void> {
  const reset = requireReset(ctx);
  const password = input.password;
  if (typeof password !== "string" || password === "" || password.length > MAX_PASSWORD) {
    throw new AuthError(
      "invalid_request",
      `"password" is missing or invalid; expected a non-empty string of at most ${MAX_PASSWORD} characters.`,
    );
  }
  const token = await openEmailToken(ctx.emailJose, input.token, "reset-password", http.now);
  if (token === null || token.subHash === undefined) {
    throw invalidGrant("This reset link is invalid or has expired; ask for a new one.");
  }
  const sub = await ownerNow(ctx, http, token.email, token.subHash);
  await requireNoResetSince(ctx, http, sub, token.resetMark);
  await consumeToken(ctx, http, token);
  // Recorded before the hook: once this link is used, no link of before it works, even if the hook fails.
  await recordReset(ctx, sub);
  await callApp(
    ctx,
    "credentials.resetPassword",
    () => reset({ sub, email: token.email, password }, http.request),
  );
  if (ctx.store) {
    const ended = await ctx.store.deleteSessions(sub);
    ctx.logger.log("info", "password reset: sessions revoked", { count: String(ended) });
  }
}
