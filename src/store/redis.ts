/**
 * `redisStore`: a {@linkcode SessionStore} in Redis or a Redis Cluster,
 * through a node-redis (npm `redis`, v4 or later) or an `ioredis` client or
 * cluster client the app connects.
 *
 * Key layout under `prefix` (default `service-stack:`); every key expires,
 * and every command and script touches exactly one key, passed as its
 * first key, so that a cluster routes it and different users and sessions
 * spread over the cluster's slots:
 * - `<prefix>session:<id>`: the session as JSON (holding its `sub`),
 *   expiring at its `expiresAt`; a session read is one `GET`;
 * - `<prefix>user:<sub>`: the user's index, a sorted set of session ids
 *   scored by their expiry (ms), expiring with the latest of them. It is
 *   written after the session and cleaned after it: an id whose session is
 *   gone is pruned when the index is read;
 * - `<prefix>once:<key>`: a one-time mark, expiring after its `ttlSeconds`;
 * - `<prefix>hits:<key>`: a counter, expiring when its window ends;
 * - `<prefix>passkey:<id>`: a passkey, a hash of `data` (its JSON without
 *   the counter), `counter` and `lastUsedAt`; it never expires, and a read
 *   is one `HGETALL`;
 * - `<prefix>passkeys:<sub>`: the user's passkey ids, a set that never
 *   expires, written after the passkey and cleaned after it (ids whose
 *   passkey is gone are pruned when the set is read).
 *
 * Passkeys stay until deleted: do not let an eviction policy such as
 * `allkeys-lru` drop keys of this prefix (`volatile-*` policies, or
 * `noeviction`, leave them alone).
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
  parseSession,
  readPasskey,
} from "./_validate.ts";
import type {
  HitCount,
  PasskeyStore,
  SessionStore,
  StoredPasskey,
  StoredSession,
} from "./types.ts";
import { type AccountStore, redisAccounts } from "./_accounts_redis.ts";
import type { ApiKeyStore } from "./types.ts";
import { redisApiKeys } from "./_api_keys_redis.ts";

/**
 * A connected node-redis client (npm `redis`, v4 or later, `createClient`):
 * the store sends raw commands with `sendCommand([...])`.
 */
