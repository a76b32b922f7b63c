/**
 * The {@linkcode ApiKeyStore} part of `memoryStore`: API keys in this
 * process's memory, never evicted (losing one would break a script), an
 * expired key removed when read and swept on writes.
 *
 * @module
 */

import { checkApiKey, checkApiKeyId, checkLastUsedAt, isLiveApiKey } from "./_api_keys_validate.ts";
import { checkKey } from "./_validate.ts";
import { settle } from "./_local.ts";
import type { ApiKeyStore, StoredApiKey } from "./types.ts";

/** The API key methods of `memoryStore`, following its clock (ms since the epoch). */
export function memoryApiKeys(now: () => number): ApiKeyStore {
  const apiKeys = new Map<string, StoredApiKey>();
  const byUser = new Map<string, Set<string>>();
  let writes = 0;

  function remove(id: string): boolean {
    const apiKey = apiKeys.get(id);
    if (apiKey === undefined) return false;
    apiKeys.delete(id);
    const ids = byUser.get(apiKey.sub);
    ids?.delete(id);
    if (ids?.size === 0) byUser.delete(apiKey.sub);
    return true;
  }

  function live(id: string, nowMs: number): StoredApiKey | null {
    const apiKey = apiKeys.get(id);
    if (apiKey === undefined) return null;
    if (!isLiveApiKey(apiKey, nowMs)) {
      remove(id);
      return null;
    }
    return apiKey;
  }

  function copy(apiKey: StoredApiKey): StoredApiKey {
    return { ...apiKey, scopes: [...apiKey.scopes] };
  }

  return {
    saveApiKey: (input) =>
      settle(() => {
        const apiKey = checkApiKey(input);
        const nowMs = now();
        // Expired keys go now and then (every 100 writes), so they never pile up.
        if (++writes % 100 === 0) { for (const id of [...apiKeys.keys()]) live(id, nowMs); }
        remove(apiKey.id);
        if (!isLiveApiKey(apiKey, nowMs)) return;
        apiKeys.set(apiKey.id, apiKey);
        let ids = byUser.get(apiKey.sub);
        if (ids === undefined) byUser.set(apiKey.sub, ids = new Set());
        ids.add(apiKey.id);
      }),

    getApiKey: (id) =>
      settle(() => {
        const apiKey = live(checkApiKeyId(id), now());
        return apiKey === null ? null : copy(apiKey);
      }),

    listApiKeys: (sub) =>
      settle(() => {
        const nowMs = now();
        const list: StoredApiKey[] = [];
        for (const id of [...byUser.get(checkKey("sub", sub)) ?? []]) {
          const apiKey = live(id, nowMs);
          if (apiKey !== null) list.push(copy(apiKey));
        }
        return list;
      }),

    deleteApiKey: (id) =>
      settle(() => {
        const existed = live(checkApiKeyId(id), now()) !== null;
        remove(id);
        return existed;
      }),

    touchApiKey: (id, lastUsedAt) =>
      settle(() => {
        const apiKey = live(checkApiKeyId(id), now());
        const at = checkLastUsedAt(lastUsedAt);
        if (apiKey !== null) apiKeys.set(id, { ...apiKey, lastUsedAt: at });
      }),
  };
}
