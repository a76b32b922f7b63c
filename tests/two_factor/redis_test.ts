// Two instances sharing a real redis-server: a TOTP code used on one is refused on the other, a
// backup code too, and the wrong-code bound of a pending sign-in is shared. Ignored, with a
// `skipped: no redis-server` line, when redis-server is missing (REDIS_SERVER_BIN).
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createClient } from "npm:redis@6";
import { type RedisClient, redisStore } from "../../redis.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";
import { assertError } from "../server/_helpers.ts";
import { codeAt, enroll, verify, world } from "./_world.ts";

Deno.test({
  name:
    "redis: a code used on one instance is refused on another; backup codes and tries are shared",
  ignore: missingTool("redis-server"),
  fn: async () => {
    await using server = await startRedisServer();
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      const store = redisStore(client as unknown as RedisClient);
      const records = new Map<string, string | null>();
      const shared = {
        store,
        load: (sub: string) => records.get(sub) ?? null,
        save: (sub: string, value: string | null) => void records.set(sub, value),
      };
      const one = world(shared);
      const two = world({ ...shared, clock: one.clock });
      const { secret, backupCodes } = await enroll(one);
      const code = await codeAt(one, secret);

      const onOne = one.browser();
      assert.deepEqual(await (await onOne.signIn()).json(), { twoFactorRequired: true });
      assert.equal((await verify(onOne, { code })).status, 200);
      const onTwo = two.browser();
      assert.deepEqual(await (await onTwo.signIn()).json(), { twoFactorRequired: true });
      await assertError(await verify(onTwo, { code }), 400, "invalid_grant");

      // A backup code used on instance two is refused on one, even from a factor loaded before.
      const a = two.browser();
      await a.signIn();
      const b = one.browser();
      await b.signIn();
      assert.equal((await verify(a, { backupCode: backupCodes[3] })).status, 200);
      await assertError(await verify(b, { backupCode: backupCodes[3] }), 400, "invalid_grant");

      // One pending cookie, tried on both instances: five tries in all, then 429.
      const pending = one.browser();
      await pending.signIn();
      const mirror = two.browser();
      mirror.cookies = pending.cookies;
      for (const browser of [pending, mirror, pending, mirror, pending]) {
        await assertError(await verify(browser, { code: "000000" }), 400, "invalid_grant");
      }
      one.clock.advance(30);
      await assertError(
        await verify(mirror, { code: await codeAt(one, secret) }),
        429,
        "access_denied",
      );
    } finally {
      await client.quit();
    }
  },
});