export interface NodeRedisClient {
  /** Sends one command, e.g. `["GET", "key"]`, and resolves its reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A connected node-redis cluster client (npm `redis`, v4 or later,
 * `createCluster`): the store sends raw commands with
 * `sendCommand(firstKey, isReadonly, [...])`, which routes each to the
 * master that holds its key.
 */
export interface NodeRedisClusterClient {
  /** Sends one command to the master holding `firstKey` and resolves its reply. */
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  /** The cluster's masters; its presence tells a cluster client from a single one. */
  readonly masters: unknown;
}

/**
 * A connected `ioredis` client, `Redis` or `Cluster`: the store sends raw
 * commands with `call(...)`, which a `Cluster` routes by the command's keys.
 */
export interface IoRedisClient {
  /** Sends one command, e.g. `call("GET", "key")`, and resolves its reply. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** A client {@linkcode redisStore} can talk through. */
export type RedisClient = NodeRedisClient | NodeRedisClusterClient | IoRedisClient;

/** Options for {@linkcode redisStore}. */
export interface RedisStoreOptions {
  /**
   * Starts every key the store writes. Set it when several apps (or tests)
   * share one Redis, so that none sees another's sessions, marks or
   * counters; give each app a prefix that is not the start of another's.
   * Defaults to `"service-stack:"`. 1 to 100 characters, without spaces,
   * control characters or braces (a `{...}` hash tag would put every key
   * in one cluster slot).
   */
  prefix?: string;
}

const DEFAULT_PREFIX = "service-stack:";
// Printable, no spaces, no braces: a brace would make a Redis Cluster hash tag of the prefix.
const PREFIX_PATTERN = /^[^\s\p{Cc}{}]{1,100}$/u;

/**
 * The names of every key the store writes: the one place that builds them. A
 * new kind of key gets a function here; keys that one script must change
 * together need a shared hash tag (e.g. `{<sub>}` in both), since a cluster
 * refuses a script whose keys lie in different slots.
 */
interface KeyLayout {
  session(id: string): string;
  user(sub: string): string;
  once(key: string): string;
  hits(key: string): string;
  passkey(id: string): string;
  passkeys(sub: string): string;
}

function keyLayout(prefix: string): KeyLayout {
  return {
    session: (id) => `${prefix}session:${id}`,
    user: (sub) => `${prefix}user:${sub}`,
    once: (key) => `${prefix}once:${key}`,
    hits: (key) => `${prefix}hits:${key}`,
    // A credential id is base64url (no ":"), so "passkey:<id>" never reads as "passkeys:<sub>".
    passkey: (id) => `${prefix}passkey:${id}`,
    passkeys: (sub) => `${prefix}passkeys:${sub}`,
  };
}

// Every script below touches KEYS[1] only: key names are never built inside a script.

// Writes a session unless the key holds a session of another user: that one is
// deleted instead and its user returned, so the caller can clean that user's
// index before writing again (an index never lists a live session of someone else).
// KEYS: session. ARGV: json, ttl ms, sub.
const SAVE = `
local old = redis.call('GET', KEYS[1])
if old then
  local ok, previous = pcall(cjson.decode, old)
  if ok and type(previous) == 'table' and type(previous.sub) == 'string'
      and previous.sub ~= ARGV[3] then
    redis.call('DEL', KEYS[1])
    return previous.sub
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`;

// Adds a session id to its user's index, prunes expired ids and gives the
// index the TTL of its latest session. KEYS: index. ARGV: expiry ms, id, now ms.
const INDEX = `
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if #last == 0 then return 0 end
local ttl = math.max(1, math.ceil(tonumber(last[2]) - tonumber(ARGV[3])))
redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
return 1
`;

// Deletes a key and returns what it held (GETDEL needs Redis 6.2). KEYS: session.
const TAKE = `
local old = redis.call('GET', KEYS[1])
if old then redis.call('DEL', KEYS[1]) end
return old
`;

// Deletes a session unless it belongs to another user; 1 when deleted.
// KEYS: session. ARGV: sub.
const DELETE_OWN = `
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
local ok, session = pcall(cjson.decode, old)
if ok and type(session) == 'table' and session.sub ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

// The ids in a user's index with their scores, after pruning expired ones.
// KEYS: index. ARGV: now ms.
const IDS = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
`;

// Removes ids from an index, each only if its score is still the one read
// (a session saved again since then keeps its entry). KEYS: index. ARGV: id, score, ...
const PRUNE = `
local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return removed
`;

// Reads a counter and its TTL without counting. KEYS: counter.
const HITS = `
local count = redis.call('GET', KEYS[1])
if not count then return false end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

// Counts a hit; the first hit of a window (or a counter without a TTL) sets the TTL.
// KEYS: counter. ARGV: window ms.
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

// Writes a new passkey unless its id is taken; 1 when written. KEYS: passkey.
// ARGV: data json, counter, lastUsedAt ("" when never used).
const SAVE_PASSKEY = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[1], 'counter', ARGV[2], 'lastUsedAt', ARGV[3])
return 1
`;

// Records a sign-in on a passkey whose counter is still the one the sign-in read (compare-and-set);
// 1 when written. KEYS: passkey. ARGV: previous counter, counter, lastUsedAt, backedUp ("1"/"0").
const UPDATE_PASSKEY = `
if redis.call('HGET', KEYS[1], 'counter') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'counter', ARGV[2], 'lastUsedAt', ARGV[3], 'backedUp', ARGV[4])
return 1
`;

// Deletes a passkey and returns its data (to find its user's set). KEYS: passkey.
const TAKE_PASSKEY = `
local data = redis.call('HGET', KEYS[1], 'data')
redis.call('DEL', KEYS[1])
return data
`;

/** The fields of an `HGETALL` reply: RESP2 `[field, value, ...]` or a RESP3 map. */
function hashFields(reply: unknown): Map<string, unknown> {
  if (Array.isArray(reply)) {
    if (reply.length % 2 !== 0) throw corrupt("a passkey");
    const fields = new Map<string, unknown>();
    for (let i = 0; i < reply.length; i += 2) fields.set(String(reply[i]), reply[i + 1]);
    return fields;
  }
  if (reply instanceof Map) return new Map([...reply].map(([k, v]) => [String(k), v]));
  if (typeof reply === "object" && reply !== null) return new Map(Object.entries(reply));
  throw corrupt("a passkey");
}

/** A passkey from its hash fields; `null` for an empty hash (no such key). */
function passkeyFromHash(reply: unknown, expected: { id?: string; sub?: string }) {
  const fields = hashFields(reply);
  if (fields.size === 0) return null;
  const data = fields.get("data");
  const counter = fields.get("counter");
  const lastUsedAt = fields.get("lastUsedAt");
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(String(data));
  } catch {
    throw corrupt("a passkey");
  }
  if (typeof value !== "object" || value === null) throw corrupt("a passkey");
  const record: Record<string, unknown> = { ...value, counter: numberField(counter) };
  if (lastUsedAt !== "" && lastUsedAt !== undefined) record.lastUsedAt = numberField(lastUsedAt);
  // Refreshed at each sign-in, beside the registration's data.
  const backedUp = fields.get("backedUp");
  if (backedUp !== undefined) {
    if (backedUp !== "1" && backedUp !== "0") throw corrupt("a passkey");
    record.backedUp = backedUp === "1";
  }
  return readPasskey(record, expected);
}

function numberField(value: unknown): number {
  const text = String(value);
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
}

/** The `sub` in a passkey's data JSON, or `undefined`. */
function passkeySubOf(data: unknown): string | undefined {
  return subOf(data);
}

/** Sends one command about `key` (its only key); a cluster client routes it by that key. */
type Command = (key: string, args: string[]) => Promise<unknown>;

/** The one function that talks to Redis, for whichever client was handed over. */
function commandFor(client: unknown): Command {
  if (typeof client === "object" && client !== null) {
    const candidate = client as Record<string, unknown>;
    // ioredis also has a `sendCommand`, taking its own Command objects, so `call` decides first.
    if (typeof candidate.call === "function") {
      const options = candidate.options as Record<string, unknown> | undefined;
      if (typeof options?.keyPrefix === "string" && options.keyPrefix !== "") {
        throw new TypeError(
          "ioredis keyPrefix does not apply inside the store's scripts; " +
            "expected the prefix option of redisStore instead.",
        );
      }
      // A Cluster finds the key of each command itself, EVAL's included.
      const ioredis = client as IoRedisClient;
      return (_key, [command, ...args]) => ioredis.call(command, ...args);
    }
    if (typeof candidate.sendCommand === "function") {
      if ("masters" in candidate) {
        const cluster = client as NodeRedisClusterClient;
        // Never read-only: a replica may lag behind, and a revoked session must stay revoked.
        return (key, args) => cluster.sendCommand(key, false, args);
      }
      const nodeRedis = client as NodeRedisClient;
      return (_key, args) => nodeRedis.sendCommand(args);
    }
  }
  throw new TypeError(
    "client must be a connected Redis client; expected a node-redis client " +
      "(createClient or createCluster from npm redis) or an ioredis Redis or Cluster.",
  );
}

function integerReply(reply: unknown): number {
  if (typeof reply !== "number" || !Number.isSafeInteger(reply)) {
    throw new Error("Redis answered with something other than an integer; expected one.");
  }
  return reply;
}

/** The `sub` of a session's JSON, or `undefined` when it holds none. */
function subOf(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value?.sub === "string" && value.sub !== "" ? value.sub : undefined;
  } catch {
    return undefined;
  }
}

