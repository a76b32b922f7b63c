/**
 * `@service-stack/auth/redis`: a session store in Redis or a Redis Cluster,
 * through a node-redis (npm `redis`, v4 or later) or an `ioredis` client or
 * cluster client.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "redis";
 * import { redisStore } from "@service-stack/auth/redis";
 *
 * const client = createClient({ url: "redis://127.0.0.1:6379" });
 * client.on("error", (error) => console.error("redis:", error.message));
 * await client.connect();
 * const store = redisStore(client, { prefix: "my-app:" });
 * ```
 *
 * @module
 */

export {
  type IoRedisClient,
  type NodeRedisClient,
  type NodeRedisClusterClient,
  type RedisClient,
  redisStore,
  type RedisStoreOptions,
} from "./src/store/redis.ts";
export type { HitCount, SessionStore, StoredSession } from "./src/store/types.ts";
