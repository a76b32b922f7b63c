// redisStore on a real Redis Cluster (three masters on loopback, joined with
// `redis-cli --cluster create`), through node-redis `createCluster` and
// ioredis `Cluster`: the shared contract, one round trip per session read
// (counted by the servers), keys spread over the nodes, and the steps that
// span two slots. One cluster serves the whole file and is flushed before
// each test. Ignored, with a `skipped:` line, without redis-server or redis-cli.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createCluster } from "npm:redis@6";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { Cluster } from "npm:ioredis@6";
// deno-lint-ignore no-import-prefix -- the oldest node-redis the store supports.
import { createCluster as createClusterV4 } from "npm:redis@4";
// deno-lint-ignore no-import-prefix -- the previous ioredis major.
import { Cluster as ClusterV5 } from "npm:ioredis@5";
import { type RedisClient, redisStore } from "../../redis.ts";
import { assertNoSession, Browser, makeAuth } from "../server/_helpers.ts";
import {
  missingClusterTools,
  type RedisCluster,
  startRedisCluster,
} from "../support/redis_server.ts";
import { passkey, session, storeContract, type StoreHarness } from "./_contract.ts";
import { checkStore, type StoreKind } from "../../testing.ts";

const PREFIX = "service-stack:";
const noCluster = missingClusterTools();

// Started once, outside any test (so no test owns its processes); stopped by the last
// test, or by redis_server.ts when the process ends early.
const cluster: RedisCluster | undefined = noCluster ? undefined : await startRedisCluster();

/** A connected cluster client and what the tests need around it. */
interface Connection {
  client: RedisClient;
  /** Sends a raw command about `key`, bypassing the store. */
  command(key: string, args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

interface Flavor {
  name: string;
  connect(): Promise<Connection>;
}

function rootNodes(): { host: string; port: number }[] {
  return cluster!.nodes.map((node) => ({ host: "127.0.0.1", port: node.port }));
}

const nodeRedis: Flavor = {
  name: "node-redis",
  async connect() {
    const client = createCluster({
      rootNodes: cluster!.nodes.map((node) => ({ url: node.url })),
    });
    // Without a listener a lost connection would end the test process.
    client.on("error", () => {});
    await client.connect();
    return {
      client,
      command: (key, args) => client.sendCommand(key, false, args),
      close: async () => {
        await client.close();
      },
    };
  },
};

const ioredis: Flavor = {
  name: "ioredis",
  async connect() {
    const client = new Cluster(rootNodes(), { lazyConnect: true });
    client.on("error", () => {});
    await client.connect();
    return {
      client,
      command: (_key, [name, ...args]) => client.call(name, ...args),
      close: async () => {
        await client.quit();
      },
    };
  },
};

async function openHarness(flavor: Flavor): Promise<StoreHarness & { raw: Connection }> {
  await cluster!.flush();
  const connections: Connection[] = [];
  const raw = await flavor.connect();
  connections.push(raw);
  return {
    raw,
    store: (prefix) => redisStore(raw.client, { prefix: prefix ?? PREFIX }),
    async otherInstance(prefix) {
      const other = await flavor.connect();
      connections.push(other);
      return redisStore(other.client, { prefix: prefix ?? PREFIX });
    },
    async plant(kind, key, value, sub) {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      const target = `${PREFIX}${kind === "listed" ? "session" : kind}:${key}`;
      await raw.command(target, ["SET", target, text]);
      if (kind === "listed") {
        const index = `${PREFIX}user:${sub}`;
        await raw.command(index, ["ZADD", index, String(Date.now() + 60_000), key]);
      }
    },
    async close() {
      for (const connection of connections) await connection.close();
    },
  };
}

async function withCluster(
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

/** Commands each node executed since `CONFIG RESETSTAT`, by name, without the test's own. */
async function commandCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const node of cluster!.nodes) {
    const text = await cluster!.cli(node.port, ["INFO", "commandstats"]);
    for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+),.*?rejected_calls=(\d+)/gm)) {
      const [, name, calls, rejected] = match;
      // The test's own INFO/CONFIG and the clients' topology look-ups are not the store's.
      if (/^(info|config\||cluster\||command|ping|readonly|client\|)/.test(name)) continue;
      counts[name] = (counts[name] ?? 0) + Number(calls) + Number(rejected);
    }
  }
  return counts;
}