/** Pairs `[id, score, id, score, ...]` from `ZRANGE ... WITHSCORES`. */
function indexEntries(reply: unknown): { id: string; score: string }[] {
  if (!Array.isArray(reply) || reply.length % 2 !== 0) throw corrupt("a session list");
  const entries: { id: string; score: string }[] = [];
  for (let i = 0; i < reply.length; i += 2) {
    const [id, score] = [reply[i], reply[i + 1]];
    // ioredis and node-redis answer RESP2 scores as text; RESP3 ones would be numbers.
    if (typeof id !== "string" || (typeof score !== "string" && typeof score !== "number")) {
      throw corrupt("a session list");
    }
    entries.push({ id, score: String(score) });
  }
  return entries;
}

/**
 * A {@linkcode SessionStore} in Redis, shared by every instance that uses
 * the same Redis. `client` is a connected node-redis (v4+) client or
 * cluster client (`createClient`, `createCluster`) or an ioredis `Redis` or
 * `Cluster`; the store sends it raw commands (`GET`, `SET ... NX PX`, `DEL`,
 * `ZREM` and small Lua scripts with `EVAL`), each about one key, and never
 * connects, retries or times out on its own.
 *
 * On a Redis Cluster every operation works, and keys spread over the
 * cluster by session id, user and key. A session and its user's index live
 * in different slots, so saving, revoking and listing change them in
 * separate steps: the session first, the index after. A session read stays
 * one `GET`, and a revoked session is gone from its own key before the call
 * resolves. Values read back are checked: a key holding anything the store
 * did not write rejects the call.
 *
 * When a cluster master dies, its keys fail closed (503) until its replica
 * is promoted and the client sees it: ioredis in about 3 s, node-redis 6
 * in about 6 s (3 s with the options in docs/redis-cluster.md). node-redis
 * 4 and 5 never see it (they refresh their slot map only on `MOVED`, which
 * a dead node never sends): on a cluster, use ioredis or node-redis 6+.
 *
 * It is also a `PasskeyStore` (`passkeys: { store: redisStore(client), ... }`):
 * a passkey is one hash and its user's set of ids, with no TTL.
 *
 * When Redis is away, a call rejects or waits as the client is configured
 * to (node-redis and ioredis both queue commands while reconnecting by
 * default); the auth core bounds each call with its own timeout. Attach an
 * `error` listener to a node-redis client, or a lost connection ends the
 * process.
 *
 * @example With node-redis
 * ```ts ignore
 * import { createClient } from "redis";
 * import { redisStore } from "@service-stack/auth/redis";
 *
 * const client = createClient({ url: "redis://127.0.0.1:6379" });
 * client.on("error", (error) => console.error("redis:", error.message));
 * await client.connect();
 * const store = redisStore(client, { prefix: "my-app:" });
 * console.log(await store.getSession("unknown")); // null
 * ```
 *
 * @example With ioredis
 * ```ts ignore
 * import { Redis } from "ioredis";
 * import { redisStore } from "@service-stack/auth/redis";
 *
 * const store = redisStore(new Redis("redis://127.0.0.1:6379"));
 * console.log(await store.consume("state:abc", 600)); // true
 * ```
 *
 * @example On a Redis Cluster
 * ```ts ignore
 * import { createCluster } from "redis";
 * import { Cluster } from "ioredis";
 * import { redisStore } from "@service-stack/auth/redis";
 *
 * const cluster = createCluster({ rootNodes: [{ url: "redis://10.0.0.1:6379" }] });
 * cluster.on("error", (error) => console.error("redis:", error.message));
 * await cluster.connect();
 * const store = redisStore(cluster, { prefix: "my-app:" });
 * // or: redisStore(new Cluster([{ host: "10.0.0.1", port: 6379 }]), { prefix: "my-app:" })
 * ```
 */
