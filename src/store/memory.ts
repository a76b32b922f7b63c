/**
 * `memoryStore`: a {@linkcode SessionStore} in this process's memory, with a
 * bound of its own for each kind of entry, so that a flood of one kind never
 * evicts another.
 *
 * @module
 */

import { checkKey, checkSeconds, checkSession, hitCount, isActive } from "./_validate.ts";
import type { HitCount, SessionStore, StoredSession } from "./types.ts";

/** Options for {@linkcode memoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most sessions kept at once, for all users together. When reached, the
   * session saved longest ago is ended to make room (its user is signed out
   * early). Defaults to 100,000.
   */
  maxSessions?: number;
  /**
   * Most sessions kept for one user. When reached, that user's own session
   * saved longest ago is ended. Defaults to 100.
   */
  maxSessionsPerUser?: number;
  /**
   * Most hit counters (`hit`) kept at once. When reached, the counter with
   * the fewest hits is dropped (the oldest among equals), so that a flood of
   * counters with one hit each goes before a throttled key. Defaults to 100,000.
   */
  maxCounters?: number;
  /**
   * Most one-time marks (`consume`) kept at once. When reached, the mark
   * that expires soonest is dropped, and from then on `consume` answers
   * `false` for any mark that would expire no later than it (and up to one
   * second after it), so that a dropped mark can never be used a second
   * time; marks that expire later, such as those of new sign-ins, keep
   * working. Defaults to 100,000.
   */
  maxMarks?: number;
  /**
   * @deprecated Use `maxSessions`, `maxCounters` and `maxMarks`, each its own
   * bound. `maxEntries` sets each of the three that is not given.
   */
  maxEntries?: number;
  /**
   * The clock every expiry follows, in milliseconds since the epoch: give it
   * the `clock` given to `createAuth`. Defaults to `Date.now`.
   */
  clock?: () => number;
}

const DEFAULT_MAX_ENTRIES = 100_000;
const DEFAULT_MAX_SESSIONS_PER_USER = 100;
// Expired entries are removed on writes, by a full pass at most this often...
const SWEEP_INTERVAL_MS = 60_000;
// ...or, when a kind is full, at most this often before evicting its live entries.
const FULL_SWEEP_INTERVAL_MS = 1_000;
// Two computations of one value's expiry (now + remaining lifetime) differ by the time between
// them: a mark expiring within this margin of a dropped one may be that one, and is refused.
const MARK_FLOOR_MARGIN_MS = 1_000;

interface Counter {
  count: number;
  endsAtMs: number;
}

