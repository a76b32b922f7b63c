/**
 * This process's memory for hit counters and one-time marks, each kind with
 * a bound of its own: the pieces `memoryStore` is built on, and the small
 * store the core falls back to without `session.store` (the credentials
 * throttle, single-use OAuth `state`, email and passkey challenges), which
 * so carries no session, passkey or validation code into a bundle.
 *
 * Callers pass milliseconds read from their clock; the pieces check nothing
 * else about their arguments.
 *
 * @module
 */

import type { HitCount, SessionStore } from "./types.ts";

/** What the core asks of the store that counts attempts and marks one-time values. */
export type CountersAndMarks = Pick<SessionStore, "consume" | "hit" | "resetHits" | "hits">;

/** The default bound of each kind of entry. */
export const DEFAULT_MAX_ENTRIES = 100_000;
// Expired entries are removed on writes, by a full pass at most this often...
const SWEEP_INTERVAL_MS = 60_000;
// ...or, when a kind is full, at most this often before evicting its live entries.
const FULL_SWEEP_INTERVAL_MS = 1_000;
// Two computations of one value's expiry (now + remaining lifetime) differ by the time between
// them: a mark expiring within this margin of a dropped one may be that one, and is refused.
const MARK_FLOOR_MARGIN_MS = 1_000;

