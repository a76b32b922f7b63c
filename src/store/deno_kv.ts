/**
 * `denoKvStore`: a {@linkcode SessionStore} in Deno KV.
 *
 * Key layout under `prefix` (default `["service-stack"]`); every entry is
 * written with `expireIn`, and since Deno KV deletes expired entries only
 * eventually, every read also checks the expiry kept in the value:
 * - `[...prefix, "session", id]`: the session;
 * - `[...prefix, "user", sub, id]`: a copy of the session in its user's
 *   list, written and deleted atomically with it;
 * - `[...prefix, "once", key]`: a one-time mark (its expiry, in ms);
 * - `[...prefix, "hits", key]`: a counter `{ count, endsAt }` (ms);
 * - `[...prefix, "passkey", id]`: a passkey (never expires);
 * - `[...prefix, "passkeys", sub, id]`: a copy of it in its user's list,
 *   written, updated and deleted atomically with it.
 *
 * @module
 */

import {
  checkKey,
  checkPasskey,
  checkPasskeyId,
  checkPasskeyUpdate,
  checkSeconds,
  checkSession,
  corrupt,
  hitCount,
  isActive,
  readPasskey,
  readSession,
} from "./_validate.ts";
import { isRecord } from "../is_record.ts";
import { type AccountStore, denoKvAccounts } from "./_accounts_deno_kv.ts";
import type {
  HitCount,
  PasskeyStore,
  SessionStore,
  StoredPasskey,
  StoredSession,
} from "./types.ts";
import type { ApiKeyStore } from "./types.ts";
import { denoKvApiKeys } from "./_api_keys_deno_kv.ts";

/** One part of a Deno KV key. */
export type KvKeyPart = string | number | bigint | boolean | Uint8Array;

/** A Deno KV key. */
export type KvKey = readonly KvKeyPart[];

/** An entry read from Deno KV; `versionstamp` is `null` when the key is absent. */
export interface KvEntryLike {
  /** The entry's key. */
  key: readonly unknown[];
  /** The stored value, `null` when absent. */
  value: unknown;
  /** The entry's version, `null` when absent. */
  versionstamp: string | null;
}

/** The part of `Deno.AtomicOperation` the store uses. */
export interface KvAtomicLike {
  /** Makes the commit fail unless `key` still has `versionstamp` (`null`: absent). */
  check(...checks: { key: KvKey; versionstamp: string | null }[]): KvAtomicLike;
  /** Sets `key`, expiring it after `expireIn` ms. */
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): KvAtomicLike;
  /** Deletes `key`. */
  delete(key: KvKey): KvAtomicLike;
  /** Applies every change at once, or none when a check fails (`ok: false`). */
  commit(): Promise<{ ok: boolean }>;
}

/**
 * The part of `Deno.Kv` the store uses, so that this module type-checks
 * without Deno's own types. A `Deno.Kv` from `Deno.openKv()` fits it.
 */
export interface KvLike {
  /** Reads one entry. */
  get(key: KvKey): Promise<KvEntryLike>;
  /** Deletes one entry. */
  delete(key: KvKey): Promise<void>;
  /** Lists the entries whose keys start with `selector.prefix`. */
  list(selector: { prefix: KvKey }): AsyncIterable<KvEntryLike>;
  /** Starts an atomic operation. */
  atomic(): KvAtomicLike;
}

/** Options for {@linkcode denoKvStore}. */
export interface DenoKvStoreOptions {
  /**
   * Starts every key the store writes. Set it when several apps (or tests)
   * share one database, so that none sees another's sessions, marks or
   * counters; give each app a prefix that is not the start of another's.
   * Defaults to `["service-stack"]`. 1 to 8 parts: strings of 1 to 100
   * characters, finite numbers, bigints, booleans or byte arrays of at most
   * 100 bytes. The store keeps a copy: changing the array later changes nothing.
   */
  prefix?: KvKey;
  /**
   * How often a write retries after another instance changed the same key
   * first (`consume`, `hit`, saves and deletes use optimistic checks).
   * Defaults to 100; after that the call rejects.
   */
  maxAttempts?: number;
}

const DEFAULT_PREFIX: KvKey = ["service-stack"];
const MAX_PREFIX_PARTS = 8;
const MAX_PREFIX_PART_LENGTH = 100;
const DEFAULT_MAX_ATTEMPTS = 100;
// Sessions deleted per atomic operation by deleteSessions (two mutations each).
const DELETE_BATCH = 10;

