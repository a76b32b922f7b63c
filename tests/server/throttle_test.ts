// The credentials throttle under pressure: concurrent guesses are counted
// before `authorize` runs (without a store, with memoryStore, Deno KV and a
// real redis-server), every spelling of a username shares one counter, and the
// per-process throttle follows the configured clock.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency.
import { createClient } from "npm:redis@6";
import { memoryStore, type SessionStore } from "../../mod.ts";
import { denoKvStore, type KvLike } from "../../deno_kv.ts";
import { redisStore } from "../../redis.ts";
import { ADA, assertError, Browser, Clock, makeAuth } from "./_helpers.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";

type Auth = ReturnType<typeof makeAuth>;

/** An instance whose `authorize` counts its calls and answers after a pause (a slow hash). */
function countingAuth(store?: SessionStore, extra: Parameters<typeof makeAuth>[0] = {}) {
  const calls: string[] = [];
  const auth = makeAuth({
    session: store ? { store } : undefined,
    credentials: {
      authorize: async ({ username, password }) => {
        calls.push(username);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return username === "ada" && password === "correct horse" ? ADA : null;
      },
    },
    ...extra,
  });
  return { auth, calls };
}

/** A browser holding a CSRF token, ready to post credentials at once. */
async function ready(auth: Auth) {
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  return (username: string, password: string) =>
    browser.fetch("POST", "/auth/signIn/credentials", {
      json: { username, password },
      headers: { "X-CSRF-Token": token },
    });
}

/** Fires `count` wrong passwords for ada at the same time. */
async function concurrentGuesses(auth: Auth, count: number): Promise<Response[]> {
  const posts = await Promise.all(Array.from({ length: count }, () => ready(auth)));
  return await Promise.all(posts.map((post, i) => post("ada", `guess-${i}`)));
}

async function assertGuessesThrottled(auth: Auth, calls: string[]) {
  const responses = await concurrentGuesses(auth, 24);
  assert.ok(calls.length <= 5, `authorize ran ${calls.length} times; expected at most 5`);
  const statuses = responses.map((response) => response.status);
  assert.equal(statuses.filter((status) => status === 401).length, calls.length);
  assert.equal(statuses.filter((status) => status === 429).length, 24 - calls.length);
  for (const response of responses) {
    if (response.status === 401) {
      await assertError(response, 401, "access_denied");
      continue;
    }
    const retryAfter = Number(response.headers.get("Retry-After"));
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    await assertError(response, 429, "temporarily_unavailable");
  }
  // The window holds: the right password now is refused too, without calling authorize.
  const before = calls.length;
  await assertError(
    await (await ready(auth))("ada", "correct horse"),
    429,
    "temporarily_unavailable",
  );
  assert.equal(calls.length, before);
}

Deno.test("throttle: 24 concurrent wrong passwords with a memoryStore reach authorize at most 5 times", async () => {
  const { auth, calls } = countingAuth(memoryStore());
  await assertGuessesThrottled(auth, calls);
});

Deno.test("throttle: 24 concurrent wrong passwords without a store reach authorize at most 5 times", async () => {
  const { auth, calls } = countingAuth();
  await assertGuessesThrottled(auth, calls);
});

Deno.test("throttle: 24 concurrent wrong passwords with a Deno KV store reach authorize at most 5 times", async () => {
  // Typed here: the project's type check runs without Deno's unstable types.
  const deno = Deno as unknown as { openKv(path: string): Promise<KvLike & { close(): void }> };
  const kv = await deno.openKv(":memory:");
  try {
    const { auth, calls } = countingAuth(denoKvStore(kv));
    await assertGuessesThrottled(auth, calls);
  } finally {
    kv.close();
  }
});

Deno.test({
  name:
    "throttle: 24 concurrent wrong passwords on two instances sharing redis reach authorize at most 5 times",
  ignore: missingTool("redis-server"),
  async fn() {
    await using server = await startRedisServer();
    const clients = [createClient({ url: server.url }), createClient({ url: server.url })];
    for (const client of clients) {
      client.on("error", () => {});
      await client.connect();
    }
    try {
      const calls: string[] = [];
      const [a, b] = clients.map((client) => {
        const instance = countingAuth(redisStore(client));
        instance.calls.push = (...items) => calls.push(...items);
        return instance.auth;
      });
      const posts = await Promise.all(
        Array.from({ length: 24 }, (_, i) => ready(i % 2 ? a : b)),
      );
      const responses = await Promise.all(posts.map((post, i) => post("ada", `guess-${i}`)));
      assert.ok(calls.length <= 5, `authorize ran ${calls.length} times; expected at most 5`);
      const statuses = responses.map((response) => response.status).sort();
      assert.deepEqual(statuses, [
        ...Array(calls.length).fill(401),
        ...Array(24 - calls.length).fill(429),
      ]);
      for (const response of responses) await response.body?.cancel();
    } finally {
      for (const client of clients) client.destroy();
    }
  },
});

