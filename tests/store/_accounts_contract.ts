// The AccountStore contract every account store passes: upsert on (provider,
// providerAccountId), a user's list in save order, moves between users,
// deletion, checked input (where the store checks it), and values that are copies.
import assert from "node:assert/strict";
import type { AccountStore, StoredAccount } from "../../mod.ts";

export function account(overrides: Partial<StoredAccount> = {}): StoredAccount {
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

export async function accountContract(
  store: AccountStore,
  options: { checksInput?: boolean } = {},
): Promise<void> {
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
  await store.saveAccount(
    account({ provider: "github", providerAccountId: "583231", updatedAt: 1_800_000_200 }),
  );
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
  if (options.checksInput === false) return;
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
