/**
 * `api.getAccessToken`: a linked account's access token, refreshed first
 * when it expires within 60 seconds. A refresh runs once however many
 * callers want it: in a process, callers of one account share one promise;
 * across instances that share `session.store`, the first `store.hit` on a
 * key of the account and its current refresh token holds the lock (30
 * seconds at most, released by `resetHits`), and the others re-read the
 * account every 100 ms, for up to 10 s, until the holder saved new tokens.
 *
 * Order, so that a rotated refresh token is never lost: the new tokens are
 * saved before any caller gets the new access token; `invalid_grant` drops
 * the tokens (the account stays linked) and every caller gets 401
 * `invalid_grant`; any other failure keeps the tokens and answers 503.
 *
 * @module
 */

import { sha256 } from "../crypto/sha256.ts";
import { AuthError } from "../errors.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import type { Jose } from "../jose/types.ts";
import type { AccountStore, SessionStore, StoredAccount } from "../store/types.ts";
import type { RefreshResult } from "./provider_calls.ts";
import { openTokens, type ProviderTokens, sealTokens } from "./tokens.ts";

/** An access token as `api.getAccessToken` answers it. */
export interface AccessToken {
  /** The access token, for the provider's API (`Authorization: Bearer ...`). */
  accessToken: string;
  /** Its type, as the provider named it (`bearer`). */
  tokenType: string;
  /** When it expires (ISO 8601), or `null` when the provider gave no lifetime. */
  expiresAt: string | null;
  /** The scopes the provider granted, space-separated. */
  scope: string;
}

/** What a refresh needs, built per call by the core (`core/accounts.ts`). */
export interface RefreshDeps {
  /** The accounts. */
  store: AccountStore;
  /** The lock across instances (`session.store`); none: single flight in this process only. */
  lock?: Pick<SessionStore, "hit" | "hits" | "resetHits">;
  /** The `provider-tokens` sealer. */
  jose: Jose;
  /** Now, in seconds since the epoch (fractions allowed). */
  now(): number;
  /** Refreshes in flight in this process, by account. */
  refreshing: Map<string, Promise<unknown>>;
  /** The provider's display name and its refresh-token grant; `undefined` for an unknown provider. */
  provider(id: string): Promise<
    { name: string; refresh(refreshToken: string): Promise<RefreshResult> } | undefined
  >;
  /** Logs by message and details (never a token). */
  log(level: "info" | "warn", message: string, details: Record<string, string>): void;
}

/** An access token that expires within this many seconds is refreshed first. */
export const REFRESH_MARGIN_SECONDS = 60;
/** How long the refresh lock across instances lasts at most (a crashed holder's ends then). */
export const REFRESH_LOCK_SECONDS = 30;
/** How often a waiting caller re-reads the account, in milliseconds. */
export const REFRESH_POLL_MS = 100;
/** How long a waiting caller waits for the holder's result, in milliseconds. */
export const REFRESH_WAIT_MS = 10_000;

const encoder = /* @__PURE__ */ new TextEncoder();

/** 401 `invalid_grant`: the tokens are gone, the user must sign in with the provider again. */
export function reconnectError(providerName: string): AuthError {
  return new AuthError(
    "invalid_grant",
    `The ${providerName} tokens of this account are no longer valid; expected the user to sign in with ${providerName} again.`,
    { status: 401 },
  );
}

/** 503 `temporarily_unavailable`: the provider could not refresh; the tokens are kept. */
function unavailable(): AuthError {
  return new AuthError(
    "temporarily_unavailable",
    "The provider could not refresh the access token; expected it back shortly: try again.",
  );
}

function answer(account: StoredAccount, tokens: ProviderTokens): AccessToken {
  return {
    accessToken: tokens.accessToken,
    tokenType: tokens.tokenType,
    expiresAt: account.expiresAt === undefined
      ? null
      : new Date(account.expiresAt * 1000).toISOString(),
    scope: account.scope,
  };
}

function needsRefresh(deps: RefreshDeps, account: StoredAccount): boolean {
  return account.expiresAt !== undefined &&
    account.expiresAt - deps.now() <= REFRESH_MARGIN_SECONDS;
}

/** When an access token of `expires_in` seconds expires; `undefined` without a lifetime. */
export function expiryOf(now: number, expiresIn: number | undefined): number | undefined {
  if (expiresIn === undefined || !Number.isFinite(expiresIn) || expiresIn < 0) return undefined;
  return Math.floor(now) + Math.floor(expiresIn);
}

/**
 * The access token of a stored account: as it is while it lives more than
 * 60 seconds (one unseal), else refreshed (single flight). `null` when the
 * account's tokens were dropped.
 */
export async function accessTokenOf(
  jose: Jose,
  now: number,
  account: StoredAccount,
  depsFor: () => RefreshDeps,
): Promise<AccessToken | null> {
  if (account.tokens === "") return null;
  const tokens = await openTokens(jose, account, account.tokens);
  // The hot path: a token that lives on needs no dependencies of a refresh.
  if (account.expiresAt === undefined || account.expiresAt - now > REFRESH_MARGIN_SECONDS) {
    return answer(account, tokens);
  }
  const deps = depsFor();
  const { refreshing } = deps;
  const key = JSON.stringify([account.provider, account.providerAccountId]);
  let flight = refreshing.get(key) as Promise<AccessToken | null> | undefined;
  if (flight === undefined) {
    flight = refresh(deps, account, tokens).finally(() => refreshing.delete(key));
    refreshing.set(key, flight);
  }
  return await flight;
}

