// ioredis on a Redis Cluster: with its defaults it sees a promoted replica within about
// 0.1 s, about 3 s after a master crashed (with cluster-node-timeout 1000). Keep `scaleReads`
// at "master": a replica may still hold a revoked session.
import { Cluster } from "ioredis";
import { createAuth } from "@service-stack/auth";
import { redisStore } from "@service-stack/auth/redis";

/** Connects to a Redis Cluster through any of its nodes, e.g. `[{ host: "10.0.0.1", port: 6379 }]`. */
export async function connectCluster(nodes: { host: string; port: number }[]) {
  const cluster = new Cluster(nodes, { lazyConnect: true, scaleReads: "master" });
  // Without an error listener every lost connection is logged as unhandled.
  cluster.on("error", (error) => console.error("redis:", error.message));
  await cluster.connect();
  return cluster;
}

if (import.meta.main) {
  const cluster = await connectCluster([{ host: "127.0.0.1", port: 7000 }]);
  const auth = createAuth({
    oauth: ["github"],
    // Each store call waits at most storeTimeout (1000 ms by default), then answers 503.
    session: { store: redisStore(cluster, { prefix: "shop:" }), storeTimeout: 1_000 },
  });
  Deno.serve((request) => auth.handlers.ALL(request));
}
