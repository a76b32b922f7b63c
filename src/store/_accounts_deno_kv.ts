/**
 * The `AccountStore` half of `denoKvStore`. Keys (under the store's prefix):
 * - `[...prefix, "account", provider, providerAccountId]`: the account;
 * - `[...prefix, "accounts", sub, provider, providerAccountId]`: a copy in
 *   its user's list, written in the same atomic operation.
 *
 * Neither expires: an expired access token is not an expired account.
 *
 * @module
 */

import { checkKey, corrupt } from "./_validate.ts";
import { checkAccount, readAccount } from "./_accounts.ts";
import type { AccountStore, StoredAccount } from "./types.ts";

export type { AccountStore };

/** A Deno KV key (as `deno_kv.ts` names it; repeated here so that neither file imports the other). */
type KvKey = readonly (string | number | bigint | boolean | Uint8Array)[];
/** An entry read from Deno KV. */
interface KvEntry {
  key: readonly unknown[];
  value: unknown;
  versionstamp: string | null;
}
/** The part of an atomic operation the account methods use. */
interface KvAtomic {
  check(...checks: { key: KvKey; versionstamp: string | null }[]): KvAtomic;
  set(key: KvKey, value: unknown): KvAtomic;
  delete(key: KvKey): KvAtomic;
  commit(): Promise<{ ok: boolean }>;
}
/** The part of `Deno.Kv` the account methods use. */
interface KvLike {
  get(key: KvKey): Promise<KvEntry>;
  list(selector: { prefix: KvKey }): AsyncIterable<KvEntry>;
  atomic(): KvAtomic;
}

/**
 * The four account methods over `kv`, with keys under `prefix`; `retry`
 * runs an optimistic write until it commits (`undefined` means "again").
 *
 * @example
 * ```ts ignore
 * return { ...sessionMethods, ...denoKvAccounts(kv, prefix, retry) };
 * ```
 */
export function denoKvAccounts(
  kv: KvLike,
  prefix: KvKey,
  retry: <T>(attempt: () => Promise<T | undefined>) => Promise<T>,
): AccountStore {
  const accountKey = (provider: string, id: string): KvKey => [...prefix, "account", provider, id];
  const listKey = (sub: string): KvKey => [...prefix, "accounts", sub];
  const userKey = (sub: string, provider: string, id: string): KvKey => [
    ...prefix,
    "accounts",
    sub,
    provider,
    id,
  ];

  return {
    async saveAccount(input: StoredAccount): Promise<void> {
      const account = checkAccount(input);
      const { provider, providerAccountId: id, sub } = account;
      await retry(async () => {
        const entry = await kv.get(accountKey(provider, id));
        const operation = kv.atomic()
          .check({ key: accountKey(provider, id), versionstamp: entry.versionstamp })
          .set(accountKey(provider, id), account)
          .set(userKey(sub, provider, id), account);
        if (entry.versionstamp !== null) {
          const old = readAccount(entry.value, { provider, providerAccountId: id });
          if (old.sub !== sub) operation.delete(userKey(old.sub, provider, id));
        }
        const { ok } = await operation.commit();
        return ok ? true : undefined;
      });
    },

    async getAccount(provider: string, providerAccountId: string) {
      checkKey("provider", provider);
      checkKey("providerAccountId", providerAccountId);
      const entry = await kv.get(accountKey(provider, providerAccountId));
      return entry.versionstamp === null
        ? null
        : readAccount(entry.value, { provider, providerAccountId });
    },

    async listAccounts(sub: string): Promise<StoredAccount[]> {
      checkKey("sub", sub);
      const accounts: StoredAccount[] = [];
      for await (const entry of kv.list({ prefix: listKey(sub) })) {
        const [provider, id] = entry.key.slice(-2);
        if (typeof provider !== "string" || typeof id !== "string") {
          throw corrupt("an account list entry");
        }
        accounts.push(readAccount(entry.value, { provider, providerAccountId: id, sub }));
      }
      // Listed in save order (by updatedAt; equal times keep the key order).
      return accounts.sort((a, b) => a.updatedAt - b.updatedAt);
    },

    async deleteAccount(provider: string, providerAccountId: string): Promise<boolean> {
      checkKey("provider", provider);
      checkKey("providerAccountId", providerAccountId);
      return await retry(async () => {
        const entry = await kv.get(accountKey(provider, providerAccountId));
        if (entry.versionstamp === null) return false;
        const account = readAccount(entry.value, { provider, providerAccountId });
        const { ok } = await kv.atomic()
          .check({ key: accountKey(provider, providerAccountId), versionstamp: entry.versionstamp })
          .delete(accountKey(provider, providerAccountId))
          .delete(userKey(account.sub, provider, providerAccountId))
          .commit();
        return ok ? true : undefined;
      });
    },
  };
}
