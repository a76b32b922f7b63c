/**
 * Linking a provider account to a user: at sign-in (the linked `sub`, or a
 * new random one), and while signed in (`POST /link/:provider` and its
 * callback). An account is prepared (its tokens sealed) as soon as the
 * provider answered, and saved only once the user is certain: after
 * `callbacks.signIn` and, when one is due, after the second step. Linking
 * never follows an email address.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { LinkCallbackInput, PrepareAccountInput } from "../config/feature.ts";
import { callApp } from "../core/call_app.ts";
import { emit } from "../core/events.ts";
import { type CurrentSession, readSession, toSession, validateUser } from "../core/session.ts";
import { AuthError, markChosenByApp } from "../errors.ts";
import type { HttpContext } from "../http_context.ts";
import { isRecord } from "../is_record.ts";
import { randomToken } from "../oauth/pkce.ts";
import type { OAuthTokens } from "../oauth/types.ts";
import type { StoredAccount } from "../store/types.ts";
import type { Session } from "../types.ts";
import { accountsOf, linkedToAnother, nowSeconds } from "./_context.ts";
import { openTokens, type ProviderTokens, sealTokens } from "./tokens.ts";

/** An account ready to save: its tokens sealed, its user decided. */
interface PreparedAccount {
  sub: string;
  provider: string;
  providerAccountId: string;
  scope: string;
  expiresAt?: number;
  tokens: string;
  /** Whether the new tokens hold a refresh token (else the old one is kept). */
  refresh: boolean;
}

/** Scope tokens (RFC 6749 3.3), space-separated, at most 1,000 characters. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** Checks a link's extra `scope`; 400 `invalid_request` for anything but scope tokens. */
export function checkLinkScope(value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || value.length > 1000 || !SCOPE.test(value)) {
    throw new AuthError(
      "invalid_request",
      '"scope" is invalid; expected scope tokens separated by spaces, e.g. "repo read:org".',
    );
  }
  return value;
}

/** `a` with the tokens of `b` it lacks, in order. */
function addScopes(a: string, b: string | undefined): string {
  if (b === undefined || b === "") return a;
  const have = a.split(" ").filter((token) => token !== "");
  for (const token of b.split(" ")) if (token !== "" && !have.includes(token)) have.push(token);
  return have.join(" ");
}

/** The user a provider account signs in: its linked `sub`, or a new random one (128 bits). */
export async function accountUser(
  ctx: AuthContext,
  account: { provider: string; providerAccountId: string },
): Promise<{ sub: string; linked: boolean }> {
  const found = await accountsOf(ctx).store.getAccount(account.provider, account.providerAccountId);
  if (found !== null) return { sub: found.sub, linked: true };
  return { sub: randomToken(16), linked: false };
}

function tokensOf(tokens: Readonly<OAuthTokens>): ProviderTokens {
  const out: ProviderTokens = { accessToken: tokens.access_token, tokenType: tokens.token_type };
  if (tokens.refresh_token !== undefined) out.refreshToken = tokens.refresh_token;
  if (tokens.id_token !== undefined) out.idToken = tokens.id_token;
  return out;
}

/** When an access token of `expires_in` seconds expires; `undefined` without a lifetime. */
export function expiryOf(ctx: AuthContext, expiresIn: number | undefined): number | undefined {
  if (expiresIn === undefined || !Number.isFinite(expiresIn) || expiresIn < 0) return undefined;
  return nowSeconds(ctx) + Math.floor(expiresIn);
}

/** Seals a sign-in's tokens into the account to save (one Web Crypto call); nothing is saved yet. */
export async function prepareAccount(
  ctx: AuthContext,
  input: PrepareAccountInput,
): Promise<string> {
  const owner = { provider: input.provider, providerAccountId: input.providerAccountId };
  const prepared: PreparedAccount = {
    ...owner,
    sub: input.sub,
    scope: input.tokens.scope ?? input.requestedScope,
    tokens: await sealTokens(ctx.accountsJose, owner, tokensOf(input.tokens)),
    refresh: input.tokens.refresh_token !== undefined,
  };
  const expiresAt = expiryOf(ctx, input.tokens.expires_in);
  if (expiresAt !== undefined) prepared.expiresAt = expiresAt;
  return JSON.stringify(prepared);
}

function readPrepared(text: string): PreparedAccount {
  const value: unknown = JSON.parse(text);
  if (
    !isRecord(value) || typeof value.sub !== "string" || typeof value.provider !== "string" ||
    typeof value.providerAccountId !== "string" || typeof value.scope !== "string" ||
    typeof value.tokens !== "string" || typeof value.refresh !== "boolean" ||
    (value.expiresAt !== undefined && typeof value.expiresAt !== "number")
  ) {
    throw new TypeError("The prepared account is malformed; expected one prepareAccount made.");
  }
  return value as unknown as PreparedAccount;
}

/**
 * Saves a prepared account. A provider account that meanwhile became
 * another user's is refused (nothing changed); new tokens without a refresh
 * token keep the old refresh token; `events.linkAccount` fires for a new link.
 */