/**
 * Routing errors each node answered since `CONFIG RESETSTAT`, by name (ioredis's
 * `CLIENT SETINFO` on connect fails with ERR on Redis before 7.2, which is not routing).
 */
async function errorCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const node of cluster!.nodes) {
    const text = await cluster!.cli(node.port, ["INFO", "errorstats"]);
    const pattern = /^errorstat_(MOVED|ASK|CROSSSLOT|TRYAGAIN|CLUSTERDOWN):count=(\d+)/gm;
    for (const [, name, count] of text.matchAll(pattern)) {
      counts[name] = (counts[name] ?? 0) + Number(count);
    }
  }
  return counts;
}

async function resetCommandCounts(): Promise<void> {
  for (const node of cluster!.nodes) await cluster!.cli(node.port, ["CONFIG", "RESETSTAT"]);
}

/** How many keys each node holds. */
async function keysPerNode(): Promise<number[]> {
  return await Promise.all(
    cluster!.nodes.map(async (node) => Number(await cluster!.cli(node.port, ["DBSIZE"]))),
  );
}

async function keySlot(key: string): Promise<number> {
  return Number(await cluster!.cli(cluster!.nodes[0].port, ["CLUSTER", "KEYSLOT", key]));
}

for (const flavor of [nodeRedis, ioredis]) {
  const label = `redis cluster (${flavor.name})`;

  storeContract(label, {
    ignore: noCluster,
    shared: true,
    open: () => openHarness(flavor),
    garbage: { session: ["not json", "{", ""], once: [], hits: ["abc", "1.5", ""] },
  });

  Deno.test({
    name: `${label}: getSession is one command on one node, with no redirect`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ store }) => {
        const s = store();
        const ids = Array.from({ length: 40 }, (_, i) => `session-${i}`);
        for (const id of ids) await s.saveSession(session(id, `user-${id}`));
        await resetCommandCounts();
        for (const id of ids) assert.equal((await s.getSession(id))?.id, id);
        assert.equal(await s.getSession("never-saved"), null);
        // A MOVED redirect or a second command would show as a second call.
        assert.deepEqual(await commandCounts(), { get: ids.length + 1 });
      }),
  });

  Deno.test({
    name: `${label}: every operation goes straight to the node holding its key`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ store }) => {
        const s = store();
        await resetCommandCounts();
        for (let i = 0; i < 10; i++) {
          await s.saveSession(session(`s${i}`, `user-${i % 3}`));
          await s.saveSession(session(`s${i}`, `user-${i % 3}`, 60));
          await s.consume(`state-${i}`, 60);
          await s.hit(`user-${i}`, 60);
          await s.hits(`user-${i}`);
          await s.resetHits(`user-${i}`);
        }
        await s.saveSession(session("s0", "user-9"));
        for (let u = 0; u < 3; u++) await s.listSessions(`user-${u}`);
        await s.deleteSession("s1");
        for (let u = 0; u < 3; u++) await s.deleteSessions(`user-${u}`);
        // A redirect (MOVED, ASK) or a script spanning slots (CROSSSLOT) shows as an error.
        assert.deepEqual(await errorCounts(), {});
      }),
  });

  Deno.test({
    name: `${label}: every passkey operation goes straight to the node holding its key`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ store }) => {
        const s = store();
        await resetCommandCounts();
        for (let i = 0; i < 12; i++) {
          assert.equal(await s.savePasskey(passkey(`cred-${i}`, `user-${i % 3}`)), true);
          assert.equal(await s.savePasskey(passkey(`cred-${i}`, "user-9")), false);
          const update = { counter: i + 1, lastUsedAt: 1_764_000_000, backedUp: true };
          assert.equal(await s.updatePasskey(`cred-${i}`, { ...update, previousCounter: 0 }), true);
          assert.equal(
            await s.updatePasskey(`cred-${i}`, { ...update, previousCounter: 0 }),
            false,
          );
          assert.equal((await s.getPasskey(`cred-${i}`))?.counter, i + 1);
          assert.equal((await s.getPasskey(`cred-${i}`))?.backedUp, true);
        }
        for (let u = 0; u < 3; u++) assert.equal((await s.listPasskeys(`user-${u}`)).length, 4);
        for (let i = 0; i < 12; i += 2) assert.equal(await s.deletePasskey(`cred-${i}`), true);
        for (let u = 0; u < 3; u++) assert.equal((await s.listPasskeys(`user-${u}`)).length, 2);
        // A redirect (MOVED, ASK) or a script spanning slots (CROSSSLOT) shows as an error.
        assert.deepEqual(await errorCounts(), {});
      }),
  });

  Deno.test({
    name: `${label}: different users' keys spread over every node`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ store }) => {
        const s = store();
        for (let i = 0; i < 30; i++) {
          await s.saveSession(session(crypto.randomUUID(), `user-${i}`));
          await s.hit(`user-${i}`, 60);
          await s.consume(`state-${i}`, 60);
        }
        const counts = await keysPerNode();
        assert.equal(counts.reduce((a, b) => a + b), 120);
        for (const count of counts) assert.ok(count > 10, `keys per node: ${counts}`);
        // A session and its user's index are apart: no script may touch both.
        assert.notEqual(
          await keySlot(`${PREFIX}session:s1`),
          await keySlot(`${PREFIX}user:user-1`),
        );
      }),
  });

  Deno.test({
    name: `${label}: a session revoked on one instance is gone on another at once`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ store, otherInstance }) => {
        const [a, b] = [store(), await otherInstance!()];
        for (const id of ["s1", "s2", "s3"]) await a.saveSession(session(id, "user-1"));
        assert.equal(await b.deleteSession("s1"), true);
        assert.equal(await a.getSession("s1"), null);
        assert.equal(await b.deleteSessions("user-1"), 2);
        assert.equal(await a.getSession("s2"), null);
        assert.equal(await a.getSession("s3"), null);
        assert.deepEqual(await a.listSessions("user-1"), []);
      }),
  });

  Deno.test({
    name: `${label}: an index entry whose session is gone is pruned, and revokes nothing`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ raw, store }) => {
        const s = store();
        await s.saveSession(session("kept", "user-1"));
        await s.saveSession(session("lost", "user-1"));
        // As if the index step after a revocation never ran.
        await raw.command(`${PREFIX}session:lost`, ["DEL", `${PREFIX}session:lost`]);
        assert.deepEqual((await s.listSessions("user-1")).map((x) => x.id), ["kept"]);
        const index = `${PREFIX}user:user-1`;
        assert.deepEqual(await raw.command(index, ["ZRANGE", index, "0", "-1"]), ["kept"]);
        assert.equal(await s.deleteSessions("user-1"), 1);
      }),
  });

  Deno.test({
    name: `${label}: revoke-all leaves alone a listed session that belongs to another user`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ raw, store }) => {
        const s = store();
        await s.saveSession(session("theirs", "user-2"));
        const index = `${PREFIX}user:user-1`;
        await raw.command(index, ["ZADD", index, String(Date.now() + 60_000), "theirs"]);
        assert.equal(await s.deleteSessions("user-1"), 0);
        assert.equal((await s.getSession("theirs"))?.sub, "user-2");
      }),
  });
}

