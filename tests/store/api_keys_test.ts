// The ApiKeyStore of memoryStore, denoKvStore (Deno KV in memory) and redisStore (a real
// redis-server, and a real three-master Redis Cluster): one contract, plus each backend's
// expiry on the server. Redis parts are ignored when redis-server (or redis-cli) is missing.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { Cluster, Redis } from "npm:ioredis@6";
import { type ApiKeyStore, memoryStore, type StoredApiKey } from "../../mod.ts";
import { denoKvStore, type KvLike } from "../../deno_kv.ts";
import { redisStore } from "../../redis.ts";
import {
  missingClusterTools,
  startRedisCluster,
  startRedisServer,
} from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";

const noRedis = missingTool("redis-server");
const noCluster = missingClusterTools();
const now = () => Math.floor(Date.now() / 1000);
let counter = 0;

function apiKey(fields: Partial<StoredApiKey> = {}): StoredApiKey {
  counter++;
  return {
    id: `k${String(counter).padStart(15, "0")}`,
    sub: "user-1",
    name: `key ${counter}`,
    scopes: [],
    hash: "q1yW3q1o2Ddq0mV0b9jJmH6v2n2bX4h0dFQy8s7yB8s",
    kid: "f3b2c1d4e5f",
    createdAt: now(),
    ...fields,
  };
}

/** The contract every ApiKeyStore keeps. */
async function contract(store: ApiKeyStore, t: Deno.TestContext): Promise<void> {
  await t.step("a saved key reads back equal; an unknown id is null", async () => {
    const plain = apiKey({ scopes: [] });
    const full = apiKey({ scopes: ["a", "b:c"], expiresAt: now() + 3600, lastUsedAt: now() });
    await store.saveApiKey(plain);
    await store.saveApiKey(full);
    assert.deepEqual(await store.getApiKey(plain.id), plain);
    assert.deepEqual(await store.getApiKey(full.id), full);
    assert.equal(await store.getApiKey("k-unknown"), null);
  });

  await t.step("an expired key is never returned", async () => {
    const past = apiKey({ sub: "user-expired", expiresAt: now() - 1 });
    await store.saveApiKey(past);
    assert.equal(await store.getApiKey(past.id), null);
    const soon = apiKey({ sub: "user-expired", expiresAt: now() + 1 });
    await store.saveApiKey(soon);
    assert.deepEqual(await store.getApiKey(soon.id), soon);
    await new Promise((resolve) =>
      setTimeout(resolve, (soon.expiresAt! - Date.now() / 1000) * 1000 + 50)
    );
    assert.equal(await store.getApiKey(soon.id), null);
    assert.deepEqual(await store.listApiKeys("user-expired"), []);
  });

  await t.step("a user's list holds only that user's live keys", async () => {
    const [a, b, c] = [apiKey({ sub: "ada" }), apiKey({ sub: "ada" }), apiKey({ sub: "grace" })];
    for (const key of [a, b, c]) await store.saveApiKey(key);
    const ids = (await store.listApiKeys("ada")).map((key) => key.id).sort();
    assert.deepEqual(ids, [a.id, b.id].sort());
    assert.deepEqual((await store.listApiKeys("grace")).map((key) => key.id), [c.id]);
    assert.deepEqual(await store.listApiKeys("nobody"), []);
  });

  await t.step("delete answers true once, then the key is gone everywhere", async () => {
    const key = apiKey({ sub: "del" });
    await store.saveApiKey(key);
    assert.equal(await store.deleteApiKey(key.id), true);
    assert.equal(await store.deleteApiKey(key.id), false);
    assert.equal(await store.getApiKey(key.id), null);
    assert.deepEqual(await store.listApiKeys("del"), []);
  });

  await t.step(
    "touch records lastUsedAt (listed too) and keeps the expiry; unknown ids are a no-op",
    async () => {
      const key = apiKey({ sub: "touch", expiresAt: now() + 3600 });
      await store.saveApiKey(key);
      await store.touchApiKey(key.id, now() + 5);
      const read = await store.getApiKey(key.id);
      assert.equal(read?.lastUsedAt, now() + 5);
      assert.equal(read?.expiresAt, key.expiresAt);
      assert.equal((await store.listApiKeys("touch"))[0].lastUsedAt, now() + 5);
      await store.touchApiKey("k-unknown", now());
      assert.equal(await store.getApiKey("k-unknown"), null);
    },
  );

  await t.step("malformed records and ids are TypeErrors", async () => {
    for (
      const bad of [
        null,
        {},
        { ...apiKey(), scopes: "a" },
        { ...apiKey(), hash: "not base64url!" },
        { ...apiKey(), id: "" },
      ]
    ) {
      await assert.rejects(store.saveApiKey(bad as StoredApiKey), TypeError);
    }
    await assert.rejects(store.getApiKey(""), TypeError);
    await assert.rejects(store.touchApiKey(apiKey().id, Number.NaN), TypeError);
  });
}

