// The AccountStore of memoryStore, denoKvStore and redisStore (node-redis and
// ioredis against a real redis-server): upsert on (provider,
// providerAccountId), a user's list in save order, moves between users,
// deletion, checked input, and values that are copies.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createClient } from "npm:redis@6";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { Redis } from "npm:ioredis@6";
import { memoryStore } from "../../mod.ts";
import { account, accountContract } from "./_accounts_contract.ts";
import { denoKvStore, type KvLike } from "../../deno_kv.ts";
import { redisStore } from "../../redis.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";

const noRedis = missingTool("redis-server");

Deno.test("AccountStore: memoryStore", async () => {
  await accountContract(memoryStore());
});

Deno.test("AccountStore: denoKvStore", async () => {
  // Typed here: the project's type check runs without Deno's unstable types.
  const open = (Deno as unknown as { openKv(path: string): Promise<KvLike & { close(): void }> })
    .openKv;
  const kv = await open(":memory:");
  try {
    await accountContract(denoKvStore(kv, { prefix: ["accounts-test"] }));
  } finally {
    kv.close();
  }
});

Deno.test({
  name: "AccountStore: redisStore with node-redis and ioredis; no key of an account expires",
  ignore: noRedis,
  fn: async () => {
    await using server = await startRedisServer();
    const client = createClient({ url: server.url });
    client.on("error", () => {});
    await client.connect();
    const io = new Redis(server.url);
    try {
      await accountContract(redisStore(client, { prefix: "node-redis:" }));
      await accountContract(redisStore(io, { prefix: "ioredis:" }));
      const store = redisStore(client, { prefix: "ttl:" });
      await store.saveAccount(account());
      for (const key of await client.sendCommand(["KEYS", "ttl:*"]) as string[]) {
        assert.equal(await client.sendCommand(["PTTL", key]), -1, `${key} expires`);
      }
    } finally {
      client.destroy();
      io.disconnect();
    }
  },
});