/**
 * A {@linkcode SessionStore} in this process's memory: sessions, one-time
 * marks and hit counters are not shared with other processes and are lost
 * on restart. Use `redisStore` or `denoKvStore` when the app runs on more
 * than one instance.
 *
 * Expiry is checked on every read, against `clock`, and expired entries are
 * removed on writes. Each kind has a bound of its own, so that filling one
 * (hit counters with distinct usernames, marks with completed sign-ins)
 * never signs anyone out, never resets a throttled username, and never
 * stops `consume`:
 *
 * - sessions: `maxSessionsPerUser` ends a user's own oldest session first;
 *   `maxSessions` ends the oldest of all;
 * - hit counters: `maxCounters` drops the counter with the fewest hits;
 * - one-time marks: `maxMarks` drops the mark that expires soonest and then
 *   refuses (`consume` answers `false`) every mark that would expire no
 *   later, so no value is ever accepted twice. Pass the value's remaining
 *   lifetime as `ttlSeconds`, so that a value's mark always has the same
 *   expiry and only the oldest values are refused.
 *
 * At the default bounds, a full store holds about 45 MB of sessions, 25 MB
 * of counters and 25 MB of marks; evicting costs a few microseconds.
 *
 * @example
 * ```ts
 * import { memoryStore } from "@service-stack/auth";
 *
 * const store = memoryStore({ maxSessions: 10_000, maxCounters: 50_000, maxMarks: 50_000 });
 * console.log(await store.consume("state:abc", 600)); // true
 * console.log(await store.consume("state:abc", 600)); // false
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): SessionStore {
  const fallback = bound(options.maxEntries, "maxEntries", DEFAULT_MAX_ENTRIES);
  const maxSessions = bound(options.maxSessions, "maxSessions", fallback);
  const maxPerUser = bound(
    options.maxSessionsPerUser,
    "maxSessionsPerUser",
    DEFAULT_MAX_SESSIONS_PER_USER,
  );
  const maxCounters = bound(options.maxCounters, "maxCounters", fallback);
  const maxMarks = bound(options.maxMarks, "maxMarks", fallback);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") {
    throw new TypeError("clock must be a function; expected () => milliseconds, e.g. Date.now.");
  }

  // Maps keep insertion order: the first session is the one saved longest ago.
  const sessions = new Map<string, Readonly<StoredSession>>();
  const users = new Map<string, Set<string>>();
  // Counters by count, each set in the order its keys reached that count: the eviction order.
  const counters = new Map<string, Counter>();
  const byCount = new Map<number, Set<string>>();
  let lowestCount = 1;
  // Iterators resumed where the last eviction stopped: restarting at the front would step over
  // every entry deleted since the table was last rebuilt, which makes a flood quadratic.
  let sessionCursor: Iterator<string> = sessions.keys();
  const countCursors = new Map<number, Iterator<string>>();
  // Marks, and a min-heap of [expiry, key] (stale pairs are skipped when popped).
  const marks = new Map<string, number>();
  const heap: [number, string][] = [];
  let markFloorMs = -Infinity;
  let lastSweep = -Infinity;
  const lastFullSweep = { sessions: -Infinity, counters: -Infinity };

  function now(): number {
    const ms = clock();
    // An invalid time would make every expiry comparison false, that is, keep or pass everything.
    if (typeof ms !== "number" || !Number.isFinite(ms)) {
      throw new TypeError("The store's clock answered no finite number; expected milliseconds.");
    }
    return ms;
  }

  function removeSession(id: string): void {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    const ids = users.get(session.sub);
    ids?.delete(id);
    if (ids?.size === 0) users.delete(session.sub);
  }

  function removeCounter(key: string): void {
    const counter = counters.get(key);
    if (counter === undefined) return;
    counters.delete(key);
    const keys = byCount.get(counter.count);
    keys?.delete(key);
    if (keys?.size === 0) dropCount(counter.count);
  }

  function dropCount(count: number): void {
    byCount.delete(count);
    countCursors.delete(count);
  }

  function addToCount(key: string, count: number): void {
    let keys = byCount.get(count);
    if (keys === undefined) byCount.set(count, keys = new Set());
    keys.add(key);
  }

  function sweepSessions(nowMs: number): void {
    lastFullSweep.sessions = nowMs;
    for (const [id, session] of sessions) if (!isActive(session, nowMs)) removeSession(id);
  }

  function sweepCounters(nowMs: number): void {
    lastFullSweep.counters = nowMs;
    for (const [key, counter] of counters) if (counter.endsAtMs <= nowMs) removeCounter(key);
  }

  /** Removes the marks that have expired, soonest first. */
  function pruneMarks(nowMs: number): void {
    while (heap.length > 0 && heap[0][0] <= nowMs) {
      const [expiresAtMs, key] = popMark();
      if (marks.get(key) === expiresAtMs) marks.delete(key);
    }
  }

  /** Sweeps every kind now and then (a clock that went back sweeps too). */
  function sweepNowAndThen(nowMs: number): void {
    if (nowMs - lastSweep < SWEEP_INTERVAL_MS && nowMs >= lastSweep) return;
    lastSweep = nowMs;
    pruneMarks(nowMs);
    sweepSessions(nowMs);
    sweepCounters(nowMs);
  }

  function canSweep(last: number, nowMs: number): boolean {
    return nowMs - last >= FULL_SWEEP_INTERVAL_MS || nowMs < last;
  }

  function makeRoomForSession(sub: string, nowMs: number): void {
    const own = users.get(sub);
    if (own !== undefined && own.size >= maxPerUser) {
      for (const id of [...own]) if (!isActive(sessions.get(id)!, nowMs)) removeSession(id);
      // The user's own session saved longest ago goes: nobody else is signed out.
      while (own.size >= maxPerUser) removeSession(own.values().next().value!);
    }
    if (sessions.size < maxSessions) return;
    if (canSweep(lastFullSweep.sessions, nowMs)) sweepSessions(nowMs);
    while (sessions.size >= maxSessions) {
      let oldest = sessionCursor.next();
      if (oldest.done) oldest = (sessionCursor = sessions.keys()).next();
      removeSession(oldest.value);
    }
  }

  function makeRoomForCounter(nowMs: number): void {
    if (counters.size < maxCounters) return;
    if (canSweep(lastFullSweep.counters, nowMs)) sweepCounters(nowMs);
    while (counters.size >= maxCounters) {
      if (!byCount.has(lowestCount)) {
        lowestCount = Infinity;
        for (const count of byCount.keys()) if (count < lowestCount) lowestCount = count;
      }
      let cursor = countCursors.get(lowestCount);
      let oldest = cursor?.next();
      if (oldest === undefined || oldest.done) {
        countCursors.set(lowestCount, cursor = byCount.get(lowestCount)!.values());
        oldest = cursor.next();
      }
      removeCounter(oldest.value);
    }
  }

  function pushMark(expiresAtMs: number, key: string): void {
    heap.push([expiresAtMs, key]);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent][0] <= heap[i][0]) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  function popMark(): [number, string] {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && heap[left][0] < heap[least][0]) least = left;
        if (right < heap.length && heap[right][0] < heap[least][0]) least = right;
        if (least === i) break;
        [heap[least], heap[i]] = [heap[i], heap[least]];
        i = least;
      }
    }
    return top;
  }

  /** The live mark that expires soonest (stale heap pairs dropped on the way). */
  function soonestMark(): [number, string] | undefined {
    while (heap.length > 0 && marks.get(heap[0][1]) !== heap[0][0]) popMark();
    return heap[0];
  }

  function activeSession(id: string, nowMs: number): Readonly<StoredSession> | null {
    const session = sessions.get(id);
    if (session === undefined) return null;
    if (!isActive(session, nowMs)) {
      removeSession(id);
      return null;
    }
    return session;
  }

  return {
    saveSession: (input) =>
      settle(() => {
        const session = Object.freeze(checkSession(input));
        const nowMs = now();
        removeSession(session.id);
        if (!isActive(session, nowMs)) return;
        sweepNowAndThen(nowMs);
        makeRoomForSession(session.sub, nowMs);
        sessions.set(session.id, session);
        let ids = users.get(session.sub);
        if (ids === undefined) users.set(session.sub, ids = new Set());
        ids.add(session.id);
      }),

    getSession: (id) =>
      settle(() => {
        const session = activeSession(checkKey("session id", id), now());
        return session === null ? null : { ...session };
      }),

    deleteSession: (id) =>
      settle(() => {
        const existed = activeSession(checkKey("session id", id), now()) !== null;
        removeSession(id);
        return existed;
      }),

    listSessions: (sub) =>
      settle(() => {
        const nowMs = now();
        const list: StoredSession[] = [];
        for (const id of [...users.get(checkKey("sub", sub)) ?? []]) {
          const session = activeSession(id, nowMs);
          if (session !== null) list.push({ ...session });
        }
        return list;
      }),

    deleteSessions: (sub) =>
      settle(() => {
        const nowMs = now();
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
        const nowMs = now();
        pruneMarks(nowMs);
        if (marks.has(key)) return false;
        const expiresAtMs = nowMs + ttlMs;
        // This value may be one whose mark was dropped: refused, never accepted twice.
        if (expiresAtMs <= markFloorMs + MARK_FLOOR_MARGIN_MS) return false;
        if (marks.size >= maxMarks) {
          const soonest = soonestMark()!;
          // The new mark would be the first to go: this value, never accepted, is the one refused.
          if (expiresAtMs <= soonest[0]) return false;
          popMark();
          marks.delete(soonest[1]);
          markFloorMs = Math.max(markFloorMs, soonest[0]);
        }
        marks.set(key, expiresAtMs);
        pushMark(expiresAtMs, key);
        return true;
      }),

    hit: (key, windowSeconds) =>
      settle((): HitCount => {
        checkKey("key", key);
        const windowMs = checkSeconds("windowSeconds", windowSeconds);
        const nowMs = now();
        const counter = counters.get(key);
        if (counter !== undefined && counter.endsAtMs > nowMs) {
          const keys = byCount.get(counter.count)!;
          keys.delete(key);
          if (keys.size === 0) {
            dropCount(counter.count);
            if (lowestCount === counter.count) lowestCount = counter.count + 1;
          }
          counter.count++;
          addToCount(key, counter.count);
          return hitCount(counter.count, counter.endsAtMs - nowMs);
        }
        removeCounter(key);
        sweepNowAndThen(nowMs);
        makeRoomForCounter(nowMs);
        counters.set(key, { count: 1, endsAtMs: nowMs + windowMs });
        addToCount(key, 1);
        lowestCount = 1;
        return hitCount(1, windowMs);
      }),

    hits: (key) =>
      settle((): HitCount | null => {
        const counter = counters.get(checkKey("key", key));
        const nowMs = now();
        return counter !== undefined && counter.endsAtMs > nowMs
          ? hitCount(counter.count, counter.endsAtMs - nowMs)
          : null;
      }),

    resetHits: (key) =>
      settle(() => {
        removeCounter(checkKey("key", key));
      }),
  };
}

/** A whole number above 0, or the fallback when not given. */
function bound(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(
      `${name} must be a whole number above 0; expected e.g. 100000, not ${value}.`,
    );
  }
  return value;
}

/** Runs `fn` now and turns its result or its throw into a settled promise. */
function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}