/** A client that passes every command to `connection` and records its command and key. */
function recording(connection: Connection, flavor: Flavor) {
  const log: string[] = [];
  const note = (args: string[]) => {
    // EVAL's key is its fourth word; the others' their second.
    const key = args[0] === "EVAL" ? args[3] : args[1];
    log.push(`${args[0]} ${key.slice(PREFIX.length)}`);
  };
  const client: RedisClient = flavor === ioredis
    ? {
      call(command: string, ...args: string[]) {
        note([command, ...args]);
        return connection.command(args[0], [command, ...args]);
      },
    }
    : {
      masters: [],
      sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]) {
        // A replica may lag behind: a store read must never be sent as read-only.
        if (isReadonly !== false) throw new Error(`isReadonly ${isReadonly} for ${args[0]}`);
        if (firstKey === undefined) throw new Error(`no key for ${args[0]}`);
        note(args);
        return connection.command(firstKey, args);
      },
    };
  return { client, log };
}

for (const flavor of [nodeRedis, ioredis]) {
  const label = `redis cluster (${flavor.name})`;

  Deno.test({
    name: `${label}: a session is written before its index entry and removed before it`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ raw }) => {
        const { client, log } = recording(raw, flavor);
        const s = redisStore(client);
        await s.saveSession(session("s1", "user-1"));
        await s.saveSession(session("s2", "user-1"));
        await s.deleteSession("s1");
        await s.deleteSessions("user-1");
        assert.deepEqual(log, [
          "EVAL session:s1",
          "EVAL user:user-1",
          "EVAL session:s2",
          "EVAL user:user-1",
          "EVAL session:s1",
          "ZREM user:user-1",
          "EVAL user:user-1",
          "EVAL session:s2",
          "ZREM user:user-1",
        ]);
        assert.equal(await s.getSession("s2"), null);
      }),
  });

  Deno.test({
    name: `${label}: saveSession rejects when the session cannot join its user's index`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ raw, store }) => {
        // The index key holds another type: the second step fails.
        const index = `${PREFIX}user:user-1`;
        await raw.command(index, ["SET", index, "not an index"]);
        await assert.rejects(store().saveSession(session("s1", "user-1")), /WRONGTYPE/);
      }),
  });
}