/** Whether `part` is a key part a prefix may hold (Deno KV's types, bounded). */
function isPrefixPart(part: unknown): boolean {
  switch (typeof part) {
    case "string":
      return part !== "" && part.length <= MAX_PREFIX_PART_LENGTH;
    case "number":
      return Number.isFinite(part);
    case "bigint":
    case "boolean":
      return true;
    default:
      return part instanceof Uint8Array && part.length <= MAX_PREFIX_PART_LENGTH;
  }
}

/** The keys of every entry the store writes: the one place that builds them. */
interface KeyLayout {
  session(id: string): KvKey;
  /** Where a user's list starts: every `user(sub, id)` key of that user. */
  userList(sub: string): KvKey;
  user(sub: string, id: string): KvKey;
  once(key: string): KvKey;
  hits(key: string): KvKey;
  passkey(id: string): KvKey;
  /** Where a user's passkey list starts. */
  passkeyList(sub: string): KvKey;
  userPasskey(sub: string, id: string): KvKey;
}

function keyLayout(prefix: KvKey): KeyLayout {
  return {
    session: (id) => [...prefix, "session", id],
    userList: (sub) => [...prefix, "user", sub],
    user: (sub, id) => [...prefix, "user", sub, id],
    once: (key) => [...prefix, "once", key],
    hits: (key) => [...prefix, "hits", key],
    passkey: (id) => [...prefix, "passkey", id],
    passkeyList: (sub) => [...prefix, "passkeys", sub],
    userPasskey: (sub, id) => [...prefix, "passkeys", sub, id],
  };
}

function waitAfterConflict(attempt: number): Promise<void> {
  // A little random spread keeps racing writers from colliding again in lockstep.
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt, 10)));
}

function readMark(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw corrupt("a one-time mark");
  return value;
}

function readCounter(value: unknown): { count: number; endsAt: number } {
  if (
    !isRecord(value) || typeof value.count !== "number" || !Number.isSafeInteger(value.count) ||
    value.count < 1 || typeof value.endsAt !== "number" || !Number.isFinite(value.endsAt)
  ) {
    throw corrupt("a hit counter");
  }
  return { count: value.count, endsAt: value.endsAt };
}

/**
 * A {@linkcode SessionStore} in Deno KV (`Deno.openKv()`), shared by every
 * instance that opens the same database. A session read is one `get`;
 * `consume` and `hit` are atomic operations with versionstamp checks,
 * retried on conflict. Values read back are checked: an entry holding
 * anything the store did not write rejects the call. It is also a
 * `PasskeyStore` (`passkeys: { store: denoKvStore(kv), ... }`): passkeys
 * never expire.
 *
 * @example
 * ```ts ignore
 * import { denoKvStore } from "@service-stack/auth/deno-kv";
 *
 * const store = denoKvStore(await Deno.openKv(), { prefix: ["my-app", "auth"] });
 * console.log(await store.consume("state:abc", 600)); // true
 * console.log(await store.consume("state:abc", 600)); // false
 * ```
 */