export async function saveAccount(
  ctx: AuthContext,
  _http: HttpContext,
  preparedText: string,
): Promise<void> {
  const prepared = readPrepared(preparedText);
  const { store } = accountsOf(ctx);
  const { provider, providerAccountId, sub } = prepared;
  const owner = { provider, providerAccountId };
  const existing = await store.getAccount(provider, providerAccountId);
  if (existing !== null && existing.sub !== sub) {
    ctx.logger.log("warn", "link refused: the provider account is linked to another user", {
      provider,
    });
    throw markedLinkedToAnother(ctx, provider);
  }
  let tokens = prepared.tokens;
  if (!prepared.refresh && existing !== null && existing.tokens !== "") {
    const old = await openTokens(ctx.accountsJose, owner, existing.tokens).catch(() => null);
    if (old?.refreshToken !== undefined) {
      const fresh = await openTokens(ctx.accountsJose, owner, tokens);
      tokens = await sealTokens(ctx.accountsJose, owner, {
        ...fresh,
        refreshToken: old.refreshToken,
      });
    }
  }
  const now = nowSeconds(ctx);
  const account: StoredAccount = {
    provider,
    providerAccountId,
    sub,
    scope: prepared.scope,
    tokens,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  if (prepared.expiresAt !== undefined) account.expiresAt = prepared.expiresAt;
  await store.saveAccount(account);
  if (existing === null) {
    ctx.logger.log("info", "account linked", { provider });
    await emit(ctx, "linkAccount", { sub, provider });
  }
}

function markedLinkedToAnother(ctx: AuthContext, providerId: string): AuthError {
  const error = linkedToAnother(ctx.providers.get(providerId)?.name ?? providerId);
  // A sentence for people: the error page and the `error_description` show it as it is.
  markChosenByApp(error);
  return error;
}

/**
 * The scope and parameters an authorization request adds with `accounts`:
 * the provider's refresh-token scope and parameters always, a link's extra
 * scope, and the first-link parameters (Google `prompt=consent`) when the
 * user has no tokens from that provider yet.
 */
export async function accountAuthorization(
  ctx: AuthContext,
  providerId: string,
  link: { sub: string; scope?: string } | undefined,
): Promise<{ scope: string; params: Readonly<Record<string, string>> } | undefined> {
  const provider = ctx.providers.get(providerId);
  if (provider === undefined) return undefined;
  const scope = addScopes(addScopes(provider.scope, provider.refreshTokenScope), link?.scope);
  let params: Record<string, string> = { ...provider.refreshTokenParams };
  if (link !== undefined && Object.keys(provider.firstLinkParams).length > 0) {
    const linked = await accountsOf(ctx).store.listAccounts(link.sub);
    const withTokens = linked.some((account) =>
      account.provider === providerId && account.tokens !== ""
    );
    if (!withTokens || link.scope !== undefined) params = { ...params, ...provider.firstLinkParams };
  }
  return { scope, params };
}

/**
 * The session a link callback continues: the same signed-in user that
 * started the link; any other user, or none, is refused (302 with
 * `error=access_denied`), before any code is exchanged.
 */
export async function linkSession(
  ctx: AuthContext,
  http: HttpContext,
  linkSub: string,
): Promise<CurrentSession> {
  let current: CurrentSession | null = null;
  try {
    current = await readSession(ctx, http);
  } catch {
    current = null; // a failing store: no session, fail closed
  }
  if (current === null || current.payload.sub !== linkSub) {
    ctx.logger.log("warn", "link callback refused: not the session that started the link", {});
    throw new AuthError(
      "access_denied",
      "The link was started by another session; expected the same signed-in user: start again.",
    );
  }
  return current;
}

/**
 * Completes a link callback: the provider account joins the signed-in user
 * (refused when it is another user's, or when `callbacks.signIn`, called
 * with `link: true`, refuses or names another user), its tokens replace the
 * old ones, and the current session goes on unchanged.
 */
export async function completeLink(
  ctx: AuthContext,
  http: HttpContext,
  input: LinkCallbackInput,
): Promise<Session> {
  const { tokens } = input;
  const current = input.current as CurrentSession;
  const provider = ctx.providers.get(input.providerId)!;
  const sub = current.payload.sub;
  const mapped = await validateUser(ctx, input.user, { source: "provider" });
  const providerAccountId = mapped.sub;
  const existing = await accountsOf(ctx).store.getAccount(provider.id, providerAccountId);
  if (existing !== null && existing.sub !== sub) {
    ctx.logger.log("warn", "link refused: the provider account is linked to another user", {
      provider: provider.id,
    });
    throw markedLinkedToAnother(ctx, provider.id);
  }
  const hook = ctx.signInHook;
  if (hook) {
    const answer = await callApp(ctx, "callbacks.signIn", () =>
      hook({
        user: { ...mapped, sub },
        provider: provider.id,
        profile: input.profile,
        tokens,
        request: http.request,
        link: true,
      }));
    if (answer === null || answer === undefined) {
      ctx.logger.log("info", "link refused by callbacks.signIn", { provider: provider.id });
      throw new AuthError("access_denied", "The link was refused.");
    }
    if (!isRecord(answer) || answer.sub !== sub) {
      ctx.logger.log("warn", "link refused: callbacks.signIn named another user", {
        provider: provider.id,
      });
      throw new AuthError("access_denied", "The link was refused.");
    }
  }
  const prepared = await prepareAccount(ctx, {
    sub,
    provider: provider.id,
    providerAccountId,
    tokens,
    requestedScope: input.requestedScope,
  });
  await saveAccount(ctx, http, prepared);
  ctx.logger.log("info", "link completed", { provider: provider.id });
  return toSession(current.payload);
}
