// redisStore against a real redis-server, through node-redis and through
// ioredis: the shared contract, the TTL of every key on the server, values of
// the wrong type, and what each client does while Redis is down. Ignored, with
// a `skipped: no redis-server` line, when redis-server is missing.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createClient } from "npm:redis@6";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { Redis } from "npm:ioredis@6";
// deno-lint-ignore no-import-prefix -- the oldest node-redis the store supports.
import { createClient as createClientV4 } from "npm:redis@4";
// deno-lint-ignore no-import-prefix -- the previous ioredis major.
import { Redis as RedisV5 } from "npm:ioredis@5";
import { type RedisClient, redisStore } from "../../redis.ts";
import type { SessionStore } from "../../mod.ts";
import { type RedisServer, startRedisServer } from "../support/redis_server.ts";
import { checkStore, type StoreKind } from "../../testing.ts";
import { missingTool } from "../support/tools.ts";
import { passkey, session, sleep, storeContract, type StoreHarness } from "./_contract.ts";

const PREFIX = "service-stack:";
const noRedis = missingTool("redis-server");

/** A connected client and what the tests need around it. */
interface Connection {
  client: RedisClient;
  /** Sends a raw command, bypassing the store. */
  command(args: string[]): Promise<unknown>;
  /** Drops the connection at once, without waiting for the server. */
  close(): Promise<void>;
}

/** One Redis client library. */
interface Flavor {
  name: string;
  connect(url: string): Promise<Connection>;
}

const nodeRedis: Flavor = {
  name: "node-redis",
  async connect(url) {
    const client = createClient({ url });
    // Without a listener a lost connection would end the test process.
    client.on("error", () => {});
    await client.connect();
    return {
      client,
      command: (args) => client.sendCommand(args),
      close: async () => {
        if (client.isOpen) client.destroy();
        await Promise.resolve();
      },
    };
  },
};

const ioredis: Flavor = {
  name: "ioredis",
  async connect(url) {
    const client = new Redis(url, { lazyConnect: true });
    client.on("error", () => {});
    await client.connect();
    return {
      client,
      command: ([name, ...args]) => client.call(name, ...args),
      close: async () => {
        client.disconnect();
        await Promise.resolve();
      },
    };
  },
};

/** A redis-server of its own and a client of `flavor` for one test. */
async function openHarness(flavor: Flavor): Promise<
  StoreHarness & { server: RedisServer; raw: Connection }
> {
  const server = await startRedisServer();
  const connections: Connection[] = [];
  try {
    const raw = await flavor.connect(server.url);
    connections.push(raw);
    return {
      server,
      raw,
      store: (prefix) => redisStore(raw.client, { prefix: prefix ?? PREFIX }),
      async otherInstance(prefix) {
        const other = await flavor.connect(server.url);
        connections.push(other);
        return redisStore(other.client, { prefix: prefix ?? PREFIX });
      },
      async plant(kind, key, value, sub) {
        const text = typeof value === "string" ? value : JSON.stringify(value);
        if (kind === "listed") {
          await raw.command(["SET", `${PREFIX}session:${key}`, text]);
          await raw.command(["ZADD", `${PREFIX}user:${sub}`, String(Date.now() + 60_000), key]);
        } else {
          const tag = kind === "session" ? "session" : kind;
          await raw.command(["SET", `${PREFIX}${tag}:${key}`, text]);
        }
      },
      async close() {
        for (const connection of connections) await connection.close();
        await server[Symbol.asyncDispose]();
      },
    };
  } catch (error) {
    await server[Symbol.asyncDispose]();
    throw error;
  }
}

/** Runs `fn` with a fresh server and client of `flavor`, then stops both. */
async function withRedis(
  flavor: Flavor,
  fn: (h: Awaited<ReturnType<typeof openHarness>>) => Promise<void>,
): Promise<void> {
  const harness = await openHarness(flavor);
  try {
    await fn(harness);
  } finally {
    await harness.close();
  }
}

/** Every key on the server under `prefix`, listed with SCAN. */
async function scanKeys(connection: Connection, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const reply = await connection.command(["SCAN", cursor, "MATCH", `${prefix}*`, "COUNT", "100"]);
    const [next, batch] = reply as [string, string[]];
    cursor = String(next);
    keys.push(...batch);
  } while (cursor !== "0");
  return keys.sort();
}

