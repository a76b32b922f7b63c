/**
 * `redisStore`: a {@linkcode SessionStore} in Redis, through a node-redis
 * (npm `redis`, v4 or later) or an `ioredis` client the app connects.
 *
 * Key layout under `prefix` (default `service-stack:`); every key expires:
 * - `<prefix>session:<id>`: the session as JSON, expiring at its `expiresAt`;
 * - `<prefix>user:<sub>`: a sorted set of the user's session ids scored by
 *   their expiry (ms), expiring with the latest of them; stale ids pruned on
 *   every save and list;
 * - `<prefix>once:<key>`: a one-time mark, expiring after its `ttlSeconds`;
 * - `<prefix>hits:<key>`: a counter, expiring when its window ends.
 *
 * @module
 */

import {
  checkKey,
  checkSeconds,
  checkSession,
  corrupt,
  hitCount,
  isActive,
  parseSession,
} from "./_validate.ts";
import type { HitCount, SessionStore, StoredSession } from "./types.ts";

/**
 * A connected node-redis client (npm `redis`, v4 or later): the store sends
 * raw commands with `sendCommand([...])`.
 */
export interface NodeRedisClient {
  /** Sends one command, e.g. `["GET", "key"]`, and resolves its reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** A connected `ioredis` client: the store sends raw commands with `call(...)`. */
export interface IoRedisClient {
  /** Sends one command, e.g. `call("GET", "key")`, and resolves its reply. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** A client {@linkcode redisStore} can talk through. */
export type RedisClient = NodeRedisClient | IoRedisClient;

/** Options for {@linkcode redisStore}. */
export interface RedisStoreOptions {
  /**
   * Starts every key the store writes, so that several apps (or tests) can
   * share one Redis database. Defaults to `"service-stack:"`. Two prefixes
   * where one starts with the other may collide.
   */
  prefix?: string;
}

const DEFAULT_PREFIX = "service-stack:";

// Saves a session, moves it between user lists if its user changed, prunes
// the list and gives the list the TTL of its latest session.
// KEYS: session, user list. ARGV: json, ttl ms, id, expiry ms, now ms, user-list prefix.
const SAVE = `
local old = redis.call('GET', KEYS[1])
if old then
  local ok, previous = pcall(cjson.decode, old)
  if ok and type(previous) == 'table' and type(previous.sub) == 'string' then
    local oldList = ARGV[6] .. previous.sub
    if oldList ~= KEYS[2] then redis.call('ZREM', oldList, ARGV[3]) end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
local ttl = math.max(1, math.ceil(tonumber(last[2]) - tonumber(ARGV[5])))
redis.call('PEXPIRE', KEYS[2], string.format('%d', ttl))
return 1
`;

// Deletes one session and its id in its user's list; 1 when it existed.
// KEYS: session. ARGV: user-list prefix, id.
const DELETE = `
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
redis.call('DEL', KEYS[1])
local ok, previous = pcall(cjson.decode, old)
if ok and type(previous) == 'table' and type(previous.sub) == 'string' then
  redis.call('ZREM', ARGV[1] .. previous.sub, ARGV[2])
end
return 1
`;

// The user's sessions as JSON, pruning ids that expired or whose session is gone.
// KEYS: user list. ARGV: session prefix, now ms.
const LIST = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local found = {}
for _, id in ipairs(ids) do
  local value = redis.call('GET', ARGV[1] .. id)
  if value then
    found[#found + 1] = id
    found[#found + 1] = value
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return found
`;

// Deletes every session in the user's list and the list; how many existed.
// KEYS: user list. ARGV: session prefix.
const DELETE_ALL = `
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local count = 0
for _, id in ipairs(ids) do count = count + redis.call('DEL', ARGV[1] .. id) end
redis.call('DEL', KEYS[1])
return count
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

type Command = (args: string[]) => Promise<unknown>;

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
      const ioredis = client as IoRedisClient;
      return ([command, ...args]) => ioredis.call(command, ...args);
    }
    if (typeof candidate.sendCommand === "function") {
      const nodeRedis = client as NodeRedisClient;
      return (args) => nodeRedis.sendCommand(args);
    }
  }
  throw new TypeError(
    "client must be a connected Redis client; expected a node-redis client " +
      "(createClient from npm redis) or an ioredis client.",
  );
}

function integerReply(reply: unknown): number {
  if (typeof reply !== "number" || !Number.isSafeInteger(reply)) {
    throw new Error("Redis answered with something other than an integer; expected one.");
  }
  return reply;
}

/**
 * A {@linkcode SessionStore} in Redis, shared by every instance that uses
 * the same Redis. `client` is a connected node-redis (v4+) or ioredis
 * client; the store sends it raw commands (`GET`, `SET ... NX PX`, `DEL`
 * and small Lua scripts with `EVAL` where several keys change together) and
 * never connects, retries or times out on its own.
 *
 * A single Redis server (or a primary) is expected, not Redis Cluster: the
 * scripts touch keys they compute. Values read back are checked: a key
 * holding anything the store did not write rejects the call.
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
 */
export function redisStore(client: RedisClient, options: RedisStoreOptions = {}): SessionStore {
  const command = commandFor(client);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (typeof prefix !== "string") {
    throw new TypeError('prefix must be a string; expected e.g. "my-app:".');
  }
  const sessionKeys = `${prefix}session:`;
  const userKeys = `${prefix}user:`;

  function script(source: string, keys: string[], args: string[]): Promise<unknown> {
    return command(["EVAL", source, String(keys.length), ...keys, ...args]);
  }

  async function deleteSession(id: string): Promise<boolean> {
    checkKey("session id", id);
    return integerReply(await script(DELETE, [sessionKeys + id], [userKeys, id])) === 1;
  }

  return {
    async saveSession(input: StoredSession): Promise<void> {
      const session = checkSession(input);
      const nowMs = Date.now();
      const expiresAtMs = Math.ceil(session.expiresAt * 1000);
      if (!isActive(session, nowMs)) {
        await deleteSession(session.id);
        return;
      }
      await script(SAVE, [sessionKeys + session.id, userKeys + session.sub], [
        JSON.stringify(session),
        String(expiresAtMs - nowMs),
        session.id,
        String(expiresAtMs),
        String(nowMs),
        userKeys,
      ]);
    },

    async getSession(id: string): Promise<StoredSession | null> {
      checkKey("session id", id);
      const reply = await command(["GET", sessionKeys + id]);
      if (reply === null) return null;
      const session = parseSession(reply, { id });
      return isActive(session, Date.now()) ? session : null;
    },

    deleteSession,

    async listSessions(sub: string): Promise<StoredSession[]> {
      checkKey("sub", sub);
      const nowMs = Date.now();
      const reply = await script(LIST, [userKeys + sub], [sessionKeys, String(nowMs)]);
      if (!Array.isArray(reply) || reply.length % 2 !== 0) throw corrupt("a session list");
      const sessions: StoredSession[] = [];
      for (let i = 0; i < reply.length; i += 2) {
        const session = parseSession(reply[i + 1], { id: reply[i], sub });
        if (isActive(session, nowMs)) sessions.push(session);
      }
      return sessions;
    },

    async deleteSessions(sub: string): Promise<number> {
      checkKey("sub", sub);
      return integerReply(await script(DELETE_ALL, [userKeys + sub], [sessionKeys]));
    },

    async consume(key: string, ttlSeconds: number): Promise<boolean> {
      checkKey("key", key);
      const ttlMs = checkSeconds("ttlSeconds", ttlSeconds);
      const reply = await command(["SET", `${prefix}once:${key}`, "1", "PX", String(ttlMs), "NX"]);
      if (reply !== "OK" && reply !== null) {
        throw new Error("Redis answered SET NX with something else; expected OK or nil.");
      }
      return reply === "OK";
    },

    async hit(key: string, windowSeconds: number): Promise<HitCount> {
      checkKey("key", key);
      const windowMs = checkSeconds("windowSeconds", windowSeconds);
      const reply = await script(HIT, [`${prefix}hits:${key}`], [String(windowMs)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw corrupt("a hit counter");
      return hitCount(integerReply(reply[0]), integerReply(reply[1]));
    },

    async hits(key: string): Promise<HitCount | null> {
      checkKey("key", key);
      const reply = await script(HITS, [`${prefix}hits:${key}`], []);
      if (reply === null || reply === undefined) return null;
      if (!Array.isArray(reply) || reply.length !== 2) throw corrupt("a hit counter");
      const ttl = integerReply(reply[1]);
      return ttl > 0 ? hitCount(integerReply(reply[0]), ttl) : null;
    },

    async resetHits(key: string): Promise<void> {
      checkKey("key", key);
      await command(["DEL", `${prefix}hits:${key}`]);
    },
  };
}
