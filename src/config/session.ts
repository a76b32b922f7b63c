/**
 * `session`: lifetimes in whole seconds, bounded.
 *
 * @module
 */

import type { Logger } from "../logger.ts";
import { type CountersAndMarks, localStore } from "../store/_local.ts";
import { DEFAULT_STORE_TIMEOUT_MS, guardStore, isSessionStore } from "../store/guard.ts";
import type { SessionStore } from "../store/types.ts";
import { fail, knownKeys, optionalObject } from "./_check.ts";

const DAY = 24 * 60 * 60;
/** Browsers cap a cookie's lifetime at 400 days (RFC 6265bis). */
export const MAX_SESSION_AGE = 400 * DAY;

/** The resolved `session` option. */
export interface SessionSettings {
  /** Absolute lifetime of a session, in seconds. */
  readonly maxAge: number;
  /** Age after which `GET /session` re-issues the token, in seconds. */
  readonly updateAge: number;
  /** `session.store`, guarded by the timeout: revocation, single-use state, shared throttle. */
  readonly store?: SessionStore;
  /**
   * Where credentials attempts are counted: the store, else this process's
   * memory (on the configured clock).
   */
  readonly throttleStore: CountersAndMarks;
  /**
   * Where one-time values (OAuth `state`) are marked used: the store, else
   * the same per-process memory as {@linkcode SessionSettings.throttleStore}.
   */
  readonly oneTimeStore: CountersAndMarks;
}

function seconds(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    fail(`${name} is invalid; expected a positive whole number of seconds.`);
  }
  return value;
}

/**
 * Resolves `session`: `maxAge` (default 30 days, at most 400), `updateAge`
 * (default 1 day, or half of a shorter `maxAge`; always below `maxAge`).
 */
export function resolveSession(
  value: unknown,
  context: { logger: Logger; clock: () => number },
): SessionSettings {
  optionalObject(value, "session", "{ maxAge: 2592000, updateAge: 86400 }");
  knownKeys(value, "session", ["maxAge", "updateAge", "store", "storeTimeout"]);
  const session = (value ?? {}) as {
    maxAge?: unknown;
    updateAge?: unknown;
    store?: unknown;
    storeTimeout?: unknown;
  };
  const maxAge = seconds(session.maxAge, "session.maxAge", 30 * DAY);
  if (maxAge > MAX_SESSION_AGE) {
    fail(
      `session.maxAge is ${maxAge}; expected at most ${MAX_SESSION_AGE} (400 days, the browsers' cookie cap).`,
    );
  }
  const updateAge = seconds(
    session.updateAge,
    "session.updateAge",
    Math.min(DAY, Math.ceil(maxAge / 2)),
  );
  if (updateAge >= maxAge) {
    fail("session.updateAge is not below session.maxAge; expected a smaller updateAge.");
  }
  if (session.store !== undefined && !isSessionStore(session.store)) {
    fail(
      "session.store is not a SessionStore; expected memoryStore(), redisStore(client), denoKvStore(kv) or an object with its methods.",
    );
  }
  const timeoutMs = session.storeTimeout ?? DEFAULT_STORE_TIMEOUT_MS;
  if (
    typeof timeoutMs !== "number" || !Number.isInteger(timeoutMs) || timeoutMs < 1 ||
    timeoutMs > 60_000
  ) {
    fail("session.storeTimeout is invalid; expected whole milliseconds from 1 to 60000.");
  }
  const guard = { timeoutMs, logger: context.logger };
  const store = session.store === undefined ? undefined : guardStore(session.store, guard);
  // Without a store, this process's memory, on the configured clock like every other expiry.
  const local = store ?? processStore(context.clock);
  return Object.freeze({ maxAge, updateAge, store, throttleStore: local, oneTimeStore: local });
}

/**
 * The fallback stores of this process, one per clock: every instance without
 * `session.store` (on the default clock, `Date.now`) shares one, so two
 * instances in one process count one throttle and use each one-time value
 * once between them. An instance with a clock of its own (tests) gets the
 * store of that clock, so expiries stay on one time line.
 */
const PROCESS_STORES = /* @__PURE__ */ new WeakMap<() => number, CountersAndMarks>();

function processStore(clock: () => number): CountersAndMarks {
  let store = PROCESS_STORES.get(clock);
  if (store === undefined) PROCESS_STORES.set(clock, store = localStore({ clock }));
  return store;
}