for (const flavor of [nodeRedis, ioredis]) {
  const label = `redis cluster (${flavor.name})`;

  Deno.test({
    name: `${label}: through createAuth, two instances sign in, share the throttle and revoke`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ store, otherInstance }) => {
        const [a, b] = [store(), await otherInstance!()].map((s) =>
          makeAuth({ session: { store: s } })
        );
        const read = (cookie: string) =>
          b.handlers.ALL(
            new Request("http://localhost:8000/auth/session", { headers: { Cookie: cookie } }),
          );
        const browser = new Browser(a.handlers.ALL);
        // Before the cluster layout every sign-in on a cluster answered 503.
        assert.equal((await browser.signIn()).status, 200);
        const cookie = browser.cookieHeader();
        assert.equal((await (await read(cookie)).json())?.user?.sub, "user-1");
        await browser.fetch("POST", "/auth/signOut", {
          headers: { "X-CSRF-Token": await browser.csrf() },
        });
        await assertNoSession(await read(cookie));

        // Five failures spread over both instances lock the username on either.
        for (let i = 0; i < 5; i++) {
          const failing = new Browser((i % 2 === 0 ? a : b).handlers.ALL);
          const response = await failing.fetch("POST", "/auth/signIn/credentials", {
            json: { username: "ada", password: "wrong" },
            headers: { "X-CSRF-Token": await failing.csrf() },
          });
          assert.equal(response.status, 401);
        }
        const locked = new Browser(b.handlers.ALL);
        assert.equal((await locked.signIn()).status, 429);
      }),
  });
}

Deno.test({
  name: "redis cluster: node-redis v4 createCluster and ioredis v5 Cluster work too",
  ignore: noCluster,
  fn: async () => {
    await cluster!.flush();
    const v4 = createClusterV4({ rootNodes: cluster!.nodes.map((node) => ({ url: node.url })) });
    v4.on("error", () => {});
    await v4.connect();
    const v5 = new ClusterV5(rootNodes(), { lazyConnect: true });
    v5.on("error", () => {});
    await v5.connect();
    try {
      for (const [i, client] of [v4, v5].entries()) {
        const store = redisStore(client, { prefix: `v${i}:` });
        for (let u = 0; u < 5; u++) await store.saveSession(session(`s${u}`, `user-${u % 2}`));
        assert.equal((await store.getSession("s1"))?.sub, "user-1");
        assert.equal((await store.listSessions("user-0")).length, 3);
        assert.equal(await store.deleteSession("s0"), true);
        assert.equal(await store.consume("state-1", 60), true);
        assert.equal(await store.consume("state-1", 60), false);
        assert.equal((await store.hit("user-1", 60)).count, 1);
        assert.equal(await store.deleteSessions("user-0"), 2);
        assert.equal(await store.deleteSessions("user-1"), 2);
      }
    } finally {
      await v4.disconnect();
      await v5.quit();
    }
  },
});

/** The kinds redisStore is checked for by the store conformance kit. */
const KIT_KINDS: StoreKind[] = ["sessions", "marks", "counters", "passkeys", "apiKeys"];

for (const flavor of [nodeRedis, ioredis]) {
  Deno.test({
    name: `redis cluster (${flavor.name}): checkStore passes every check`,
    ignore: noCluster,
    fn: () =>
      withCluster(flavor, async ({ store }) => {
        const { failed } = await checkStore(store(), { kinds: KIT_KINDS });
        assert.deepEqual(failed, []);
      }),
  });
}

Deno.test({
  name: "redis cluster: every node stops",
  ignore: noCluster,
  fn: async () => {
    await cluster!.stop();
    for (const node of cluster!.nodes) {
      await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port: node.port }));
    }
  },
});