/** Throws a TypeError unless `value` is a finite number of seconds above zero; returns milliseconds. */
export function checkSeconds(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name} must be a number of seconds above 0; expected e.g. 900.`);
  }
  return Math.max(1, Math.ceil(value * 1000));
}

/** The answer to `hit` for a window ending `remainingMs` from now. */
export function hitCount(count: number, remainingMs: number): HitCount {
  return { count, resetIn: Math.max(1, Math.ceil(remainingMs / 1000)) };
}

/** Reads `clock`, throwing a TypeError for anything but a finite number. */
export function readClock(clock: () => number): number {
  const ms = clock();
  // An invalid time would make every expiry comparison false, that is, keep or pass everything.
  if (typeof ms !== "number" || !Number.isFinite(ms)) {
    throw new TypeError("The store's clock answered no finite number; expected milliseconds.");
  }
  return ms;
}

/** Runs `fn` now and turns its result or its throw into a settled promise. */
export function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `sweep`, run at most once a minute (and whenever the clock went back). */
export function nowAndThen(sweep: (nowMs: number) => void): (nowMs: number) => void {
  let last = -Infinity;
  return (nowMs) => {
    if (nowMs - last < SWEEP_INTERVAL_MS && nowMs >= last) return;
    last = nowMs;
    sweep(nowMs);
  };
}

/** Whether a kind last swept at `last` may be swept again, before evicting live entries. */
export function canSweep(last: number, nowMs: number): boolean {
  return nowMs - last >= FULL_SWEEP_INTERVAL_MS || nowMs < last;
}

/** Hit counters in memory, at most `max` of them. */
export interface HitCounters {
  /** Counts a hit on `key`; a new window of `windowMs` starts when none is running. */
  hit(key: string, windowMs: number, nowMs: number): HitCount;
  /** The running count of `key`, or `null`. */
  hits(key: string, nowMs: number): HitCount | null;
  /** Forgets `key`'s count. */
  reset(key: string): void;
  /** Removes every counter whose window has ended. */
  sweep(nowMs: number): void;
}

interface Counter {
  count: number;
  endsAtMs: number;
}

/**
 * Hit counters bounded to `max`: when full, the counter with the fewest hits
 * goes (the oldest among equals), so a flood of counters with one hit each
 * goes before a throttled key. `beforeNew` runs before a new counter is made
 * (the owner's periodic sweep).
 */
export function hitCounters(max: number, beforeNew: (nowMs: number) => void): HitCounters {
  const counters = new Map<string, Counter>();
  // Counters by count, each set in the order its keys reached that count: the eviction order.
  const byCount = new Map<number, Set<string>>();
  let lowestCount = 1;
  // Iterators resumed where the last eviction stopped: restarting at the front would step over
  // every entry deleted since the table was last rebuilt, which makes a flood quadratic.
  const cursors = new Map<number, Iterator<string>>();
  let lastFullSweep = -Infinity;

  function reset(key: string): void {
    const counter = counters.get(key);
    if (counter === undefined) return;
    counters.delete(key);
    const keys = byCount.get(counter.count);
    keys?.delete(key);
    if (keys?.size === 0) dropCount(counter.count);
  }

  function dropCount(count: number): void {
    byCount.delete(count);
    cursors.delete(count);
  }

  function addToCount(key: string, count: number): void {
    let keys = byCount.get(count);
    if (keys === undefined) byCount.set(count, keys = new Set());
    keys.add(key);
  }

  function sweep(nowMs: number): void {
    lastFullSweep = nowMs;
    for (const [key, counter] of counters) if (counter.endsAtMs <= nowMs) reset(key);
  }

  function makeRoom(nowMs: number): void {
    if (counters.size < max) return;
    if (canSweep(lastFullSweep, nowMs)) sweep(nowMs);
    while (counters.size >= max) {
      if (!byCount.has(lowestCount)) {
        lowestCount = Infinity;
        for (const count of byCount.keys()) if (count < lowestCount) lowestCount = count;
      }
      let cursor = cursors.get(lowestCount);
      let oldest = cursor?.next();
      if (oldest === undefined || oldest.done) {
        cursors.set(lowestCount, cursor = byCount.get(lowestCount)!.values());
        oldest = cursor.next();
      }
      reset(oldest.value);
    }
  }

  return {
    hit(key, windowMs, nowMs) {
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
      reset(key);
      beforeNew(nowMs);
      makeRoom(nowMs);
      counters.set(key, { count: 1, endsAtMs: nowMs + windowMs });
      addToCount(key, 1);
      lowestCount = 1;
      return hitCount(1, windowMs);
    },
    hits(key, nowMs) {
      const counter = counters.get(key);
      return counter !== undefined && counter.endsAtMs > nowMs
        ? hitCount(counter.count, counter.endsAtMs - nowMs)
        : null;
    },
    reset,
    sweep,
  };
}

/** One-time marks in memory, at most `max` of them. */
export interface OneTimeMarks {
  /** Marks `key` used for `ttlMs`: `true` the first time, `false` once marked (or refused). */
  consume(key: string, ttlMs: number, nowMs: number): boolean;
  /** Removes the marks that have expired. */
  prune(nowMs: number): void;
}

/**
 * One-time marks bounded to `max`: when full, the mark that expires soonest
 * is dropped and its expiry becomes a floor: every value that would expire
 * no later (within a second) is refused, so no value is ever accepted twice,
 * while later ones, such as those of new sign-ins, keep working.
 */
export function oneTimeMarks(max: number): OneTimeMarks {
  const marks = new Map<string, number>();
  // A min-heap of [expiry, key] (stale pairs are skipped when popped).
  const heap: [number, string][] = [];
  let floorMs = -Infinity;

  function push(expiresAtMs: number, key: string): void {
    heap.push([expiresAtMs, key]);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent][0] <= heap[i][0]) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  function pop(): [number, string] {
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

  function prune(nowMs: number): void {
    while (heap.length > 0 && heap[0][0] <= nowMs) {
      const [expiresAtMs, key] = pop();
      if (marks.get(key) === expiresAtMs) marks.delete(key);
    }
  }

  return {
    consume(key, ttlMs, nowMs) {
      prune(nowMs);
      if (marks.has(key)) return false;
      const expiresAtMs = nowMs + ttlMs;
      // This value may be one whose mark was dropped: refused, never accepted twice.
      if (expiresAtMs <= floorMs + MARK_FLOOR_MARGIN_MS) return false;
      if (marks.size >= max) {
        // The live mark that expires soonest (stale heap pairs dropped on the way).
        while (marks.get(heap[0][1]) !== heap[0][0]) pop();
        const soonest = heap[0];
        // The new mark would be the first to go: this value, never accepted, is the one refused.
        if (expiresAtMs <= soonest[0]) return false;
        pop();
        marks.delete(soonest[1]);
        floorMs = Math.max(floorMs, soonest[0]);
      }
      marks.set(key, expiresAtMs);
      push(expiresAtMs, key);
      return true;
    },
    prune,
  };
}

/** Bounds of {@linkcode localStore} (tests make them small). */
export interface LocalStoreOptions {
  /** The clock every expiry follows, in milliseconds: the configured `clock`. */
  clock: () => number;
  /** Most hit counters kept at once; defaults to 100,000. */
  maxCounters?: number;
  /** Most one-time marks kept at once; defaults to 100,000. */
  maxMarks?: number;
}

/**
 * The store the core uses without `session.store`: hit counters and
 * one-time marks in this process's memory, bounded as `memoryStore` bounds
 * them, on the configured clock. Its callers are the library's own code, so
 * only what could break an expiry (the clock, the lifetimes) is checked.
 */
export function localStore(options: LocalStoreOptions): CountersAndMarks {
  const { clock, maxCounters = DEFAULT_MAX_ENTRIES, maxMarks = DEFAULT_MAX_ENTRIES } = options;
  const marks = oneTimeMarks(maxMarks);
  const sweep = nowAndThen((nowMs) => {
    marks.prune(nowMs);
    counters.sweep(nowMs);
  });
  const counters = hitCounters(maxCounters, sweep);
  return {
    consume: (key, ttlSeconds) =>
      settle(() => marks.consume(key, checkSeconds("ttlSeconds", ttlSeconds), readClock(clock))),
    hit: (key, windowSeconds) =>
      settle(() =>
        counters.hit(key, checkSeconds("windowSeconds", windowSeconds), readClock(clock))
      ),
    resetHits: (key) => settle(() => counters.reset(key)),
    hits: (key) => settle(() => counters.hits(key, readClock(clock))),
  };
}