export function denoKvStore(
  kv: KvLike,
  options: DenoKvStoreOptions = {},
): SessionStore & PasskeyStore & AccountStore & ApiKeyStore {
  if (
    typeof kv !== "object" || kv === null || typeof kv.get !== "function" ||
    typeof kv.atomic !== "function" || typeof kv.list !== "function"
  ) {
    throw new TypeError("kv must be a Deno KV database; expected the result of Deno.openKv().");
  }
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (
    !Array.isArray(prefix) || prefix.length < 1 || prefix.length > MAX_PREFIX_PARTS ||
    !prefix.every(isPrefixPart)
  ) {
    throw new TypeError(
      `prefix must be 1 to ${MAX_PREFIX_PARTS} key parts (strings of 1 to ` +
        `${MAX_PREFIX_PART_LENGTH} characters, finite numbers, bigints, booleans or byte arrays ` +
        `of at most ${MAX_PREFIX_PART_LENGTH} bytes); expected e.g. ["my-app"].`,
    );
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) {
    throw new TypeError("maxAttempts must be a whole number above 0; expected e.g. 100.");
  }
  // A copy (byte arrays too): the caller changing its array later must not move the keys.
  const keys = keyLayout(
    prefix.map((part) => part instanceof Uint8Array ? part.slice() : part),
  );

  /** Runs an optimistic write until it commits; `attempt` resolves a result or `undefined` to retry. */
  async function retry<T>(attempt: () => Promise<T | undefined>): Promise<T> {
    for (let i = 1; i <= maxAttempts; i++) {
      const result = await attempt();
      if (result !== undefined) return result;
      await waitAfterConflict(i);
    }
    throw new Error(
      `Deno KV reported a conflict ${maxAttempts} times in a row; ` +
        "expected fewer writers racing on one key, or a larger maxAttempts.",
    );
  }

  /** The session stored under `entry`, or `null` when the entry holds something else. */
  function readableSession(entry: KvEntryLike, id: string): StoredSession | null {
    try {
      return readSession(entry.value, { id });
    } catch {
      return null;
    }
  }

  /** Deletes a session and its copy in its user's list; whether it was active. */
  function deleteSession(id: string): Promise<boolean> {
    checkKey("session id", id);
    return retry(async () => {
      const entry = await kv.get(keys.session(id));
      if (entry.versionstamp === null) return false;
      // An unreadable entry is deleted too (like Redis DEL), and counts as existing.
      const session = readableSession(entry, id);
      const operation = kv.atomic()
        .check({ key: keys.session(id), versionstamp: entry.versionstamp })
        .delete(keys.session(id));
      if (session !== null) operation.delete(keys.user(session.sub, id));
      const { ok } = await operation.commit();
      if (!ok) return undefined;
      return session === null || isActive(session, Date.now());
    });
  }

  return {
    ...denoKvAccounts(
      kv,
      prefix.map((part) => part instanceof Uint8Array ? part.slice() : part),
      retry,
    ),
    ...denoKvApiKeys(kv, prefix, retry),
    async saveSession(input: StoredSession): Promise<void> {
      const session = checkSession(input);
      const expireIn = Math.ceil(session.expiresAt * 1000 - Date.now());
      if (expireIn <= 0) {
        await deleteSession(session.id);
        return;
      }
      await retry(async () => {
        const entry = await kv.get(keys.session(session.id));
        const operation = kv.atomic()
          .check({ key: keys.session(session.id), versionstamp: entry.versionstamp })
          .set(keys.session(session.id), session, { expireIn })
          .set(keys.user(session.sub, session.id), session, { expireIn });
        // Moves the session between lists when its user changed; an unreadable entry is replaced.
        const previous = entry.versionstamp === null ? null : readableSession(entry, session.id);
        if (previous !== null && previous.sub !== session.sub) {
          operation.delete(keys.user(previous.sub, session.id));
        }
        const { ok } = await operation.commit();
        return ok ? true : undefined;
      });
    },

    async getSession(id: string): Promise<StoredSession | null> {
      checkKey("session id", id);
      const entry = await kv.get(keys.session(id));
      if (entry.versionstamp === null) return null;
      const session = readSession(entry.value, { id });
      return isActive(session, Date.now()) ? session : null;
    },

    deleteSession,

    async listSessions(sub: string): Promise<StoredSession[]> {
      checkKey("sub", sub);
      const nowMs = Date.now();
      const sessions: StoredSession[] = [];
      for await (const entry of kv.list({ prefix: keys.userList(sub) })) {
        const id = entry.key.at(-1);
        if (typeof id !== "string") throw corrupt("a session list entry");
        const session = readSession(entry.value, { id, sub });
        if (isActive(session, nowMs)) sessions.push(session);
      }
      return sessions;
    },

    async deleteSessions(sub: string): Promise<number> {
      checkKey("sub", sub);
      const nowMs = Date.now();
      const found: StoredSession[] = [];
      for await (const entry of kv.list({ prefix: keys.userList(sub) })) {
        const id = entry.key.at(-1);
        if (typeof id !== "string") throw corrupt("a session list entry");
        found.push(readSession(entry.value, { id, sub }));
      }
      for (let i = 0; i < found.length; i += DELETE_BATCH) {
        const operation = kv.atomic();
        for (const session of found.slice(i, i + DELETE_BATCH)) {
          operation.delete(keys.session(session.id)).delete(keys.user(sub, session.id));
        }
        const { ok } = await operation.commit();
        if (!ok) throw new Error("Deno KV refused a delete without checks; expected it to commit.");
      }
      return found.filter((session) => isActive(session, nowMs)).length;
    },

    async consume(key: string, ttlSeconds: number): Promise<boolean> {
      checkKey("key", key);
      const ttlMs = checkSeconds("ttlSeconds", ttlSeconds);
      const markKey = keys.once(key);
      return await retry(async () => {
        const nowMs = Date.now();
        const entry = await kv.get(markKey);
        // A mark past its expiry may linger until Deno KV deletes it; it counts as absent.
        if (entry.versionstamp !== null && readMark(entry.value) > nowMs) return false;
        const { ok } = await kv.atomic()
          .check({ key: markKey, versionstamp: entry.versionstamp })
          .set(markKey, nowMs + ttlMs, { expireIn: ttlMs })
          .commit();
        return ok ? true : undefined;
      });
    },

    async hit(key: string, windowSeconds: number): Promise<HitCount> {
      checkKey("key", key);
      const windowMs = checkSeconds("windowSeconds", windowSeconds);
      const counterKey = keys.hits(key);
      return await retry(async () => {
        const nowMs = Date.now();
        const entry = await kv.get(counterKey);
        let counter = { count: 1, endsAt: nowMs + windowMs };
        if (entry.versionstamp !== null) {
          const current = readCounter(entry.value);
          if (current.endsAt > nowMs) {
            counter = { count: current.count + 1, endsAt: current.endsAt };
          }
        }
        const { ok } = await kv.atomic()
          .check({ key: counterKey, versionstamp: entry.versionstamp })
          .set(counterKey, counter, { expireIn: Math.ceil(counter.endsAt - nowMs) })
          .commit();
        return ok ? hitCount(counter.count, counter.endsAt - nowMs) : undefined;
      });
    },

    async hits(key: string): Promise<HitCount | null> {
      checkKey("key", key);
      const entry = await kv.get(keys.hits(key));
      if (entry.versionstamp === null) return null;
      const counter = readCounter(entry.value);
      const nowMs = Date.now();
      return counter.endsAt > nowMs ? hitCount(counter.count, counter.endsAt - nowMs) : null;
    },

    async resetHits(key: string): Promise<void> {
      checkKey("key", key);
      await kv.delete(keys.hits(key));
    },

    async savePasskey(input: StoredPasskey): Promise<boolean> {
      const passkey = checkPasskey(input);
      // Never expires; the check makes an id already registered (by anyone) fail the commit.
      const { ok } = await kv.atomic()
        .check({ key: keys.passkey(passkey.id), versionstamp: null })
        .set(keys.passkey(passkey.id), passkey)
        .set(keys.userPasskey(passkey.sub, passkey.id), passkey)
        .commit();
      return ok;
    },

    async getPasskey(id: string): Promise<StoredPasskey | null> {
      checkPasskeyId(id);
      const entry = await kv.get(keys.passkey(id));
      return entry.versionstamp === null ? null : readPasskey(entry.value, { id });
    },

    async listPasskeys(sub: string): Promise<StoredPasskey[]> {
      checkKey("sub", sub);
      const passkeys: StoredPasskey[] = [];
      for await (const entry of kv.list({ prefix: keys.passkeyList(sub) })) {
        const id = entry.key.at(-1);
        if (typeof id !== "string") throw corrupt("a passkey list entry");
        passkeys.push(readPasskey(entry.value, { id, sub }));
      }
      return passkeys;
    },

    async deletePasskey(id: string): Promise<boolean> {
      checkPasskeyId(id);
      return await retry(async () => {
        const entry = await kv.get(keys.passkey(id));
        if (entry.versionstamp === null) return false;
        const passkey = readPasskey(entry.value, { id });
        const { ok } = await kv.atomic()
          .check({ key: keys.passkey(id), versionstamp: entry.versionstamp })
          .delete(keys.passkey(id))
          .delete(keys.userPasskey(passkey.sub, id))
          .commit();
        return ok ? true : undefined;
      });
    },

    async updatePasskey(
      id: string,
      update: { counter: number; lastUsedAt: number; backedUp: boolean; previousCounter: number },
    ): Promise<boolean> {
      checkPasskeyId(id);
      const { previousCounter, ...checked } = checkPasskeyUpdate(update);
      // Compare-and-set: the counter read must still be the one the sign-in saw, and the commit
      // checks the versionstamp it was read at (a conflict reads again).
      return await retry(async () => {
        const entry = await kv.get(keys.passkey(id));
        if (entry.versionstamp === null) return false;
        const stored = readPasskey(entry.value, { id });
        if (stored.counter !== previousCounter) return false;
        const passkey = { ...stored, ...checked };
        const { ok } = await kv.atomic()
          .check({ key: keys.passkey(id), versionstamp: entry.versionstamp })
          .set(keys.passkey(id), passkey)
          .set(keys.userPasskey(passkey.sub, id), passkey)
          .commit();
        return ok ? true : undefined;
      });
    },
  };
}
