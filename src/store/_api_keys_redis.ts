/**
 * The {@linkcode ApiKeyStore} part of `redisStore`. Two kinds of key under
 * the store's prefix, each command and script touching exactly one of them
 * (so a cluster routes it, and keys and users spread over its slots):
 * - `<prefix>apikey:<id>`: a hash of `data` (the record's JSON without
 *   `lastUsedAt`) and `lastUsedAt`, expiring with the key (no TTL for a key
 *   that never expires); a read is one `HGETALL`;
 * - `<prefix>apikeys:<sub>`: the user's key ids, a sorted set scored by
 *   expiry in ms (`+inf` for none), expiring with its last key; written
 *   after the key and cleaned after it (ids whose key is gone are pruned
 *   when the set is read).
 *
 * @module
 */

import {
  checkApiKey,
  checkApiKeyId,
  checkLastUsedAt,
  isLiveApiKey,
  readApiKey,
} from "./_api_keys_validate.ts";
import { checkKey, corrupt } from "./_validate.ts";
import type { ApiKeyStore, StoredApiKey } from "./types.ts";

/** Sends one command about `key` (its only key); a cluster client routes it by that key. */
export type RedisCommand = (key: string, args: string[]) => Promise<unknown>;

// Replaces a key's hash. KEYS: apikey. ARGV: data json, ttl ms ("" for none), lastUsedAt ("" for none).
const SAVE = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'data', ARGV[1], 'lastUsedAt', ARGV[3])
if ARGV[2] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

// Adds an id to its user's set, prunes expired ids, and gives the set the
// lifetime of its last key. KEYS: set. ARGV: score (ms or +inf), id, now ms.
const INDEX = `
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if #last == 0 then return 0 end
if last[2] == 'inf' or last[2] == '+inf' then
  redis.call('PERSIST', KEYS[1])
else
  local ttl = math.max(1, math.ceil(tonumber(last[2]) - tonumber(ARGV[3])))
  redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
end
return 1
`;

// The ids of a user's set after pruning expired ones. KEYS: set. ARGV: now ms.
const IDS = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;

// Deletes a key and returns its data (to find its user's set). KEYS: apikey.
const TAKE = `
local data = redis.call('HGET', KEYS[1], 'data')
redis.call('DEL', KEYS[1])
return data
`;

// Records a use on a key that still exists (its TTL stays). KEYS: apikey. ARGV: lastUsedAt.
const TOUCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1])
return 1
`;

function hashFields(reply: unknown): Map<string, unknown> {
  if (Array.isArray(reply)) {
    if (reply.length % 2 !== 0) throw corrupt("an API key");
    const fields = new Map<string, unknown>();
    for (let i = 0; i < reply.length; i += 2) fields.set(String(reply[i]), reply[i + 1]);
    return fields;
  }
  if (reply instanceof Map) return new Map([...reply].map(([k, v]) => [String(k), v]));
  if (typeof reply === "object" && reply !== null) return new Map(Object.entries(reply));
  throw corrupt("an API key");
}

/** A key from its hash fields; `null` for an empty hash (no such key). */
function fromHash(reply: unknown, expected: { id?: string; sub?: string }): StoredApiKey | null {
  const fields = hashFields(reply);
  if (fields.size === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(String(fields.get("data")));
  } catch {
    throw corrupt("an API key");
  }
  if (typeof value !== "object" || value === null) throw corrupt("an API key");
  const record: Record<string, unknown> = { ...value };
  const lastUsedAt = fields.get("lastUsedAt");
  if (lastUsedAt !== "" && lastUsedAt !== undefined && lastUsedAt !== null) {
    const text = String(lastUsedAt);
    record.lastUsedAt = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  }
  return readApiKey(record, expected);
}

function subOf(data: unknown): string | undefined {
  if (typeof data !== "string") return undefined;
  try {
    const value = JSON.parse(data);
    return typeof value?.sub === "string" && value.sub !== "" ? value.sub : undefined;
  } catch {
    return undefined;
  }
}

/** The API key methods of `redisStore`, over its command function and prefix. */
export function redisApiKeys(command: RedisCommand, prefix: string): ApiKeyStore {
  const keyOf = (id: string) => `${prefix}apikey:${id}`;
  // "apikey:" then anything never equals "apikeys:": the sixth character after the prefix differs.
  const setOf = (sub: string) => `${prefix}apikeys:${sub}`;
  const script = (source: string, key: string, args: string[]) =>
    command(key, ["EVAL", source, "1", key, ...args]);

  async function read(id: string): Promise<StoredApiKey | null> {
    const apiKey = fromHash(await command(keyOf(id), ["HGETALL", keyOf(id)]), { id });
    return apiKey !== null && isLiveApiKey(apiKey, Date.now()) ? apiKey : null;
  }

  return {
    async saveApiKey(input: StoredApiKey): Promise<void> {
      const { lastUsedAt, ...data } = checkApiKey(input);
      const nowMs = Date.now();
      const expiresAtMs = data.expiresAt === undefined
        ? undefined
        : Math.ceil(data.expiresAt * 1000);
      if (expiresAtMs !== undefined && expiresAtMs <= nowMs) return;
      await script(SAVE, keyOf(data.id), [
        JSON.stringify(data),
        expiresAtMs === undefined ? "" : String(expiresAtMs - nowMs),
        lastUsedAt === undefined ? "" : String(lastUsedAt),
      ]);
      // The key first, its user's set after: a set never names a key that was not written.
      await script(INDEX, setOf(data.sub), [
        expiresAtMs === undefined ? "+inf" : String(expiresAtMs),
        data.id,
        String(nowMs),
      ]);
    },

    async getApiKey(id: string): Promise<StoredApiKey | null> {
      return await read(checkApiKeyId(id));
    },

    async listApiKeys(sub: string): Promise<StoredApiKey[]> {
      checkKey("sub", sub);
      const ids = await script(IDS, setOf(sub), [String(Date.now())]);
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
        throw corrupt("an API key list");
      }
      // Keys live in slots of their own: one HGETALL each, sent together.
      const replies = await Promise.all(
        ids.map((id) => command(keyOf(id), ["HGETALL", keyOf(id)])),
      );
      const list: StoredApiKey[] = [];
      const gone: string[] = [];
      const nowMs = Date.now();
      for (const [i, reply] of replies.entries()) {
        const apiKey = fromHash(reply, { id: ids[i] });
        if (apiKey === null) gone.push(ids[i]);
        else if (apiKey.sub === sub && isLiveApiKey(apiKey, nowMs)) list.push(apiKey);
      }
      if (gone.length > 0) await command(setOf(sub), ["ZREM", setOf(sub), ...gone]);
      return list;
    },

    async deleteApiKey(id: string): Promise<boolean> {
      checkApiKeyId(id);
      const data = await script(TAKE, keyOf(id), []);
      if (data === null || data === undefined) return false;
      // Deleted now; its set entry goes after (or is pruned on the next read).
      const sub = subOf(data);
      if (sub !== undefined) await command(setOf(sub), ["ZREM", setOf(sub), id]);
      return true;
    },

    async touchApiKey(id: string, lastUsedAt: number): Promise<void> {
      checkApiKeyId(id);
      await script(TOUCH, keyOf(id), [String(checkLastUsedAt(lastUsedAt))]);
    },
  };
}
