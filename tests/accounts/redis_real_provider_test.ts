// Two instances sharing a real Redis (sessions, the refresh lock and the
// accounts) and a real OpenID provider: 20 concurrent getAccessToken calls
// after expiry, split over both instances, make exactly one refresh request;
// and no token the provider issued is ever in a response, a cookie, a
// Location, a log entry, or in clear in Redis.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createClient } from "npm:redis@6";
import { redisStore } from "../../redis.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";
import {
  Clock,
  providerUnavailable,
  realProviderAuth,
  signInReal,
  startRefreshProvider,
  subOf,
} from "./_helpers.ts";

const ignore = missingTool("redis-server") || (await providerUnavailable()) !== undefined;

async function redisClient(url: string) {
  const client = createClient({ url });
  client.on("error", () => {});
  await client.connect();
  return client;
}

Deno.test({
  name: "accounts, real provider and Redis: 20 concurrent calls on two instances make one refresh",
  ignore,
  fn: async () => {
    await using redis = await startRedisServer();
    await using op = await startRefreshProvider();
    const [a, b] = [await redisClient(redis.url), await redisClient(redis.url)];
    try {
      const clock = new Clock();
      const one = realProviderAuth(op, { accounts: redisStore(a), session: redisStore(a), clock });
      const two = realProviderAuth(op, { accounts: redisStore(b), session: redisStore(b), clock });
      const sub = await subOf(await signInReal(one.auth, "alice"));
      // The other instance knows the account from the shared store.
      assert.equal((await two.auth.api.listAccounts(sub)).length, 1);
      clock.advance(90);
      const results = await Promise.all(
        Array.from(
          { length: 20 },
          (_, i) => (i % 2 === 0 ? one : two).auth.api.getAccessToken({ sub }, "oidc"),
        ),
      );
      assert.equal((await op.control.counts()).refresh, 1);
      const fresh = results[0]!.accessToken;
      for (const result of results) assert.equal(result?.accessToken, fresh);
      // The rotated refresh token is in the shared store: either instance refreshes next.
      clock.advance(90);
      assert.ok(await two.auth.api.getAccessToken({ sub }, "oidc"));
      assert.equal((await op.control.counts()).refresh, 2);
    } finally {
      a.destroy();
      b.destroy();
    }
  },
});

Deno.test({
  name:
    "accounts, real provider and Redis: no issued token is in a response, cookie, Location, log or in clear in Redis",
  ignore,
  fn: async () => {
    await using redis = await startRedisServer();
    await using op = await startRefreshProvider();
    const client = await redisClient(redis.url);
    try {
      const { auth, logs, clock } = realProviderAuth(op, {
        accounts: redisStore(client),
        session: redisStore(client),
      });
      const browser = await signInReal(auth, "alice");
      const sub = await subOf(browser);
      await browser.get("/auth/accounts");
      // A second sign-in replaces the tokens, a refresh rotates them, a link re-consents.
      await signInReal(auth, "alice", browser);
      clock.advance(90);
      await auth.api.getAccessToken({ sub }, "oidc");
      const link = await browser.send("POST", "/auth/link/oidc", { scope: "openid email" });
      assert.equal(link.status, 200);
      await browser.get("/auth/accounts");
      const tokens = (await op.control.tokens()).filter((token) => token.length >= 16);
      assert.ok(tokens.length >= 4, `the provider issued tokens (${tokens.length})`);
      // Everything the browser saw, everything logged, everything Redis holds.
      const seen: string[] = [];
      for (const response of browser.responses) {
        seen.push(response.body, ...response.headers.map(([name, value]) => `${name}: ${value}`));
      }
      seen.push(...browser.cookies.values());
      seen.push(...logs.map((entry) => JSON.stringify(entry)));
      const keys = await client.sendCommand(["KEYS", "*"]) as string[];
      assert.ok(keys.length > 0);
      for (const key of keys) {
        seen.push(key);
        const type = String(await client.sendCommand(["TYPE", key]));
        if (type === "string") seen.push(String(await client.sendCommand(["GET", key])));
        else if (type === "zset") {
          seen.push(JSON.stringify(await client.sendCommand(["ZRANGE", key, "0", "-1"])));
        } else if (type === "hash") {
          seen.push(JSON.stringify(await client.sendCommand(["HGETALL", key])));
        } else if (type === "set") {
          seen.push(JSON.stringify(await client.sendCommand(["SMEMBERS", key])));
        }
      }
      const everything = seen.join("\n");
      for (const token of tokens) {
        assert.ok(!everything.includes(token), "an issued token leaked");
      }
      // The list is the real thing: the token the app gets is in it.
      const current = await auth.api.getAccessToken({ sub }, "oidc");
      assert.ok(current && tokens.includes(current.accessToken));
    } finally {
      client.destroy();
    }
  },
});