Deno.test("memoryStore keeps the ApiKeyStore contract", async (t) => {
  await contract(memoryStore(), t);
});

Deno.test("memoryStore follows its clock for API key expiry", async () => {
  let clock = Date.UTC(2026, 0, 1);
  const store = memoryStore({ clock: () => clock });
  const key = apiKey({ expiresAt: clock / 1000 + 60 });
  await store.saveApiKey(key);
  assert.ok(await store.getApiKey(key.id));
  clock += 61_000;
  assert.equal(await store.getApiKey(key.id), null);
});

Deno.test("denoKvStore keeps the ApiKeyStore contract", async (t) => {
  const kv =
    await (Deno as unknown as { openKv(path: string): Promise<KvLike & { close(): void }> })
      .openKv(":memory:");
  try {
    await contract(denoKvStore(kv), t);
  } finally {
    kv.close();
  }
});

Deno.test({
  name: "redisStore keeps the ApiKeyStore contract, with a TTL on expiring keys only",
  ignore: noRedis,
  async fn(t) {
    await using server = await startRedisServer();
    const client = new Redis(server.url, { lazyConnect: true });
    client.on("error", () => {});
    await client.connect();
    try {
      const store = redisStore(client, { prefix: "t:" });
      await contract(store, t);
      const forever = apiKey({ sub: "ttl" });
      const expiring = apiKey({ sub: "ttl", expiresAt: now() + 100 });
      await store.saveApiKey(forever);
      assert.equal(await client.call("PTTL", `t:apikey:${forever.id}`), -1);
      assert.equal(await client.call("PTTL", `t:apikeys:ttl`), -1, "the set lives as its last key");
      await store.saveApiKey(expiring);
      const ttl = Number(await client.call("PTTL", `t:apikey:${expiring.id}`));
      assert.ok(ttl > 90_000 && ttl <= 100_000, String(ttl));
      const onlyExpiring = apiKey({ sub: "ttl2", expiresAt: now() + 100 });
      await store.saveApiKey(onlyExpiring);
      const setTtl = Number(await client.call("PTTL", `t:apikeys:ttl2`));
      assert.ok(setTtl > 90_000 && setTtl <= 100_000, String(setTtl));
    } finally {
      client.disconnect();
    }
  },
});

Deno.test({
  name: "redisStore keeps the ApiKeyStore contract on a Redis Cluster",
  ignore: noRedis || noCluster,
  async fn(t) {
    await using cluster = await startRedisCluster();
    const client = new Cluster(
      cluster.nodes.map((node) => ({ host: "127.0.0.1", port: node.port })),
      {
        lazyConnect: true,
      },
    );
    client.on("error", () => {});
    await client.connect();
    try {
      await contract(redisStore(client, { prefix: "c:" }), t);
    } finally {
      client.disconnect();
    }
  },
});