export function redisStore(
  client: RedisClient,
  options: RedisStoreOptions = {},
): SessionStore & PasskeyStore & AccountStore & ApiKeyStore {
  const command = commandFor(client);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (typeof prefix !== "string" || !PREFIX_PATTERN.test(prefix)) {
    throw new TypeError(
      "prefix must be 1 to 100 characters without spaces, control characters or braces; " +
        'expected e.g. "my-app:".',
    );
  }
  const keys = keyLayout(prefix);

  function script(source: string, key: string, args: string[]): Promise<unknown> {
    return command(key, ["EVAL", source, "1", key, ...args]);
  }

  /** Prunes index entries whose session is gone, unless saved again since they were read. */
  async function prune(sub: string, gone: { id: string; score: string }[]): Promise<void> {
    if (gone.length === 0) return;
    await script(PRUNE, keys.user(sub), gone.flatMap(({ id, score }) => [id, score]));
  }

  async function deleteSession(id: string): Promise<boolean> {
    checkKey("session id", id);
    const old = await script(TAKE, keys.session(id), []);
    if (old === null || old === undefined) return false;
    // The session is revoked now; its index entry goes after (or is pruned on the next read).
    const sub = subOf(old);
    if (sub !== undefined) await command(keys.user(sub), ["ZREM", keys.user(sub), id]);
    return true;
  }

  return {
    ...redisAccounts(command, prefix),
    ...redisApiKeys(command, prefix),
    async saveSession(input: StoredSession): Promise<void> {
      const session = checkSession(input);
      const nowMs = Date.now();
      const expiresAtMs = Math.ceil(session.expiresAt * 1000);
      if (!isActive(session, nowMs)) {
        await deleteSession(session.id);
        return;
      }
      const sessionKey = keys.session(session.id);
      const write = [JSON.stringify(session), String(expiresAtMs - nowMs), session.sub];
      const moved = await script(SAVE, sessionKey, write);
      if (typeof moved === "string") {
        // It belonged to another user: out of that user's index first, then written anew.
        await command(keys.user(moved), ["ZREM", keys.user(moved), session.id]);
        const again = await script(SAVE, sessionKey, write);
        if (again !== null && again !== undefined) {
          throw new Error("A session changed user while it was saved; expected one writer.");
        }
      }
      // The session first, its index entry after: an index never names a session that was not written.
      await script(INDEX, keys.user(session.sub), [
        String(expiresAtMs),
        session.id,
        String(nowMs),
      ]);
    },

    async getSession(id: string): Promise<StoredSession | null> {
      checkKey("session id", id);
      const reply = await command(keys.session(id), ["GET", keys.session(id)]);
      if (reply === null) return null;
      const session = parseSession(reply, { id });
      return isActive(session, Date.now()) ? session : null;
    },

    deleteSession,

    async listSessions(sub: string): Promise<StoredSession[]> {
      checkKey("sub", sub);
      const nowMs = Date.now();
      const entries = indexEntries(await script(IDS, keys.user(sub), [String(nowMs)]));
      // Sessions live in slots of their own: one GET each, sent together.
      const values = await Promise.all(
        entries.map(({ id }) => command(keys.session(id), ["GET", keys.session(id)])),
      );
      const sessions: StoredSession[] = [];
      const gone: { id: string; score: string }[] = [];
      for (const [i, value] of values.entries()) {
        if (value === null || value === undefined) {
          gone.push(entries[i]);
          continue;
        }
        const session = parseSession(value, { id: entries[i].id, sub });
        if (isActive(session, nowMs)) sessions.push(session);
      }
      await prune(sub, gone);
      return sessions;
    },

    async deleteSessions(sub: string): Promise<number> {
      checkKey("sub", sub);
      const entries = indexEntries(await script(IDS, keys.user(sub), [String(Date.now())]));
      // Every session first (each only if still this user's), the index entries after.
      const deleted = await Promise.all(
        entries.map(({ id }) => script(DELETE_OWN, keys.session(id), [sub])),
      );
      if (entries.length > 0) {
        await command(keys.user(sub), ["ZREM", keys.user(sub), ...entries.map(({ id }) => id)]);
      }
      return deleted.reduce<number>((count, reply) => count + integerReply(reply), 0);
    },

    async consume(key: string, ttlSeconds: number): Promise<boolean> {
      checkKey("key", key);
      const ttlMs = checkSeconds("ttlSeconds", ttlSeconds);
      const mark = keys.once(key);
      const reply = await command(mark, ["SET", mark, "1", "PX", String(ttlMs), "NX"]);
      if (reply !== "OK" && reply !== null) {
        throw new Error("Redis answered SET NX with something else; expected OK or nil.");
      }
      return reply === "OK";
    },

    async hit(key: string, windowSeconds: number): Promise<HitCount> {
      checkKey("key", key);
      const windowMs = checkSeconds("windowSeconds", windowSeconds);
      const reply = await script(HIT, keys.hits(key), [String(windowMs)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw corrupt("a hit counter");
      return hitCount(integerReply(reply[0]), integerReply(reply[1]));
    },

    async hits(key: string): Promise<HitCount | null> {
      checkKey("key", key);
      const reply = await script(HITS, keys.hits(key), []);
      if (reply === null || reply === undefined) return null;
      if (!Array.isArray(reply) || reply.length !== 2) throw corrupt("a hit counter");
      const ttl = integerReply(reply[1]);
      return ttl > 0 ? hitCount(integerReply(reply[0]), ttl) : null;
    },

    async resetHits(key: string): Promise<void> {
      checkKey("key", key);
      await command(keys.hits(key), ["DEL", keys.hits(key)]);
    },

    async savePasskey(input: StoredPasskey): Promise<boolean> {
      const { counter, lastUsedAt, ...data } = checkPasskey(input);
      const saved = await script(SAVE_PASSKEY, keys.passkey(data.id), [
        JSON.stringify(data),
        String(counter),
        lastUsedAt === undefined ? "" : String(lastUsedAt),
      ]);
      if (integerReply(saved) === 0) return false;
      // The passkey first, its user's set after: a set never names a passkey that was not written.
      await command(keys.passkeys(data.sub), ["SADD", keys.passkeys(data.sub), data.id]);
      return true;
    },

    async getPasskey(id: string): Promise<StoredPasskey | null> {
      checkPasskeyId(id);
      const reply = await command(keys.passkey(id), ["HGETALL", keys.passkey(id)]);
      return passkeyFromHash(reply, { id });
    },

    async listPasskeys(sub: string): Promise<StoredPasskey[]> {
      checkKey("sub", sub);
      const ids = await command(keys.passkeys(sub), ["SMEMBERS", keys.passkeys(sub)]);
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
        throw corrupt("a passkey list");
      }
      // Passkeys live in slots of their own: one HGETALL each, sent together.
      const replies = await Promise.all(
        ids.map((id) => command(keys.passkey(id), ["HGETALL", keys.passkey(id)])),
      );
      const passkeys: StoredPasskey[] = [];
      const gone: string[] = [];
      for (const [i, reply] of replies.entries()) {
        const passkey = passkeyFromHash(reply, { id: ids[i] });
        if (passkey === null) gone.push(ids[i]);
        else if (passkey.sub === sub) passkeys.push(passkey);
      }
      if (gone.length > 0) await command(keys.passkeys(sub), ["SREM", keys.passkeys(sub), ...gone]);
      return passkeys;
    },

    async deletePasskey(id: string): Promise<boolean> {
      checkPasskeyId(id);
      const data = await script(TAKE_PASSKEY, keys.passkey(id), []);
      if (data === null || data === undefined) return false;
      // Deleted now; its set entry goes after (or is pruned on the next read).
      const sub = passkeySubOf(data);
      if (sub !== undefined) await command(keys.passkeys(sub), ["SREM", keys.passkeys(sub), id]);
      return true;
    },

    async updatePasskey(
      id: string,
      update: { counter: number; lastUsedAt: number; backedUp: boolean; previousCounter: number },
    ): Promise<boolean> {
      checkPasskeyId(id);
      const { counter, lastUsedAt, backedUp, previousCounter } = checkPasskeyUpdate(update);
      // One script on one key: atomic on a single server and on a cluster alike.
      const saved = await script(UPDATE_PASSKEY, keys.passkey(id), [
        String(previousCounter),
        String(counter),
        String(lastUsedAt),
        backedUp ? "1" : "0",
      ]);
      return integerReply(saved) === 1;
    },
  };
}
