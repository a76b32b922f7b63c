/**
 * `memoryStore`: a {@linkcode SessionStore} in this process's memory, with a
 * bound of its own for each kind of entry, so that a flood of one kind never
 * evicts another.
 *
 * @module
 */

import {
  checkKey,
  checkPasskey,
  checkPasskeyId,
  checkPasskeyUpdate,
  checkSession,
  isActive,
} from "./_validate.ts";
import {
  canSweep,
  checkSeconds,
  DEFAULT_MAX_ENTRIES,
  hitCounters,
  nowAndThen,
  oneTimeMarks,
  readClock,
  settle,
} from "./_local.ts";
import type { PasskeyStore, SessionStore, StoredPasskey, StoredSession } from "./types.ts";
import type { AccountStore } from "./types.ts";
import { memoryAccounts } from "./_accounts_memory.ts";
import type { ApiKeyStore } from "./types.ts";
import { memoryApiKeys } from "./_api_keys_memory.ts";

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

const DEFAULT_MAX_SESSIONS_PER_USER = 100;

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
 * It is also a `PasskeyStore` (`passkeys: { store: memoryStore(), ... }`):
 * passkeys are never evicted and never expire, and are lost on restart.
 * And an `ApiKeyStore` (`apiKeys: { store: memoryStore() }`): API keys are
 * never evicted, and an expired one is never returned.
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
export function memoryStore(
  options: MemoryStoreOptions = {},
): SessionStore & PasskeyStore & AccountStore & ApiKeyStore {
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
  const now = () => readClock(clock);

  // Maps keep insertion order: the first session is the one saved longest ago.
  const sessions = new Map<string, Readonly<StoredSession>>();
  const users = new Map<string, Set<string>>();
  // An iterator resumed where the last eviction stopped: restarting at the front would step over
  // every entry deleted since the table was last rebuilt, which makes a flood quadratic.
  let sessionCursor: Iterator<string> = sessions.keys();
  let lastSessionSweep = -Infinity;
  // Every kind is swept now and then, on a session saved or a counter started.
  const sweepNowAndThen = nowAndThen((nowMs) => {
    marks.prune(nowMs);
    sweepSessions(nowMs);
    counters.sweep(nowMs);
  });
  const counters = hitCounters(maxCounters, sweepNowAndThen);
  const marks = oneTimeMarks(maxMarks);
  const passkeys = new Map<string, StoredPasskey>();
  const passkeyUsers = new Map<string, Set<string>>();

  function removeSession(id: string): void {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    const ids = users.get(session.sub);
    ids?.delete(id);
    if (ids?.size === 0) users.delete(session.sub);
  }

  function sweepSessions(nowMs: number): void {
    lastSessionSweep = nowMs;
    for (const [id, session] of sessions) if (!isActive(session, nowMs)) removeSession(id);
  }

  function makeRoomForSession(sub: string, nowMs: number): void {
    const own = users.get(sub);
    if (own !== undefined && own.size >= maxPerUser) {
      for (const id of [...own]) if (!isActive(sessions.get(id)!, nowMs)) removeSession(id);
      // The user's own session saved longest ago goes: nobody else is signed out.
      while (own.size >= maxPerUser) removeSession(own.values().next().value!);
    }
    if (sessions.size < maxSessions) return;
    if (canSweep(lastSessionSweep, nowMs)) sweepSessions(nowMs);
    while (sessions.size >= maxSessions) {
      let oldest = sessionCursor.next();
      if (oldest.done) oldest = (sessionCursor = sessions.keys()).next();
      removeSession(oldest.value);
    }
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
    ...memoryAccounts(),
    ...memoryApiKeys(now),
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
        return marks.consume(key, checkSeconds("ttlSeconds", ttlSeconds), now());
      }),

    hit: (key, windowSeconds) =>
      settle(() => {
        checkKey("key", key);
        return counters.hit(key, checkSeconds("windowSeconds", windowSeconds), now());
      }),

    hits: (key) =>
      settle(() => {
        checkKey("key", key);
        return counters.hits(key, now());
      }),

    resetHits: (key) =>
      settle(() => {
        counters.reset(checkKey("key", key));
      }),

    // Passkeys never expire and are never evicted: losing one would lock its user out.
    savePasskey: (input) =>
      settle(() => {
        const passkey = checkPasskey(input);
        if (passkeys.has(passkey.id)) return false;
        passkeys.set(passkey.id, passkey);
        let ids = passkeyUsers.get(passkey.sub);
        if (ids === undefined) passkeyUsers.set(passkey.sub, ids = new Set());
        ids.add(passkey.id);
        return true;
      }),

    getPasskey: (id) =>
      settle(() => {
        const passkey = passkeys.get(checkPasskeyId(id));
        return passkey === undefined ? null : copyPasskey(passkey);
      }),

    listPasskeys: (sub) =>
      settle(() => {
        const ids = passkeyUsers.get(checkKey("sub", sub)) ?? [];
        return [...ids].map((id) => copyPasskey(passkeys.get(id)!));
      }),

    deletePasskey: (id) =>
      settle(() => {
        const passkey = passkeys.get(checkPasskeyId(id));
        if (passkey === undefined) return false;
        passkeys.delete(id);
        const ids = passkeyUsers.get(passkey.sub);
        ids?.delete(id);
        if (ids?.size === 0) passkeyUsers.delete(passkey.sub);
        return true;
      }),

    // Compare-and-set: written only over the counter the sign-in read (one process, no await).
    updatePasskey: (id, update) =>
      settle(() => {
        const passkey = passkeys.get(checkPasskeyId(id));
        const { previousCounter, ...checked } = checkPasskeyUpdate(update);
        if (passkey === undefined || passkey.counter !== previousCounter) return false;
        passkeys.set(id, { ...passkey, ...checked, transports: [...passkey.transports] });
        return true;
      }),
  };
}

/**
 * A copy the caller may change freely: every field is a primitive but the
 * transports list (checkPasskey built the stored object so). A spread is
 * a fraction of a microsecond; structuredClone took about 3 µs a call.
 */
function copyPasskey(passkey: StoredPasskey): StoredPasskey {
  return { ...passkey, transports: [...passkey.transports] };
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