async function pttl(connection: Connection, key: string): Promise<number> {
  return Number(await connection.command(["PTTL", key]));
}

/** Whether a promise has settled, checked without waiting for it. */
function observe<T>(promise: Promise<T>): { state: () => string; done: Promise<unknown> } {
  let state = "pending";
  const done = promise.then(
    (value) => state = `resolved ${JSON.stringify(value)}`,
    (error) => state = `rejected ${error instanceof Error ? error.message : error}`,
  );
  return { state: () => state, done };
}

for (const flavor of [nodeRedis, ioredis]) {
  const label = `redis (${flavor.name})`;

  storeContract(label, {
    ignore: noRedis,
    shared: true,
    open: () => openHarness(flavor),
    garbage: { session: ["not json", "{", ""], once: [], hits: ["abc", "1.5", ""] },
  });

  Deno.test({
    name: `${label}: passkeys never expire: their keys have no TTL`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ raw, store }) => {
        const s = store();
        await s.savePasskey(passkey("cred-1", "user-1"));
        await s.updatePasskey("cred-1", {
          counter: 2,
          lastUsedAt: 1_764_000_000,
          backedUp: false,
          previousCounter: 0,
        });
        const names = [`${PREFIX}passkey:cred-1`, `${PREFIX}passkeys:user-1`];
        assert.deepEqual((await scanKeys(raw, PREFIX)).sort(), names);
        for (const name of names) assert.equal(await raw.command(["PTTL", name]), -1);
      }),
  });

  Deno.test({
    name: `${label}: every key the store writes has a TTL matching what it holds`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ raw, store }) => {
        const s = store();
        await s.saveSession(session("s1", "user-1", 100));
        await s.saveSession(session("s2", "user-1", 200));
        await s.consume("state-1", 300);
        await s.hit("user-1", 400);
        await s.hit("user-1", 400);
        const expected: Record<string, number> = {
          [`${PREFIX}hits:user-1`]: 400_000,
          [`${PREFIX}once:state-1`]: 300_000,
          [`${PREFIX}session:s1`]: 100_000,
          [`${PREFIX}session:s2`]: 200_000,
          [`${PREFIX}user:user-1`]: 200_000,
        };
        assert.deepEqual(await scanKeys(raw, PREFIX), Object.keys(expected).sort());
        for (const [key, ms] of Object.entries(expected)) {
          const ttl = await pttl(raw, key);
          assert.ok(ttl > ms - 3_000 && ttl <= ms, `${key}: PTTL ${ttl}, expected about ${ms}`);
        }
      }),
  });

  Deno.test({
    name: `${label}: the user list expires with its latest session, also after shortening it`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ raw, store }) => {
        const s = store();
        await s.saveSession(session("s1", "user-1", 100));
        await s.saveSession(session("s2", "user-1", 200));
        await s.saveSession(session("s2", "user-1", 50));
        const ttl = await pttl(raw, `${PREFIX}user:user-1`);
        assert.ok(ttl > 97_000 && ttl <= 100_000, `PTTL ${ttl}`);
      }),
  });

  Deno.test({
    name: `${label}: listSessions prunes expired and deleted ids from the user list`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ raw, store }) => {
        const s = store();
        const short = session("short", "user-1", 1);
        await s.saveSession(short);
        await s.saveSession(session("long", "user-1"));
        await s.saveSession(session("gone", "user-1"));
        await raw.command(["DEL", `${PREFIX}session:gone`]);
        await sleep(short.expiresAt * 1000 - Date.now() + 150);
        assert.deepEqual((await s.listSessions("user-1")).map((x) => x.id), ["long"]);
        assert.deepEqual(await raw.command(["ZRANGE", `${PREFIX}user:user-1`, "0", "-1"]), [
          "long",
        ]);
      }),
  });

  Deno.test({
    name: `${label}: a store key holding another Redis type makes the call reject`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ raw, store }) => {
        const s = store();
        await raw.command(["HSET", `${PREFIX}session:s1`, "sub", "user-1"]);
        await raw.command(["SET", `${PREFIX}user:user-1`, "s1"]);
        await raw.command(["RPUSH", `${PREFIX}hits:user-1`, "1"]);
        await assert.rejects(s.getSession("s1"), /WRONGTYPE/);
        await assert.rejects(s.deleteSession("s1"), /WRONGTYPE/);
        await assert.rejects(s.saveSession(session("s1", "user-2")), /WRONGTYPE/);
        await assert.rejects(s.listSessions("user-1"), /WRONGTYPE/);
        await assert.rejects(s.hit("user-1", 60), /WRONGTYPE/);
      }),
  });

  Deno.test({
    name: `${label}: consume is false for a one-time key that holds anything`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ raw, store }) => {
        await raw.command(["SET", `${PREFIX}once:state-1`, "not ours"]);
        await raw.command(["HSET", `${PREFIX}once:state-2`, "a", "b"]);
        assert.equal(await store().consume("state-1", 60), false);
        assert.equal(await store().consume("state-2", 60), false);
      }),
  });

  Deno.test({
    name: `${label}: a counter left without a TTL gets the window's TTL on the next hit`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ raw, store }) => {
        await raw.command(["SET", `${PREFIX}hits:user-1`, "4"]);
        assert.deepEqual(await store().hit("user-1", 60), { count: 5, resetIn: 60 });
        const ttl = await pttl(raw, `${PREFIX}hits:user-1`);
        assert.ok(ttl > 57_000 && ttl <= 60_000, `PTTL ${ttl}`);
      }),
  });

  Deno.test({
    name: `${label}: while Redis is down a call waits, then completes without the lost session`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ server, store }) => {
        const s = store();
        await s.saveSession(session("s1", "user-1"));
        await server.stop();
        const read = observe(s.getSession("s1"));
        await sleep(1_200);
        // Both clients queue commands while reconnecting, by default: the caller's timeout ends the wait.
        assert.equal(read.state(), "pending");
        // Same port, no persistence: the client reconnects to an empty Redis.
        await server.start();
        await read.done;
        assert.equal(read.state(), "resolved null");
        assert.equal(await s.consume("state-1", 60), true);
      }),
  });
}

