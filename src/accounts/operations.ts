/**
 * The account operations routes and `api` share: the user's accounts as
 * HTTP and `api` show them (never tokens), unlinking (with RFC 7009
 * revocation at the provider, best effort, 5 seconds at most), and the
 * access token of a user's account at a provider.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { LinkedAccount } from "../config/feature.ts";
import { AuthError } from "../errors.ts";
import type { StoredAccount } from "../store/types.ts";
import { accountsOf } from "./_context.ts";
import { type AccessToken, accessTokenOf } from "./access_token.ts";

export type { LinkedAccount };
import { completeProvider, revokeToken } from "./provider_calls.ts";
import { openTokens } from "./tokens.ts";

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
    const tokens = await openTokens(ctx.accountsJose, account, account.tokens);
    const revoked = await revokeToken(
      ctx,
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

/**
 * The access token of the user's account at `provider` (the given one, or
 * the one updated last), refreshed first when it expires within 60 s;
 * `null` without such an account or without tokens.
 */
export async function userAccessToken(
  ctx: AuthContext,
  sub: string,
  provider: string,
  providerAccountId: string | undefined,
): Promise<AccessToken | null> {
  const { store } = accountsOf(ctx);
  let account: StoredAccount | null = null;
  if (providerAccountId !== undefined) {
    const found = await store.getAccount(provider, providerAccountId);
    account = found !== null && found.sub === sub ? found : null;
  } else {
    // The one updated last; equal times go to the one the store lists last (saved later).
    for (const candidate of await store.listAccounts(sub)) {
      if (candidate.provider !== provider) continue;
      if (account === null || candidate.updatedAt >= account.updatedAt) account = candidate;
    }
  }
  return account === null ? null : await accessTokenOf(ctx, account);
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
