/**
 * Linked accounts inside the flows: linking a provider account at sign-in
 * (the linked `sub`, or a new random one) and while signed in (`POST
 * /link/:provider` and its callback), listing, unlinking (RFC 7009
 * revocation, best effort) and `api.getAccessToken`. An account is prepared
 * (its tokens sealed) as soon as the provider answered, and saved only once
 * the user is certain: after `callbacks.signIn` and, when one is due, after
 * the second step. Linking never follows an email address. The feature's
 * hooks (`features/accounts.ts`) point here; the pieces without a context
 * live in `accounts/`.
 *
 * @module
 */

import {
  type AccessToken,
  accessTokenOf,
  expiryOf,
  type RefreshDeps,
} from "../accounts/refresh.ts";
import { addScopes, type PreparedAccount, readPrepared } from "../accounts/prepared.ts";
import { requestRefresh, revokeToken } from "../accounts/provider_calls.ts";
import { openTokens, type ProviderTokens, sealTokens } from "../accounts/tokens.ts";
import type { AuthContext } from "../config.ts";
import type { AccountSettings } from "../config/accounts.ts";
import type {
  AccountUser,
  AuthorizedProvider,
  LinkCallbackInput,
  LinkedAccount,
} from "../config/feature.ts";
import { AuthError, markChosenByApp } from "../errors.ts";
import { createHttpContext, type HttpContext } from "../http_context.ts";
import { isRecord } from "../is_record.ts";
import { randomToken } from "../oauth/pkce.ts";
import { isOpenIDConnect, needsDiscovery, withMetadata } from "../oauth/endpoints.ts";
import type { ResolvedProvider } from "../oauth/resolved_provider.ts";
import type { OAuthTokens } from "../oauth/types.ts";
import type { StoredAccount } from "../store/types.ts";
import type { Session } from "../types.ts";
import { callApp } from "./call_app.ts";
import { emit } from "./events.ts";
import { type CurrentSession, readSession, toSession, validateUser } from "./session.ts";

export type { LinkedAccount };

/** The configured `accounts`, or 404 `invalid_request` (routes). */
export function accountsOf(ctx: AuthContext): NonNullable<AccountSettings["accounts"]> {
  const accounts = ctx.accounts;
  if (accounts === undefined) {
    throw new AuthError(
      "invalid_request",
      "Linked accounts are not configured; expected accounts: { store } in createAuth.",
      { status: 404 },
    );
  }
  return accounts;
}

/** Now in whole seconds since the epoch, on the instance's clock. */
export function nowSeconds(ctx: AuthContext): number {
  return Math.floor(ctx.clock() / 1000);
}

/** The error of a provider account linked to someone else (a sentence people read). */
export function linkedToAnother(providerName: string): AuthError {
  return new AuthError(
    "access_denied",
    `This ${providerName} account is linked to another user.`,
  );
}

/** The provider by id, completed by discovery when its configuration needs it. */
async function completeProvider(
  ctx: AuthContext,
  providerId: string,
): Promise<ResolvedProvider | undefined> {
  const provider = ctx.providers.get(providerId);
  if (provider === undefined || !needsDiscovery(provider)) return provider;
  const metadata = await ctx.oidc.discovery.get(provider.issuer!, {
    openid: isOpenIDConnect(provider),
  });
  return withMetadata(provider, metadata);
}

/** The refresh's dependencies on this instance. */
function refreshDeps(ctx: AuthContext): RefreshDeps {
  const { store, refreshing } = accountsOf(ctx);
  return {
    store,
    lock: ctx.store,
    jose: accountsOf(ctx).jose,
    now: () => ctx.clock() / 1000,
    refreshing,
    provider: async (id) => {
      const provider = await completeProvider(ctx, id);
      if (provider === undefined) return undefined;
      return {
        name: provider.name,
        refresh: (refreshToken) => requestRefresh(ctx.fetch, provider, refreshToken),
      };
    },
    log: (level, message, details) => ctx.logger.log(level, message, details),
  };
}

/** The user a provider account signs in: its linked `sub`, or a new random one (128 bits). */
export async function accountUser(
  ctx: AuthContext,
  provider: string,
  providerAccountId: string,
): Promise<AccountUser> {
  const found = await accountsOf(ctx).store.getAccount(provider, providerAccountId);
  const sub = found?.sub ?? randomToken(16);
  return { sub, linked: found !== null, provider, providerAccountId };
}