Deno.test({
  name:
    "redis (node-redis): with the offline queue off, a call rejects at once while Redis is down",
  ignore: noRedis,
  fn: async () => {
    await using server = await startRedisServer();
    const client = createClient({ url: server.url, disableOfflineQueue: true });
    client.on("error", () => {});
    await client.connect();
    try {
      const store = redisStore(client);
      await server.stop();
      await sleep(100);
      const started = Date.now();
      await assert.rejects(store.getSession("s1"), /offline/i);
      assert.ok(Date.now() - started < 500);
    } finally {
      client.destroy();
    }
  },
});

Deno.test({
  name: "redis (ioredis): with maxRetriesPerRequest 0, a call rejects soon while Redis is down",
  ignore: noRedis,
  fn: async () => {
    await using server = await startRedisServer();
    const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on("error", () => {});
    await client.connect();
    try {
      const store = redisStore(client);
      await server.stop();
      await sleep(100);
      const started = Date.now();
      await assert.rejects(store.getSession("s1"), /max retries|connection/i);
      assert.ok(Date.now() - started < 1_500, `${Date.now() - started} ms`);
    } finally {
      client.disconnect();
    }
  },
});

Deno.test({
  name: "redis: a closed client makes every call reject",
  ignore: noRedis,
  fn: async () => {
    await using server = await startRedisServer();
    const a = createClient({ url: server.url });
    a.on("error", () => {});
    await a.connect();
    a.destroy();
    const b = new Redis(server.url, { lazyConnect: true });
    b.on("error", () => {});
    await b.connect();
    b.disconnect();
    for (const client of [a, b]) {
      await assert.rejects(redisStore(client).getSession("s1"));
      await assert.rejects(redisStore(client).consume("state-1", 60));
    }
  },
});

Deno.test({
  name: "redis: two clients of different libraries share one store",
  ignore: noRedis,
  fn: () =>
    withRedis(nodeRedis, async ({ server, store }) => {
      const other = await ioredis.connect(server.url);
      try {
        const viaIoredis: SessionStore = redisStore(other.client);
        await store().saveSession(session("s1", "user-1"));
        assert.equal((await viaIoredis.getSession("s1"))?.sub, "user-1");
        assert.equal(await viaIoredis.deleteSessions("user-1"), 1);
        assert.equal(await store().getSession("s1"), null);
      } finally {
        await other.close();
      }
    }),
});

