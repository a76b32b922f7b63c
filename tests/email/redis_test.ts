// Email links and codes are single use across instances that share a real redis-server, and the
// message limit and wrong-code bound are shared too. Ignored, with a `skipped: no redis-server`
// line, when redis-server is missing.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createClient } from "npm:redis@6";
import { type RedisClient, redisStore } from "../../redis.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";
import { assertError } from "../server/_helpers.ts";
import { askSignIn, Browser, emailAuth, Outbox } from "./_helpers.ts";

Deno.test({
  name: "redis: an email link used on one instance is refused on another; the code too",
  ignore: missingTool("redis-server"),
  fn: async () => {
    await using server = await startRedisServer();
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      const store = redisStore(client as unknown as RedisClient);
      const outbox = new Outbox();
      const one = emailAuth({ outbox, store }).auth;
      const two = emailAuth({ outbox, store }).auth;
      const asker = new Browser(one.handlers.ALL);
      await askSignIn(asker, "ada@example.com");
      const token = outbox.lastToken();
      const code = outbox.last().code!;
      const first = await new Browser(one.handlers.ALL).fetch("POST", "/auth/callback/email", {
        json: { token },
      });
      assert.equal(first.status, 200);
      await first.body?.cancel();
      await assertError(
        await new Browser(two.handlers.ALL).fetch("POST", "/auth/callback/email", {
          json: { token },
        }),
        400,
        "invalid_grant",
      );
      // The code of the same message, typed on the other instance in the asking browser.
      const onTwo = new Browser(two.handlers.ALL);
      onTwo.cookies = asker.cookies;
      await assertError(
        await onTwo.fetch("POST", "/auth/callback/email", { json: { code } }),
        400,
        "invalid_grant",
      );
      // The message limit is shared: three sends in all, whichever instance is asked.
      const before = outbox.messages.length;
      for (const auth of [one, two, one, two]) {
        await askSignIn(new Browser(auth.handlers.ALL), "ada@example.com");
      }
      assert.equal(outbox.messages.length - before, 2);
    } finally {
      await client.quit();
    }
  },
});
