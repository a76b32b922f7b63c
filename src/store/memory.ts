/**
 * `memoryStore`: a {@linkcode SessionStore} in this process's memory.
 *
 * @module
 */

import { checkKey, checkSeconds, checkSession, hitCount, isActive } from "./_validate.ts";
import type { HitCount, SessionStore, StoredSession } from "./types.ts";

/** Options for {@linkcode memoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most entries kept at once: sessions, one-time marks and hit counters
   * together. Defaults to 100,000 (tens of megabytes at most).
   */
  maxEntries?: number;
}

const DEFAULT_MAX_ENTRIES = 100_000;
// Expired entries are removed on writes, by a full pass at most this often...
const SWEEP_INTERVAL_MS = 60_000;
// ...or, when the store is full, at most this often before evicting live entries.
const FULL_SWEEP_INTERVAL_MS = 1_000;

interface SessionEntry {
  session: Readonly<StoredSession>;
  seq: number;
}

interface HitEntry {
  count: number;
  endsAtMs: number;
  seq: number;
}

/**
 * A {@linkcode SessionStore} in this process's memory: sessions, one-time
 * marks and throttles are not shared with other processes and are lost on
 * restart. Use `redisStore` or `denoKvStore` when the app runs on more than
 * one instance.
 *
 * Expiry is checked on every read, and expired entries are removed on
 * writes. Memory is bounded by `maxEntries`: when full, the oldest session
 * or hit counter is evicted first (a user signed out early, or a throttle
 * restarted). A live one-time mark is never evicted, since that would let
 * its value be used twice: when the store is full of live marks, `consume`
 * (and any other write) rejects, and the caller fails closed.
 *
 * @example
 * ```ts
 * import { memoryStore } from "@service-stack/auth";
 *
 * const store = memoryStore({ maxEntries: 10_000 });
 * console.log(await store.consume("state:abc", 600)); // true
 * console.log(await store.consume("state:abc", 600)); // false
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): SessionStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError("maxEntries must be a whole number above 0; expected e.g. 100000.");
  }
  // Maps keep insertion order, and `seq` orders entries across the two evictable maps.
  const sessions = new Map<string, SessionEntry>();
  const users = new Map<string, Set<string>>();
  const marks = new Map<string, number>();
  const hits = new Map<string, HitEntry>();
  let seq = 0;
  let lastSweep = Date.now();

  function size(): number {
    return sessions.size + marks.size + hits.size;
  }

  function removeSession(id: string): boolean {
    const entry = sessions.get(id);
    if (entry === undefined) return false;
    sessions.delete(id);
    const ids = users.get(entry.session.sub);
    ids?.delete(id);
    if (ids?.size === 0) users.delete(entry.session.sub);
    return true;
  }

  function sweep(nowMs: number): void {
    lastSweep = nowMs;
    for (const [id, entry] of sessions) {
      if (!isActive(entry.session, nowMs)) removeSession(id);
    }
    for (const [key, expiresAtMs] of marks) if (expiresAtMs <= nowMs) marks.delete(key);
    for (const [key, entry] of hits) if (entry.endsAtMs <= nowMs) hits.delete(key);
  }

  /** Sweeps now and then, and frees one slot for a new entry, evicting oldest-first. */
  function makeRoom(nowMs: number): void {
    if (nowMs - lastSweep >= SWEEP_INTERVAL_MS) sweep(nowMs);
    if (size() < maxEntries) return;
    if (nowMs - lastSweep >= FULL_SWEEP_INTERVAL_MS) sweep(nowMs);
    while (size() >= maxEntries) {
      const session = sessions.entries().next().value;
      const hit = hits.entries().next().value;
      if (session === undefined && hit === undefined) {
        throw new Error(
          `The memory store is full of unexpired one-time marks (maxEntries ${maxEntries}); ` +
            "expected a larger maxEntries or a shared store.",
        );
      }
      if (hit === undefined || (session !== undefined && session[1].seq < hit[1].seq)) {
        removeSession(session![0]);
      } else {
        hits.delete(hit[0]);
      }
    }
  }

  function activeSession(id: string, nowMs: number): Readonly<StoredSession> | null {
    const entry = sessions.get(id);
    if (entry === undefined) return null;
    if (!isActive(entry.session, nowMs)) {
      removeSession(id);
      return null;
    }
    return entry.session;
  }

  return {
    saveSession: (input) =>
      settle(() => {
        const session = Object.freeze(checkSession(input));
        const nowMs = Date.now();
        removeSession(session.id);
        if (!isActive(session, nowMs)) return;
        makeRoom(nowMs);
        sessions.set(session.id, { session, seq: seq++ });
        let ids = users.get(session.sub);
        if (ids === undefined) users.set(session.sub, ids = new Set());
        ids.add(session.id);
      }),

    getSession: (id) =>
      settle(() => {
        const session = activeSession(checkKey("session id", id), Date.now());
        return session === null ? null : { ...session };
      }),

    deleteSession: (id) =>
      settle(() => {
        const existed = activeSession(checkKey("session id", id), Date.now()) !== null;
        removeSession(id);
        return existed;
      }),

    listSessions: (sub) =>
      settle(() => {
        const nowMs = Date.now();
        const list: StoredSession[] = [];
        for (const id of [...users.get(checkKey("sub", sub)) ?? []]) {
          const session = activeSession(id, nowMs);
          if (session !== null) list.push({ ...session });
        }
        return list;
      }),

    deleteSessions: (sub) =>
      settle(() => {
        const nowMs = Date.now();
        let count = 0;
        for (const id of [...users.get(checkKey("sub", sub)) ?? []]) {
          if (activeSession(id, nowMs) !== null) count++;
          removeSession(id);
        }
        return count;
      }),

    consume: (key, ttlSeconds) =>
      settle(() => {
        checkKey("key", key);
        const ttlMs = checkSeconds("ttlSeconds", ttlSeconds);
        const nowMs = Date.now();
        const expiresAtMs = marks.get(key);
        if (expiresAtMs !== undefined && expiresAtMs > nowMs) return false;
        marks.delete(key);
        makeRoom(nowMs);
        marks.set(key, nowMs + ttlMs);
        return true;
      }),

    hit: (key, windowSeconds) =>
      settle((): HitCount => {
        checkKey("key", key);
        const windowMs = checkSeconds("windowSeconds", windowSeconds);
        const nowMs = Date.now();
        const entry = hits.get(key);
        if (entry !== undefined && entry.endsAtMs > nowMs) {
          entry.count++;
          return hitCount(entry.count, entry.endsAtMs - nowMs);
        }
        hits.delete(key);
        makeRoom(nowMs);
        hits.set(key, { count: 1, endsAtMs: nowMs + windowMs, seq: seq++ });
        return hitCount(1, windowMs);
      }),

    hits: (key) =>
      settle((): HitCount | null => {
        const entry = hits.get(checkKey("key", key));
        const nowMs = Date.now();
        return entry !== undefined && entry.endsAtMs > nowMs
          ? hitCount(entry.count, entry.endsAtMs - nowMs)
          : null;
      }),

    resetHits: (key) =>
      settle(() => {
        hits.delete(checkKey("key", key));
      }),
  };
}

/** Runs `fn` now and turns its result or its throw into a settled promise. */
function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}
