// The AccountStore of memoryStore, denoKvStore and redisStore (node-redis and
// ioredis against a real redis-server): upsert on (provider,
// providerAccountId), a user's list in save order, moves between users,
// deletion, checked input, and values that are copies.
import assert from "node:assert/strict";
import { createClient } from "npm:redis@6";
import { Redis } from "npm:ioredis@6";
import { type AccountStore, memoryStore, type StoredAccount } from "../../mod.ts";
import { denoKvStore, type KvLike } from "../../deno_kv.ts";
import { redisStore } from "../../redis.ts";
import { startRedisServer } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";

const noRedis = missingTool("redis-server");

function account(overrides: Partial<StoredAccount> = {}): StoredAccount {
  return {
    provider: "github",
    providerAccountId: "583231",
    sub: "user-1",
    scope: "read:user",
    expiresAt: 1_900_000_000,
    tokens: "sealed.tokens.value",
    createdAt: 1_800_000_000,
    updatedAt: 1_800_000_000,
    ...overrides,
  };
}

async function contract(store: AccountStore): Promise<void> {
  assert.equal(await store.getAccount("github", "583231"), null);
  assert.deepEqual(await store.listAccounts("user-1"), []);
  const first = account();
  await store.saveAccount(first);
  first.scope = "changed after the save";
  assert.deepEqual(await store.getAccount("github", "583231"), account());
  // Upsert: same (provider, id), new tokens; no expiry when none is given.
  const { expiresAt: _, ...withoutExpiry } = account({ tokens: "", updatedAt: 1_800_000_100 });
  await store.saveAccount(withoutExpiry);
  const read = await store.getAccount("github", "583231");
  assert.deepEqual(read, withoutExpiry);
  assert.ok(read && !("expiresAt" in read));
  // A user's list, in save order; another user's accounts are not in it.
  await store.saveAccount(account({ provider: "google", providerAccountId: "g-1" }));
  await store.saveAccount(account({ provider: "github", providerAccountId: "9", sub: "user-2" }));
  await store.saveAccount(account({ provider: "github", providerAccountId: "583231", updatedAt: 1_800_000_200 }));
  const listed = await store.listAccounts("user-1");
  assert.deepEqual(listed.map((a) => `${a.provider}:${a.providerAccountId}`), [
    "google:g-1",
    "github:583231",
  ]);
  // An account saved for another user leaves the first user's list.
  await store.saveAccount(account({ provider: "google", providerAccountId: "g-1", sub: "user-2" }));
  assert.deepEqual((await store.listAccounts("user-1")).map((a) => a.provider), ["github"]);
  assert.deepEqual(
    (await store.listAccounts("user-2")).map((a) => a.providerAccountId).sort(),
    ["9", "g-1"],
  );
  // Ids that differ only where a naive key would join them stay apart.
  await store.saveAccount(account({ provider: "a:b", providerAccountId: "c", sub: "user-3" }));
  await store.saveAccount(account({ provider: "a", providerAccountId: "b:c", sub: "user-3" }));
  assert.equal((await store.listAccounts("user-3")).length, 2);
  assert.equal((await store.getAccount("a:b", "c"))?.providerAccountId, "c");
  // Deletion.
  assert.equal(await store.deleteAccount("github", "583231"), true);
  assert.equal(await store.deleteAccount("github", "583231"), false);
  assert.equal(await store.getAccount("github", "583231"), null);
  assert.deepEqual(await store.listAccounts("user-1"), []);
  // Checked input: nothing stored cut short or half-formed.
  for (
    const bad of [
      account({ provider: "" }),
      account({ sub: "x".repeat(257) }),
      account({ createdAt: 1.5 }),
      account({ tokens: 7 as unknown as string }),
    ]
  ) {
    await assert.rejects(() => store.saveAccount(bad), TypeError);
  }
  await assert.rejects(() => store.getAccount("", "1"), TypeError);
  await assert.rejects(() => store.listAccounts(""), TypeError);
}

Deno.test("AccountStore: memoryStore", async () => {
  await contract(memoryStore());
});

Deno.test("AccountStore: denoKvStore", async () => {
  // Typed here: the project's type check runs without Deno's unstable types.
  const open = (Deno as unknown as { openKv(path: string): Promise<KvLike & { close(): void }> })
    .openKv;
  const kv = await open(":memory:");
  try {
    await contract(denoKvStore(kv, { prefix: ["accounts-test"] }));
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
      await contract(redisStore(client, { prefix: "node-redis:" }));
      await contract(redisStore(io, { prefix: "ioredis:" }));
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
