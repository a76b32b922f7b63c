/**
 * The {@linkcode ApiKeyStore} part of `denoKvStore`. Entries under the
 * store's prefix, written with `expireIn` when the key expires (and the
 * expiry checked on every read, since Deno KV deletes expired entries only
 * eventually):
 * - `[...prefix, "apikey", id]`: the key's record;
 * - `[...prefix, "apikeys", sub, id]`: a copy in its user's list, written,
 *   touched and deleted atomically with it.
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

/** A Deno KV key (as `deno_kv.ts` types it; declared here so that no import circle forms). */
type KvKey = readonly (string | number | bigint | boolean | Uint8Array)[];

interface KvAtomic {
  check(...checks: { key: KvKey; versionstamp: string | null }[]): KvAtomic;
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): KvAtomic;
  delete(key: KvKey): KvAtomic;
  commit(): Promise<{ ok: boolean }>;
}

interface KvEntry {
  key: readonly unknown[];
  value: unknown;
  versionstamp: string | null;
}

/** The part of `Deno.Kv` API keys use: `denoKvStore`'s `KvLike` fits it. */
interface Kv {
  get(key: KvKey): Promise<KvEntry>;
  list(selector: { prefix: KvKey }): AsyncIterable<KvEntry>;
  atomic(): KvAtomic;
}

/** Runs an optimistic write until it commits (`denoKvStore`'s retry loop). */
export type KvRetry = <T>(attempt: () => Promise<T | undefined>) => Promise<T>;

/** The API key methods of `denoKvStore`, over its database, prefix and retry loop. */
export function denoKvApiKeys(kv: Kv, prefix: KvKey, retry: KvRetry): ApiKeyStore {
  // A copy (byte arrays too): the caller changing its array later must not move the keys.
  const base = prefix.map((part) => part instanceof Uint8Array ? part.slice() : part);
  const keyOf = (id: string): KvKey => [...base, "apikey", id];
  const listOf = (sub: string): KvKey => [...base, "apikeys", sub];
  const userKeyOf = (sub: string, id: string): KvKey => [...base, "apikeys", sub, id];
  const expireIn = (apiKey: StoredApiKey, nowMs: number) =>
    apiKey.expiresAt === undefined
      ? undefined
      : { expireIn: Math.max(1, Math.ceil(apiKey.expiresAt * 1000 - nowMs)) };

  return {
    async saveApiKey(input: StoredApiKey): Promise<void> {
      const apiKey = checkApiKey(input);
      const nowMs = Date.now();
      if (!isLiveApiKey(apiKey, nowMs)) return;
      await retry(async () => {
        const entry = await kv.get(keyOf(apiKey.id));
        const operation = kv.atomic()
          .check({ key: keyOf(apiKey.id), versionstamp: entry.versionstamp });
        // A record saved again under another user leaves that user's list.
        if (entry.versionstamp !== null) {
          try {
            const old = readApiKey(entry.value, { id: apiKey.id });
            if (old.sub !== apiKey.sub) operation.delete(userKeyOf(old.sub, apiKey.id));
          } catch {
            // an unreadable entry is simply replaced
          }
        }
        const { ok } = await operation
          .set(keyOf(apiKey.id), apiKey, expireIn(apiKey, nowMs))
          .set(userKeyOf(apiKey.sub, apiKey.id), apiKey, expireIn(apiKey, nowMs))
          .commit();
        return ok ? true : undefined;
      });
    },

    async getApiKey(id: string): Promise<StoredApiKey | null> {
      checkApiKeyId(id);
      const entry = await kv.get(keyOf(id));
      if (entry.versionstamp === null) return null;
      const apiKey = readApiKey(entry.value, { id });
      return isLiveApiKey(apiKey, Date.now()) ? apiKey : null;
    },

    async listApiKeys(sub: string): Promise<StoredApiKey[]> {
      checkKey("sub", sub);
      const list: StoredApiKey[] = [];
      const nowMs = Date.now();
      for await (const entry of kv.list({ prefix: listOf(sub) })) {
        const id = entry.key.at(-1);
        if (typeof id !== "string") throw corrupt("an API key list entry");
        const apiKey = readApiKey(entry.value, { id, sub });
        if (isLiveApiKey(apiKey, nowMs)) list.push(apiKey);
      }
      return list;
    },

    async deleteApiKey(id: string): Promise<boolean> {
      checkApiKeyId(id);
      return await retry(async () => {
        const entry = await kv.get(keyOf(id));
        if (entry.versionstamp === null) return false;
        const apiKey = readApiKey(entry.value, { id });
        const { ok } = await kv.atomic()
          .check({ key: keyOf(id), versionstamp: entry.versionstamp })
          .delete(keyOf(id))
          .delete(userKeyOf(apiKey.sub, id))
          .commit();
        return ok ? isLiveApiKey(apiKey, Date.now()) : undefined;
      });
    },

    async touchApiKey(id: string, lastUsedAt: number): Promise<void> {
      checkApiKeyId(id);
      const at = checkLastUsedAt(lastUsedAt);
      await retry(async () => {
        const entry = await kv.get(keyOf(id));
        if (entry.versionstamp === null) return true;
        const apiKey = { ...readApiKey(entry.value, { id }), lastUsedAt: at };
        const nowMs = Date.now();
        if (!isLiveApiKey(apiKey, nowMs)) return true;
        const { ok } = await kv.atomic()
          .check({ key: keyOf(id), versionstamp: entry.versionstamp })
          .set(keyOf(id), apiKey, expireIn(apiKey, nowMs))
          .set(userKeyOf(apiKey.sub, id), apiKey, expireIn(apiKey, nowMs))
          .commit();
        return ok ? true : undefined;
      });
    },
  };
}
