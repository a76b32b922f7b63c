/**
 * The `AccountStore` half of `memoryStore`: linked accounts in this
 * process's memory. Accounts never expire and are never evicted (losing one
 * would split a user in two); a user's list keeps the order of saves, so the
 * account saved last is listed last.
 *
 * @module
 */

import { settle } from "./_local.ts";
import { checkKey } from "./_validate.ts";
import { accountName, checkAccount } from "./_accounts.ts";
import type { AccountStore, StoredAccount } from "./types.ts";

/**
 * The four account methods over two maps: the accounts by name, and each
 * user's names in save order.
 *
 * @example
 * ```ts ignore
 * return { ...sessionMethods, ...memoryAccounts() };
 * ```
 */
export function memoryAccounts(): AccountStore {
  const accounts = new Map<string, StoredAccount>();
  const users = new Map<string, Set<string>>();

  function unlist(sub: string, name: string): void {
    const names = users.get(sub);
    names?.delete(name);
    if (names?.size === 0) users.delete(sub);
  }

  return {
    saveAccount: (input) =>
      settle(() => {
        const account = checkAccount(input);
        const name = accountName(account.provider, account.providerAccountId);
        const old = accounts.get(name);
        if (old !== undefined) unlist(old.sub, name);
        accounts.delete(name);
        accounts.set(name, account);
        let names = users.get(account.sub);
        if (names === undefined) users.set(account.sub, names = new Set());
        names.add(name);
      }),

    getAccount: (provider, providerAccountId) =>
      settle(() => {
        const name = accountName(
          checkKey("provider", provider),
          checkKey("providerAccountId", providerAccountId),
        );
        const account = accounts.get(name);
        return account === undefined ? null : { ...account };
      }),

    listAccounts: (sub) =>
      settle(() => {
        const names = users.get(checkKey("sub", sub)) ?? [];
        return [...names].map((name) => ({ ...accounts.get(name)! }));
      }),

    deleteAccount: (provider, providerAccountId) =>
      settle(() => {
        const name = accountName(
          checkKey("provider", provider),
          checkKey("providerAccountId", providerAccountId),
        );
        const account = accounts.get(name);
        if (account === undefined) return false;
        accounts.delete(name);
        unlist(account.sub, name);
        return true;
      }),
  };
}
