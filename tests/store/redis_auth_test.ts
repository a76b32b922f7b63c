// The store through createAuth against a real redis-server: revocation across
// instances, single-use state, the shared throttle, TTLs on every key the
// library writes, and faults: the server stopped mid-test and started again.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency.
import { createClient } from "npm:redis@6";
import type { LogEntry } from "../../mod.ts";
import { redisStore } from "../../redis.ts";
import { createMockProvider } from "../../testing.ts";
import { assertError, assertNoSession, Browser, makeAuth } from "../server/_helpers.ts";
import { type RedisServer, startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";

const noRedis = missingTool("redis-server");

async function connect(server: RedisServer) {
  const client = createClient({ url: server.url });
  client.on("error", () => {});
  await client.connect();
  return client;
}

function instance(
  client: Awaited<ReturnType<typeof connect>>,
  extra: Parameters<typeof makeAuth>[0] = {},
) {
  return makeAuth({
    session: { store: redisStore(client), storeTimeout: 300 },
    logger: false,
    ...extra,
  });
}

function getSession(auth: ReturnType<typeof makeAuth>, cookie: string) {
  return auth.handlers.ALL(
    new Request("http://localhost:8000/auth/session", { headers: { Cookie: cookie } }),
  );
}

Deno.test({
  name: "redis: sign-out on instance A revokes on instance B, each with its own client",
  ignore: noRedis,
  async fn() {
    await using server = await startRedisServer();
    const [one, two] = [await connect(server), await connect(server)];
    try {
      const [a, b] = [instance(one), instance(two)];
      const browser = new Browser(a.handlers.ALL);
      await browser.signIn();
      const cookie = browser.cookieHeader();
      assert.equal((await getSession(b, cookie)).status, 200);
      await browser.fetch("POST", "/auth/signOut", {
        headers: { "X-CSRF-Token": await browser.csrf() },
      });
      await assertNoSession(await getSession(b, cookie));
    } finally {
      one.destroy();
      two.destroy();
    }
  },
});

Deno.test({
  name: "redis: every key the library writes expires (sessions, state marks, throttle counters)",
  ignore: noRedis,
  async fn() {
    await using server = await startRedisServer();
    const client = await connect(server);
    try {
      const mock = createMockProvider();
      const auth = instance(client, { oauth: [mock.provider], fetch: mock.fetch });
      await new Browser(auth.handlers.ALL).signIn();
      const failing = new Browser(auth.handlers.ALL);
      await failing.fetch("POST", "/auth/signIn/credentials", {
        // "." and "+" occur in no hex id or base64url hash, so a match below is the username.
        json: { username: "grace.hopper+probe", password: "wrong" },
        headers: { "X-CSRF-Token": await failing.csrf() },
      });
      const browser = new Browser(auth.handlers.ALL);
      const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
      const back = new URL(
        (await mock.fetch(start.headers.get("Location")!)).headers.get("Location")!,
      );
      await browser.fetch("GET", `${back.pathname}${back.search}`);
      const keys = (await client.sendCommand(["KEYS", "*"])) as string[];
      const kinds = new Set(keys.map((key) => key.split(":")[1]));
      assert.deepEqual([...kinds].sort(), ["hits", "once", "session", "user"]);
      for (const key of keys) {
        const ttl = Number(await client.sendCommand(["PTTL", key]));
        assert.ok(ttl > 0, `${key} has no TTL (${ttl})`);
        assert.ok(ttl <= 30 * 24 * 3600 * 1000, `${key} outlives a session (${ttl})`);
      }
      assert.ok(keys.every((key) => key.startsWith("service-stack:")));
      assert.ok(!keys.some((key) => key.includes("grace.hopper+probe")), "no username in a key");
    } finally {
      client.destroy();
    }
  },
});

Deno.test({
  name: "redis: two instances racing one callback state: exactly one session",
  ignore: noRedis,
  async fn() {
    await using server = await startRedisServer();
    const [one, two] = [await connect(server), await connect(server)];
    try {
      const mock = createMockProvider();
      const [a, b] = [one, two].map((c) =>
        instance(c, { oauth: [mock.provider], fetch: mock.fetch })
      );
      const browser = new Browser(a.handlers.ALL);
      const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
      const back = new URL(
        (await mock.fetch(start.headers.get("Location")!)).headers.get("Location")!,
      );
      const cookie = browser.cookieHeader();
      const responses = await Promise.all([a, b].map((auth) =>
        auth.handlers.ALL(
          new Request(`http://localhost:8000${back.pathname}${back.search}`, {
            headers: { Cookie: cookie },
          }),
        )
      ));
      const errors = responses.map((r) =>
        new URL(r.headers.get("Location")!, "http://x").searchParams.get("error")
      );
      assert.deepEqual(errors.filter((e) => e === null).length, 1, JSON.stringify(errors));
    } finally {
      one.destroy();
      two.destroy();
    }
  },
});

Deno.test({
  name:
    "redis: stopped mid-test, sign-in and reads fail closed (503, no session), and recover after start",
  ignore: noRedis,
  async fn() {
    await using server = await startRedisServer();
    const client = await connect(server);
    try {
      const entries: LogEntry[] = [];
      const auth = instance(client, {
        logger: { level: "error", log: (entry: LogEntry) => entries.push(entry) },
      });
      const browser = new Browser(auth.handlers.ALL);
      await browser.signIn();
      const cookie = browser.cookieHeader();
      assert.equal((await getSession(auth, cookie)).status, 200);

      await server.stop();
      const started = Date.now();
      await assertError(await getSession(auth, cookie), 503, "temporarily_unavailable");
      assert.ok(Date.now() - started < 5_000, "bounded by the store timeout, not hanging");
      const request = new Request("http://localhost:8000/", { headers: { Cookie: cookie } });
      assert.equal(await auth.api.getSession(request), null);
      const fresh = new Browser(auth.handlers.ALL);
      const refused = await fresh.signIn();
      assert.ok(refused.status === 503, `sign-in answered ${refused.status}`);
      assert.equal(fresh.cookies.has("service-stack.session_token"), false);
      assert.ok(entries.some((entry) => entry.message === "session store failed"));

      await server.start();
      // Persistence is off: the restarted server lost the session, so it is no session.
      let after = await getSession(auth, cookie);
      for (let i = 0; i < 50 && after.status === 503; i++) {
        await after.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await getSession(auth, cookie);
      }
      await assertNoSession(after);
      assert.equal((await new Browser(auth.handlers.ALL).signIn()).status, 200);
    } finally {
      client.destroy();
    }
  },
});