Deno.test({
  name: "redis: node-redis v4 and ioredis v5 clients work too",
  ignore: noRedis,
  fn: async () => {
    await using server = await startRedisServer();
    const v4 = createClientV4({ url: server.url });
    v4.on("error", () => {});
    await v4.connect();
    const v5 = new RedisV5(server.url, { lazyConnect: true });
    v5.on("error", () => {});
    await v5.connect();
    try {
      for (const [i, client] of [v4, v5].entries()) {
        const store = redisStore(client, { prefix: `v${i}:` });
        await store.saveSession(session("s1", "user-1"));
        assert.equal((await store.getSession("s1"))?.id, "s1");
        assert.equal((await store.listSessions("user-1")).length, 1);
        assert.equal(await store.consume("state-1", 60), true);
        assert.equal(await store.consume("state-1", 60), false);
        assert.equal((await store.hit("user-1", 60)).count, 1);
        assert.equal(await store.deleteSessions("user-1"), 1);
      }
    } finally {
      await v4.disconnect();
      v5.disconnect();
    }
  },
});

Deno.test("redis: redisStore refuses what is not a Redis client", () => {
  for (const client of [null, {}, { sendCommand: "no" }, "redis://127.0.0.1"]) {
    assert.throws(() => redisStore(client as unknown as RedisClient), TypeError);
  }
});

Deno.test("redis: redisStore refuses an ioredis client with a keyPrefix", () => {
  const client = new Redis({ lazyConnect: true, keyPrefix: "app:" });
  assert.throws(() => redisStore(client), /keyPrefix/);
  client.disconnect();
});

Deno.test("redis: redisStore refuses a prefix that is empty, long, spaced or a hash tag", () => {
  const client = { sendCommand: () => Promise.resolve(null) };
  const bad: unknown[] = [
    5,
    "",
    "x".repeat(101),
    "my app:",
    "app:\n",
    "app\u0000:",
    // A hash tag would put every key of the store in one cluster slot.
    "{app}:",
    "app{1}:",
    "app}:",
  ];
  for (const [i, prefix] of bad.entries()) {
    assert.throws(() => redisStore(client, { prefix: prefix as string }), TypeError, `#${i}`);
  }
  for (const prefix of ["my-app:", "a", "x".repeat(100), "app:v2|auth:", "appé:"]) {
    redisStore(client, { prefix });
  }
});

Deno.test({
  name: "redis: two apps with their own prefixes on one server share nothing",
  ignore: noRedis,
  fn: () =>
    withRedis(nodeRedis, async ({ raw, store }) => {
      const blog = store();
      const shop = store("shop:");
      await blog.saveSession(session("s1", "user-1"));
      await shop.saveSession(session("s1", "user-2"));
      await shop.saveSession(session("s2", "user-1"));
      assert.equal((await blog.getSession("s1"))?.sub, "user-1");
      assert.equal((await shop.getSession("s1"))?.sub, "user-2");
      assert.deepEqual((await blog.listSessions("user-1")).map((s) => s.id), ["s1"]);
      assert.equal(await shop.deleteSessions("user-1"), 1);
      assert.equal((await blog.getSession("s1"))?.sub, "user-1");
      assert.equal(await blog.consume("state-1", 60), true);
      assert.equal(await shop.consume("state-1", 60), true);
      await blog.hit("user-1", 60);
      await blog.hit("user-1", 60);
      assert.equal(await shop.hits("user-1"), null);
      assert.equal((await shop.hit("user-1", 60)).count, 1);
      await shop.resetHits("user-1");
      assert.equal((await blog.hits("user-1"))?.count, 2);
      const keys = await scanKeys(raw, "");
      assert.ok(keys.length > 0);
      for (const key of keys) {
        assert.ok(key.startsWith(PREFIX) || key.startsWith("shop:"), key);
      }
    }),
});

/** The kinds redisStore is checked for by the store conformance kit. */
const KIT_KINDS: StoreKind[] = ["sessions", "marks", "counters", "passkeys", "apiKeys"];

for (const flavor of [nodeRedis, ioredis]) {
  Deno.test({
    name: `redis (${flavor.name}): checkStore passes every check`,
    ignore: noRedis,
    fn: () =>
      withRedis(flavor, async ({ store }) => {
        const { passed, failed } = await checkStore(store(), { kinds: KIT_KINDS });
        assert.deepEqual(failed, []);
        assert.ok(passed.length >= 10, passed.join(", "));
      }),
  });
}
