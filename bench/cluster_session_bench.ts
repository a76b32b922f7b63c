/**
 * `GET /session` through `handlers.GET` with `redisStore` on a Redis Cluster
 * (three masters on loopback) against one redis-server, in one run, through
 * node-redis (`createClient` / `createCluster`) and ioredis (`Redis` /
 * `Cluster`); `memoryStore()` as the floor. Each contestant reads its own
 * signed-in session, so every request verifies a cached token and asks the
 * store once. Ignored, with a `skipped:` line, without redis-server or
 * redis-cli.
 *
 * Run alone: `deno bench -A bench/cluster_session_bench.ts`.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import { createClient, createCluster } from "npm:redis@6";
// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import { Cluster, Redis } from "npm:ioredis@6";
// Node's types, for the clients' EventEmitter methods (`on`).
import type {} from "node:events";
import { createAuth, memoryStore, type SessionStore } from "../mod.ts";
import { redisStore } from "../redis.ts";
import {
  missingClusterTools,
  startRedisCluster,
  startRedisServer,
} from "../tests/support/redis_server.ts";

const ORIGIN = "http://localhost:8000";
const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";

/** An app over `store` and the session cookie of one signed-in user. */
async function signedIn(store: SessionStore) {
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    session: { store },
    credentials: { authorize: () => ({ sub: "user-1", name: "Ada" }) },
  });
  const csrf = await auth.handlers.GET(new Request(`${ORIGIN}/auth/csrfToken`));
  const csrfCookie = csrf.headers.getSetCookie()[0].split(";")[0];
  const { csrfToken } = await csrf.json();
  const response = await auth.handlers.POST(
    new Request(`${ORIGIN}/auth/signIn/credentials`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRF-Token": csrfToken,
        Cookie: csrfCookie,
      },
      body: JSON.stringify({ username: "ada", password: "x" }),
    }),
  );
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  const cookie = response.headers.getSetCookie()[0].split(";")[0];
  const read = async () => {
    const answer = await auth.handlers.GET(
      new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: cookie } }),
    );
    const body = await answer.json();
    if (body?.user?.name !== "Ada") throw new Error(`no session read: ${answer.status}`);
  };
  await read();
  return read;
}

function bench(name: string, read: (() => Promise<void>) | undefined, baseline = false): void {
  Deno.bench({ name, group: "GET /session", baseline, ignore: read === undefined, fn: read! });
}

bench("memoryStore", await signedIn(memoryStore()));

const contestants: Record<string, (() => Promise<void>) | undefined> = {};
if (!missingClusterTools()) {
  // Stopped when the process ends (see tests/support/redis_server.ts).
  const single = await startRedisServer();
  const cluster = await startRedisCluster();
  const rootNodes = cluster.nodes.map((node) => ({ url: node.url }));

  const nodeSingle = createClient({ url: single.url }).on("error", () => {});
  await nodeSingle.connect();
  const nodeCluster = createCluster({ rootNodes }).on("error", () => {});
  await nodeCluster.connect();
  const ioSingle = new Redis(single.url).on("error", () => {});
  const ioCluster = new Cluster(
    cluster.nodes.map((node) => ({ host: "127.0.0.1", port: node.port })),
  )
    .on("error", () => {});

  contestants["node-redis, one server"] = await signedIn(redisStore(nodeSingle, { prefix: "a:" }));
  contestants["node-redis, cluster"] = await signedIn(redisStore(nodeCluster, { prefix: "a:" }));
  contestants["ioredis, one server"] = await signedIn(redisStore(ioSingle, { prefix: "b:" }));
  contestants["ioredis, cluster"] = await signedIn(redisStore(ioCluster, { prefix: "b:" }));
}
bench("node-redis, one server", contestants["node-redis, one server"], true);
bench("node-redis, cluster", contestants["node-redis, cluster"]);
bench("ioredis, one server", contestants["ioredis, one server"]);
bench("ioredis, cluster", contestants["ioredis, cluster"]);
