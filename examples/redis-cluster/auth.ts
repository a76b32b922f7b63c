import { createAuth } from "@service-stack/auth";
import { type RedisClient, redisStore } from "@service-stack/auth/redis";

/**
 * The auth instance of one app server, on a connected cluster client: an ioredis
 * `Cluster`, or a node-redis 6 `createCluster` (node-redis 4 and 5 never see a failover).
 */
export function authOnCluster(cluster: RedisClient) {
  return createAuth({
    oauth: ["github"],
    session: {
      store: redisStore(cluster, { prefix: "shop:" }),
      // While a master is down, each store call waits at most this long, then the
      // request answers 503 temporarily_unavailable (never a 500, never a session).
      storeTimeout: 1_000,
    },
  });
}