Deno.test("throttle: a success gives its attempt back, so sequential successes never lock a username", async () => {
  const { auth, calls } = countingAuth();
  for (let i = 0; i < 4; i++) await (await ready(auth))("ada", "wrong");
  for (let i = 0; i < 8; i++) {
    assert.equal((await (await ready(auth))("ada", "correct horse")).status, 200);
  }
  // The success cleared the four failures: five more are allowed before the lock.
  for (let i = 0; i < 5; i++) {
    await assertError(await (await ready(auth))("ada", "wrong"), 401, "access_denied");
  }
  await assertError(await (await ready(auth))("ada", "wrong"), 429, "temporarily_unavailable");
  assert.equal(calls.length, 4 + 8 + 5);
});

Deno.test("throttle: a sign-in refused by callbacks.signIn after a right password does not count", async () => {
  const { auth } = countingAuth(undefined, { callbacks: { signIn: () => null } });
  for (let i = 0; i < 7; i++) {
    await assertError(await (await ready(auth))("ada", "correct horse"), 401, "access_denied");
  }
});

Deno.test("throttle: every spelling of a username shares one counter (NFKC, outer spaces, NBSP, case)", async () => {
  const spellings = [
    "ada",
    "ADA",
    "Ada",
    " ada ",
    "\tada\n",
    "\u00a0ada\u00a0", // no-break spaces
    "\u3000ada\u2003", // ideographic and em spaces
    "\uff41\uff44\uff41", // fullwidth ａｄａ
    "\uff21\uff24\uff21", // fullwidth ＡＤＡ
    "\ufeffada", // a byte order mark
  ];
  const { auth, calls } = countingAuth(memoryStore(), {
    credentials: {
      authorize: ({ username }) => {
        calls.push(username);
        return null;
      },
      throttle: { maxAttempts: spellings.length - 1, window: 60 },
    },
  });
  for (const username of spellings.slice(0, -1)) {
    await assertError(await (await ready(auth))(username, "wrong"), 401, "access_denied");
  }
  // The last spelling is one attempt too many for the one account they all name.
  await assertError(
    await (await ready(auth))(spellings.at(-1)!, "wrong"),
    429,
    "temporarily_unavailable",
  );
  assert.equal(calls.length, spellings.length - 1);
  // Inner spaces and other letters are other usernames.
  await assertError(await (await ready(auth))("a da", "wrong"), 401, "access_denied");
  await assertError(await (await ready(auth))("adb", "wrong"), 401, "access_denied");
});

Deno.test("throttle: without a store the window follows the configured clock", async () => {
  const clock = new Clock(Date.now());
  const auth = makeAuth({
    clock: clock.fn,
    credentials: { authorize: () => null, throttle: { maxAttempts: 2, window: 60 } },
  });
  const attempt = async () => await (await ready(auth))("ada", "wrong");
  await assertError(await attempt(), 401, "access_denied");
  await assertError(await attempt(), 401, "access_denied");
  await assertError(await attempt(), 429, "temporarily_unavailable");
  // Real time passes, the configured clock does not: still locked.
  clock.advance(30);
  const locked = await attempt();
  assert.equal(locked.headers.get("Retry-After"), "30");
  await assertError(locked, 429, "temporarily_unavailable");
  // The configured clock passes the window: unlocked, whatever the real time.
  clock.advance(31);
  await assertError(await attempt(), 401, "access_denied");
});

Deno.test("throttle: a configured clock far from real time still unlocks after the window", async () => {
  // A clock a day behind real time: a Date.now window would hold for a day.
  const clock = new Clock(Date.now() - 24 * 3600 * 1000);
  const auth = makeAuth({
    clock: clock.fn,
    credentials: { authorize: () => null, throttle: { maxAttempts: 1, window: 60 } },
  });
  const attempt = async () => await (await ready(auth))("ada", "wrong");
  await assertError(await attempt(), 401, "access_denied");
  await assertError(await attempt(), 429, "temporarily_unavailable");
  clock.advance(61);
  await assertError(await attempt(), 401, "access_denied");
});