/** The store key of the refresh lock: the account and its refresh token, hashed. */
function lockKey(account: StoredAccount, refreshToken: string): string {
  const material = JSON.stringify([account.provider, account.providerAccountId, refreshToken]);
  return `account-refresh:${encodeBase64Url(sha256(encoder.encode(material)))}`;
}

/** Drops an account's tokens (the account stays linked). */
async function dropTokens(deps: RefreshDeps, account: StoredAccount): Promise<void> {
  const { expiresAt: _, ...rest } = account;
  await deps.store.saveAccount({ ...rest, tokens: "", updatedAt: Math.floor(deps.now()) });
}

async function refresh(
  deps: RefreshDeps,
  account: StoredAccount,
  tokens: ProviderTokens,
): Promise<AccessToken | null> {
  const provider = await deps.provider(account.provider);
  const name = provider?.name ?? account.provider;
  if (tokens.refreshToken === undefined || provider === undefined) {
    // Expired, and nothing to refresh it with: the same as a refused refresh.
    await dropTokens(deps, account);
    deps.log("info", "provider tokens dropped: expired without a refresh token", {
      provider: account.provider,
    });
    throw reconnectError(name);
  }
  const lock = deps.lock;
  const key = lockKey(account, tokens.refreshToken);
  if (lock !== undefined) {
    const { count } = await lock.hit(key, REFRESH_LOCK_SECONDS);
    if (count > 1) return await waitForRefresh(deps, account, key, name);
  }
  try {
    // Another instance may have refreshed between the read and the lock: its tokens win.
    const current = await deps.store.getAccount(
      account.provider,
      account.providerAccountId,
    );
    if (current === null) return null;
    if (current.tokens !== account.tokens) {
      if (current.tokens === "") throw reconnectError(name);
      if (!needsRefresh(deps, current)) {
        return answer(current, await openTokens(deps.jose, current, current.tokens));
      }
    }
    let result;
    try {
      result = await provider.refresh(tokens.refreshToken);
    } catch (error) {
      deps.log("warn", "provider token refresh failed", {
        provider: account.provider,
        error: error instanceof AuthError ? error.code : "unreachable",
      });
      throw unavailable();
    }
    if ("invalidGrant" in result) {
      await dropTokens(deps, current);
      deps.log("info", "provider tokens dropped: the provider refused the refresh token", {
        provider: account.provider,
      });
      throw reconnectError(name);
    }
    const fresh = result.tokens;
    const next: ProviderTokens = {
      accessToken: fresh.access_token,
      tokenType: fresh.token_type,
      // No new refresh token: the old one stays; a rotated one replaces it (saved below first).
      refreshToken: fresh.refresh_token ?? tokens.refreshToken,
    };
    const idToken = fresh.id_token ?? tokens.idToken;
    if (idToken !== undefined) next.idToken = idToken;
    const owner = { provider: account.provider, providerAccountId: account.providerAccountId };
    const saved: StoredAccount = {
      ...current,
      scope: fresh.scope ?? current.scope,
      tokens: await sealTokens(deps.jose, owner, next),
      updatedAt: Math.floor(deps.now()),
    };
    const expiresAt = expiryOf(deps.now(), fresh.expires_in);
    if (expiresAt === undefined) delete saved.expiresAt;
    else saved.expiresAt = expiresAt;
    await deps.store.saveAccount(saved);
    deps.log("info", "provider tokens refreshed", { provider: account.provider });
    return answer(saved, next);
  } finally {
    // Saved (or failed): the lock goes; a late caller re-reads the account after taking it.
    await lock?.resetHits(key).catch(() => {});
  }
}

/**
 * Waits for another instance's refresh: re-reads the account every 100 ms
 * until its tokens changed (new ones, or dropped: 401), for 10 s at most;
 * a lock released without new tokens (the holder failed), or none in time,
 * is 503.
 */
async function waitForRefresh(
  deps: RefreshDeps,
  account: StoredAccount,
  key: string,
  name: string,
): Promise<AccessToken | null> {
  const store = deps.store;
  const changed = async (): Promise<AccessToken | null | undefined> => {
    const current = await store.getAccount(account.provider, account.providerAccountId);
    if (current === null) return null;
    if (current.tokens === account.tokens) return undefined;
    if (current.tokens === "") throw reconnectError(name);
    return answer(current, await openTokens(deps.jose, current, current.tokens));
  };
  for (let waited = 0; waited < REFRESH_WAIT_MS; waited += REFRESH_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, REFRESH_POLL_MS));
    const result = await changed();
    if (result !== undefined) return result;
    // The lock is gone: the holder saved (read once more) or failed (503, tokens kept).
    if (await deps.lock?.hits(key) === null) {
      const last = await changed();
      if (last !== undefined) return last;
      throw unavailable();
    }
  }
  throw unavailable();
}
