// The passkey routes on a real redis-server and a real Deno KV, with two instances sharing
// each: a passkey registered on one signs in on the other, a response used on one is refused
// on the other (the challenge is single use across instances), and deletion is seen by both.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createClient } from "npm:redis@6";
import type { PasskeyStore, SessionStore } from "../../mod.ts";
import { type RedisClient, redisStore } from "../../redis.ts";
import { denoKvStore, type KvLike } from "../../deno_kv.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";
import { assertError } from "../server/_helpers.ts";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passwordSignIn,
  post,
  registerNew,
  signInOptions,
} from "./_helpers.ts";

async function twoInstances(store: SessionStore & PasskeyStore): Promise<void> {
  const config = { session: { store } };
  const one = passkeyAuth({ store, config }).auth;
  const two = passkeyAuth({ store, config }).auth;
  const browser = browserFor(one);
  await passwordSignIn(browser);
  const { authenticator, response } = await registerNew(browser, -7, { counter: 1 });
  assert.equal(response.status, 201);

  // Options from instance one, the response sent to two, then replayed to one.
  const signer = browserFor(one);
  const options = await signInOptions(signer);
  const json = await authenticator.authenticate({ challenge: options.challenge as string });
  const captured = new Map(signer.cookies);
  const onTwo = browserFor(two);
  onTwo.cookies = new Map(captured);
  assert.equal((await post(onTwo, "/auth/passkey/signIn", { response: json })).status, 200);
  const replay = browserFor(one);
  replay.cookies = new Map(captured);
  await assertError(
    await post(replay, "/auth/passkey/signIn", { response: json }),
    400,
    "access_denied",
  );
  assert.equal((await store.getPasskey(authenticator.id))?.counter, 2);

  assert.deepEqual((await two.api.listPasskeys(ADA.sub)).map((p) => p.id), [authenticator.id]);
  assert.equal(await two.api.deletePasskey(ADA.sub, authenticator.id), true);
  assert.deepEqual(await one.api.listPasskeys(ADA.sub), []);
}

Deno.test({
  name: "passkeys on redis: two instances share passkeys and single-use challenges",
  ignore: missingTool("redis-server"),
  fn: async () => {
    await using server = await startRedisServer();
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      await twoInstances(redisStore(client as unknown as RedisClient));
    } finally {
      await client.close();
    }
  },
});

Deno.test("passkeys on deno kv: two instances share passkeys and single-use challenges", async () => {
  const kv =
    await (Deno as unknown as { openKv(path: string): Promise<KvLike & { close(): void }> })
      .openKv(":memory:");
  try {
    await twoInstances(denoKvStore(kv));
  } finally {
    kv.close();
  }
});
