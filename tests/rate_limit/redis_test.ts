// Two instances, each its own server and its own Redis client, on one real Redis: one limit
// in total (store.hit is atomic across instances); a Redis that is down fails closed.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createClient } from "npm:redis@6";
import { redisStore } from "../../redis.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";
import { fullAuth } from "./_helpers.ts";

const MAX = 9;

async function connect(url: string) {
  const client = createClient({ url });
  // Without a listener a lost connection would end the test process.
  client.on("error", () => {});
  await client.connect();
  return client;
}

async function instance(url: string) {
  const client = await connect(url);
  const auth = fullAuth({
    logger: false,
    session: { store: redisStore(client), storeTimeout: 500 },
    rateLimit: { rules: { "/signUp": { max: MAX } } },
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    auth.handlers.ALL,
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      if (client.isOpen) client.destroy();
    },
  };
}

async function burst(origin: string, count: number): Promise<number[]> {
  const responses = await Promise.all(
    Array.from({ length: count }, () =>
      fetch(`${origin}/auth/signUp`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      })),
  );
  return await Promise.all(responses.map(async (response) => {
    await response.body?.cancel();
    return response.status;
  }));
}

Deno.test({
  name: "two instances on one real Redis hold one limit in total under 100 concurrent requests",
  ignore: missingTool("redis-server"),
  async fn() {
    await using redis = await startRedisServer();
    await using one = await instance(redis.url);
    await using two = await instance(redis.url);
    const [a, b] = await Promise.all([burst(one.origin, 50), burst(two.origin, 50)]);
    const all = [...a, ...b];
    assert.equal(all.filter((status) => status === 403).length, MAX);
    assert.equal(all.filter((status) => status === 429).length, 100 - MAX);
    // Each instance let some through: the budget is one, not one per instance.
    assert.ok(a.includes(429) && b.includes(429));
  },
});

Deno.test({
  name: "a Redis that is down fails closed: 503 on a limited route, never the route itself",
  ignore: missingTool("redis-server"),
  async fn() {
    await using redis = await startRedisServer();
    await using one = await instance(redis.url);
    await redis.stop();
    const statuses = await burst(one.origin, 3);
    assert.deepEqual(statuses, [503, 503, 503]);
  },
});
