/**
 * `getSession` on each store adapter, in one run: memory, Redis through
 * node-redis and through ioredis (a redis-server of its own on a loopback
 * port), and Deno KV (in memory). Redis benchmarks are ignored, with a
 * `skipped:` line, when redis-server is missing; Deno KV ones when
 * `--unstable-kv` is not set. Run with `deno task bench`.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import { createClient } from "npm:redis@6";
// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import { Redis } from "npm:ioredis@6";
// Node's types, for the client's EventEmitter methods (`on`).
import type {} from "node:events";
import { memoryStore, type SessionStore, type StoredSession } from "../mod.ts";
import { redisStore } from "../redis.ts";
import { denoKvStore, type KvLike } from "../deno_kv.ts";
import { startRedisServer } from "../tests/support/redis_server.ts";

const REDIS_CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];
const now = Date.now() / 1000;
const saved: StoredSession = {
  id: crypto.randomUUID(),
  sub: "user-1",
  createdAt: Math.floor(now),
  expiresAt: now + 3600,
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)",
};

/** Saves the session and checks that the store reads it back, so every contestant does real work. */
async function prepared(store: SessionStore): Promise<SessionStore> {
  await store.saveSession(saved);
  if ((await store.getSession(saved.id))?.sub !== saved.sub) throw new Error("no session read");
  return store;
}

async function redisBinary(): Promise<string | undefined> {
  const fromEnv = Deno.env.get("REDIS_SERVER_BIN");
  for (const path of fromEnv ? [fromEnv] : REDIS_CANDIDATES) {
    if (await Deno.stat(path).then((info) => info.isFile, () => false)) return path;
  }
  return undefined;
}

function bench(name: string, store: SessionStore | undefined, baseline = false): void {
  Deno.bench({
    name,
    group: "getSession",
    baseline,
    ignore: store === undefined,
    fn: async () => {
      await store!.getSession(saved.id);
    },
  });
}

bench("memory", await prepared(memoryStore()), true);

const binary = await redisBinary();
let viaNodeRedis: SessionStore | undefined;
let viaIoredis: SessionStore | undefined;
if (binary === undefined) {
  console.log("skipped: no redis-server (set REDIS_SERVER_BIN or run `deno task setup`)");
} else {
  // Stopped when the process ends (see tests/support/redis_server.ts).
  const server = await startRedisServer({ binary });
  // The default error listener would end the process on a lost connection.
  const nodeClient = createClient({ url: server.url }).on("error", () => {});
  await nodeClient.connect();
  const ioClient = new Redis(server.url, { lazyConnect: true });
  ioClient.on("error", () => {});
  await ioClient.connect();
  viaNodeRedis = await prepared(redisStore(nodeClient));
  viaIoredis = await prepared(redisStore(ioClient));
}
bench("redis via node-redis", viaNodeRedis);
bench("redis via ioredis", viaIoredis);

// Typed here: the project's type check runs without Deno's unstable types.
const { openKv } = Deno as unknown as { openKv?: (path: string) => Promise<KvLike> };
let viaKv: SessionStore | undefined;
if (typeof openKv !== "function") {
  console.log("skipped: no Deno KV (run with --unstable-kv)");
} else {
  viaKv = await prepared(denoKvStore(await openKv(":memory:")));
}
bench("deno kv (in memory)", viaKv);
