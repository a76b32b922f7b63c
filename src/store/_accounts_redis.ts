/**
 * The `AccountStore` half of `redisStore`. Keys (under the store's prefix),
 * each command about one key, so that a Redis Cluster routes it:
 * - `<prefix>account:<name>`: the account as JSON, where `<name>` is
 *   `["<provider>","<providerAccountId>"]`: every key of one account is this
 *   one key, in one slot; accounts spread over the cluster by name;
 * - `<prefix>accounts:<sub>`: the user's index, a sorted set of account
 *   names scored by their last save (ms), so the account saved last is
 *   listed last; written after the account and cleaned after it (names
 *   whose account is gone or moved are pruned when the index is read).
 *
 * Neither key expires: an expired access token is not an expired account.
 *
 * @module
 */

import { checkKey, corrupt } from "./_validate.ts";
import { accountName, checkAccount, parseAccount } from "./_accounts.ts";
import type { AccountStore, StoredAccount } from "./types.ts";

export type { AccountStore };

/** Sends one command about `key` (its only key). */
export type RedisAccountCommand = (key: string, args: string[]) => Promise<unknown>;

// Writes an account; returns the sub it belonged to before when that was another user.
// KEYS: account. ARGV: json, sub.
const SAVE_ACCOUNT = `
local old = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1])
if old then
  local ok, previous = pcall(cjson.decode, old)
  if ok and type(previous) == 'table' and type(previous.sub) == 'string'
      and previous.sub ~= ARGV[2] then
    return previous.sub
  end
end
return false
`;

// Puts an account name last in its user's index: scored by the save time (ms), and above every
// other entry, so that two saves in one millisecond keep their order. KEYS: index. ARGV: ms, name.
const INDEX_ACCOUNT = `
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
local score = tonumber(ARGV[1])
if #last == 2 and last[1] ~= ARGV[2] and tonumber(last[2]) >= score then
  score = tonumber(last[2]) + 1
end
redis.call('ZADD', KEYS[1], string.format('%d', score), ARGV[2])
return 1
`;

// Deletes a key and returns what it held. KEYS: account.
const TAKE_ACCOUNT = `
local old = redis.call('GET', KEYS[1])
if old then redis.call('DEL', KEYS[1]) end
return old
`;

function subOf(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value?.sub === "string" && value.sub !== "" ? value.sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The four account methods over `command`, with keys under `prefix`.
 *
 * @example
 * ```ts ignore
 * return { ...sessionMethods, ...redisAccounts(command, prefix) };
 * ```
 */
export function redisAccounts(command: RedisAccountCommand, prefix: string): AccountStore {
  const accountKey = (provider: string, id: string) =>
    `${prefix}account:${accountName(provider, id)}`;
  const indexKey = (sub: string) => `${prefix}accounts:${sub}`;
  const script = (source: string, key: string, args: string[]) =>
    command(key, ["EVAL", source, "1", key, ...args]);

  return {
    async saveAccount(input: StoredAccount): Promise<void> {
      const account = checkAccount(input);
      const name = accountName(account.provider, account.providerAccountId);
      const key = accountKey(account.provider, account.providerAccountId);
      const moved = await script(SAVE_ACCOUNT, key, [JSON.stringify(account), account.sub]);
      if (typeof moved === "string") {
        await command(indexKey(moved), ["ZREM", indexKey(moved), name]);
      }
      // The account first, its index entry after: an index never names an account not written.
      await script(INDEX_ACCOUNT, indexKey(account.sub), [String(Date.now()), name]);
    },

    async getAccount(provider: string, providerAccountId: string) {
      checkKey("provider", provider);
      checkKey("providerAccountId", providerAccountId);
      const key = accountKey(provider, providerAccountId);
      const reply = await command(key, ["GET", key]);
      if (reply === null || reply === undefined) return null;
      return parseAccount(reply, { provider, providerAccountId });
    },

    async listAccounts(sub: string): Promise<StoredAccount[]> {
      checkKey("sub", sub);
      const names = await command(indexKey(sub), ["ZRANGE", indexKey(sub), "0", "-1"]);
      if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) {
        throw corrupt("an account list");
      }
      const pairs = names.map((name: string) => {
        const pair = (() => {
          try {
            return JSON.parse(name);
          } catch {
            return undefined;
          }
        })();
        if (!Array.isArray(pair) || pair.length !== 2) throw corrupt("an account list");
        return pair as [string, string];
      });
      // Accounts live in slots of their own: one GET each, sent together.
      const replies = await Promise.all(
        pairs.map(([provider, id]) =>
          command(accountKey(provider, id), ["GET", accountKey(provider, id)])
        ),
      );
      const accounts: StoredAccount[] = [];
      const gone: string[] = [];
      for (const [i, reply] of replies.entries()) {
        const [provider, providerAccountId] = pairs[i];
        if (reply === null || reply === undefined) {
          gone.push(names[i]);
          continue;
        }
        const account = parseAccount(reply, { provider, providerAccountId });
        if (account.sub === sub) accounts.push(account);
        else gone.push(names[i]);
      }
      if (gone.length > 0) await command(indexKey(sub), ["ZREM", indexKey(sub), ...gone]);
      return accounts;
    },

    async deleteAccount(provider: string, providerAccountId: string): Promise<boolean> {
      checkKey("provider", provider);
      checkKey("providerAccountId", providerAccountId);
      const old = await script(TAKE_ACCOUNT, accountKey(provider, providerAccountId), []);
      if (old === null || old === undefined) return false;
      const sub = subOf(old);
      const name = accountName(provider, providerAccountId);
      if (sub !== undefined) await command(indexKey(sub), ["ZREM", indexKey(sub), name]);
      return true;
    },
  };
}