/** The scope a provider is asked for: its own, and its refresh-token scope. */
function askedScope(ctx: AuthContext, providerId: string): string {
  const provider = ctx.providers.get(providerId);
  return provider === undefined ? "" : addScopes(provider.scope, provider.refreshTokenScope);
}

function tokensOf(tokens: Readonly<OAuthTokens>): ProviderTokens {
  const out: ProviderTokens = { accessToken: tokens.access_token, tokenType: tokens.token_type };
  if (tokens.refresh_token !== undefined) out.refreshToken = tokens.refresh_token;
  if (tokens.id_token !== undefined) out.idToken = tokens.id_token;
  return out;
}

/** Seals a sign-in's tokens into the account to save (one Web Crypto call); nothing is saved yet. */
export async function prepareAccount(
  ctx: AuthContext,
  account: AccountUser,
  sub: string,
  tokens: Readonly<OAuthTokens>,
): Promise<string> {
  if (account.linked && account.sub !== sub) {
    // No silent re-linking: a linked account signs in its own user or nobody.
    ctx.logger.log(
      "warn",
      "sign-in refused: callbacks.signIn named another user for a linked account",
      {
        provider: account.provider,
      },
    );
    throw new AuthError("access_denied", "The sign-in was refused.");
  }
  const owner = { provider: account.provider, providerAccountId: account.providerAccountId };
  const prepared: PreparedAccount = {
    ...owner,
    sub,
    scope: tokens.scope ?? askedScope(ctx, account.provider),
    tokens: await sealTokens(accountsOf(ctx).jose, owner, tokensOf(tokens)),
    refresh: tokens.refresh_token !== undefined,
  };
  const expiresAt = expiryOf(ctx.clock() / 1000, tokens.expires_in);
  if (expiresAt !== undefined) prepared.expiresAt = expiresAt;
  return JSON.stringify(prepared);
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
    const old = await openTokens(accountsOf(ctx).jose, owner, existing.tokens).catch(() => null);
    if (old?.refreshToken !== undefined) {
      const fresh = await openTokens(accountsOf(ctx).jose, owner, tokens);
      tokens = await sealTokens(accountsOf(ctx).jose, owner, {
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
export async function accountAuthorization<P extends AuthorizedProvider>(
  ctx: AuthContext,
  asked: P,
  link: { sub: string; scope?: string } | undefined,
): Promise<P> {
  const provider = ctx.providers.get(asked.id);
  if (provider === undefined) return asked;
  let params: Record<string, string> = {
    ...asked.authorizationParams,
    ...provider.refreshTokenParams,
  };
  if (link !== undefined && provider.firstLinkParams !== undefined) {
    const linked = await accountsOf(ctx).store.listAccounts(link.sub);
    const withTokens = linked.some((account) =>
      account.provider === asked.id && account.tokens !== ""
    );
    if (!withTokens || link.scope !== undefined) {
      params = { ...params, ...provider.firstLinkParams };
    }
  }
  const scope = addScopes(addScopes(asked.scope, provider.refreshTokenScope), link?.scope);
  return { ...asked, scope, authorizationParams: params };
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
  linking: object,
  input: LinkCallbackInput,
): Promise<Session> {
  const { tokens, provider } = input;
  const current = linking as CurrentSession;
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
        profile: input.raw,
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
  const account = { sub, linked: true, provider: provider.id, providerAccountId };
  const prepared = await prepareAccount(ctx, account, sub, tokens);
  await saveAccount(ctx, http, prepared);
  ctx.logger.log("info", "link completed", { provider: provider.id });
  return toSession(current.payload);
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** The public entry of a stored account. */
export function publicAccount(account: StoredAccount): LinkedAccount {
  return {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    scope: account.scope,
    createdAt: iso(account.createdAt),
    updatedAt: iso(account.updatedAt),
  };
}

/** The user's linked accounts, oldest link first. */
export async function listAccounts(ctx: AuthContext, sub: string): Promise<LinkedAccount[]> {
  const accounts = await accountsOf(ctx).store.listAccounts(sub);
  return accounts
    .map((account, index) => ({ account, index }))
    .sort((a, b) => a.account.createdAt - b.account.createdAt || a.index - b.index)
    .map(({ account }) => publicAccount(account));
}

/**
 * Unlinks one of the user's accounts: its refresh token (else its access
 * token) is revoked at the provider first when the provider has a
 * revocation endpoint (best effort, 5 s; a failure is logged), then the
 * account is deleted. `false` for an account that is not this user's.
 */
export async function unlinkAccount(
  ctx: AuthContext,
  sub: string,
  provider: string,
  providerAccountId: string,
): Promise<boolean> {
  if (
    typeof provider !== "string" || provider === "" || provider.length > 256 ||
    typeof providerAccountId !== "string" || providerAccountId === "" ||
    providerAccountId.length > 256
  ) {
    return false;
  }
  const { store } = accountsOf(ctx);
  const account = await store.getAccount(provider, providerAccountId);
  if (account === null || account.sub !== sub) return false;
  await revokeAccountTokens(ctx, account);
  const deleted = await store.deleteAccount(provider, providerAccountId);
  if (deleted) ctx.logger.log("info", "account unlinked", { provider });
  return deleted;
}

async function revokeAccountTokens(ctx: AuthContext, account: StoredAccount): Promise<void> {
  if (account.tokens === "") return;
  try {
    const provider = await completeProvider(ctx, account.provider);
    if (provider?.revocationURL === undefined) return;
    const tokens = await openTokens(accountsOf(ctx).jose, account, account.tokens);
    const revoked = await revokeToken(
      ctx.fetch,
      provider,
      tokens.refreshToken !== undefined
        ? { value: tokens.refreshToken, hint: "refresh_token" }
        : { value: tokens.accessToken, hint: "access_token" },
    );
    if (!revoked) {
      ctx.logger.log("warn", "token revocation at the provider failed", {
        provider: account.provider,
      });
    }
  } catch {
    ctx.logger.log("warn", "token revocation at the provider failed", {
      provider: account.provider,
    });
  }
}

/** `api.getAccessToken(who, provider, options)`: its arguments checked, then the account and its token. */
export async function getAccessToken(
  ctx: AuthContext,
  who: unknown,
  provider: unknown,
  options: unknown,
): Promise<AccessToken | null> {
  text(provider, "provider");
  const id = isRecord(options) ? options.providerAccountId : undefined;
  if (id !== undefined) text(id, "providerAccountId");
  const given: Record<string, unknown> = isRecord(who) ? who : {};
  let sub: string;
  if (given.request instanceof Request) {
    const http = createHttpContext(ctx, given.request, new URL(given.request.url));
    const current = await readSession(ctx, http);
    if (current === null) return null;
    sub = current.payload.sub;
  } else if (typeof given.sub === "string") {
    sub = text(given.sub, "sub");
  } else {
    throw new TypeError(
      "api.getAccessToken has no user; expected { request } (the incoming Request) or { sub }.",
    );
  }
  const { store, jose } = accountsOf(ctx);
  let account: StoredAccount | null = null;
  if (id !== undefined) {
    const found = await store.getAccount(provider as string, id as string);
    if (found !== null && found.sub === sub) account = found;
  } else {
    // The one updated last; equal times go to the one the store lists last (saved later).
    for (const candidate of await store.listAccounts(sub)) {
      if (candidate.provider !== provider) continue;
      if (account === null || candidate.updatedAt >= account.updatedAt) account = candidate;
    }
  }
  if (account === null) return null;
  return await accessTokenOf(jose, ctx.clock() / 1000, account, () => refreshDeps(ctx));
}

function text(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "" || value.length > 256) {
    throw new TypeError(`${name} is invalid; expected a string of 1 to 256 characters.`);
  }
  return value;
}

/** The error for a provider account id or provider that is malformed. */
export function invalidAccountArgument(name: string): TypeError {
  return new TypeError(`${name} is invalid; expected a string of 1 to 256 characters.`);
}

/** 404 for an account that is not the user's. */
export function noSuchAccount(): AuthError {
  return new AuthError("invalid_request", "There is no such account; expected one of yours.", {
    status: 404,
  });
}
