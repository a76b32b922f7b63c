// checkStore, the store conformance kit: it passes on the library's own stores (each adapter's
// test file runs it on its real backend too), fails on stores broken the way peers' stores broke
// (a consume that reads then writes, a hit that loses counts, a store that forgets expiry), and
// touches nothing outside the keys it made.
import assert from "node:assert/strict";
import {
  memoryStore,
  type SessionStore,
  type StoredAccount,
  type StoredApiKey,
  type StoredPasskey,
} from "../../mod.ts";
import { checkStore, type StoreKind } from "../../testing.ts";

/** The kinds memoryStore has (passkeys since updatePasskey compares and sets). */
const MEMORY_KINDS: StoreKind[] = ["sessions", "marks", "counters", "passkeys", "apiKeys"];

/** A store whose methods each wait a little, as a remote backend does. */
function slow<T extends object>(store: T): T {
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return value.apply(target, args);
      };
    },
  });
}

Deno.test("checkStore: memoryStore passes every check of its kinds", async () => {
  const { passed, failed } = await checkStore(memoryStore(), { kinds: MEMORY_KINDS });
  assert.deepEqual(failed, []);
  assert.ok(passed.includes("consume is atomic"));
  assert.ok(passed.includes("hit is atomic"));
  assert.ok(passed.includes("a session is gone once it expires"));
});

Deno.test("checkStore: a consume that reads then writes fails 'consume is atomic'", async () => {
  const inner = memoryStore();
  const used = new Set<string>();
  const broken: SessionStore = {
    ...inner,
    async consume(key) {
      const seen = used.has(key);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (seen) return false;
      used.add(key);
      return true;
    },
  };
  const { passed, failed } = await checkStore(broken, { kinds: ["marks"] });
  assert.deepEqual(failed.map((f) => f.check), ["consume is atomic", "a mark expires"]);
  assert.match(failed[0].message, /of 50 concurrent consumes resolved true, expected 1/);
  assert.deepEqual(passed, ["consume is single-use"]);
});

Deno.test("checkStore: a hit that loses counts fails 'hit is atomic'", async () => {
  const inner = memoryStore();
  const counts = new Map<string, number>();
  const broken: SessionStore = {
    ...inner,
    async hit(key) {
      const count = (counts.get(key) ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      counts.set(key, count);
      return { count, resetIn: 60 };
    },
    hits: (key) =>
      Promise.resolve(counts.has(key) ? { count: counts.get(key)!, resetIn: 60 } : null),
    resetHits: (key) => Promise.resolve(void counts.delete(key)),
  };
  const { failed } = await checkStore(broken, { kinds: ["counters"] });
  assert.ok(failed.some((f) => f.check === "hit is atomic"), JSON.stringify(failed));
  assert.ok(failed.some((f) => f.check === "a hit window ends"), "windows never end here");
});

Deno.test("checkStore: a store that ignores expiresAt fails the expiry checks", async () => {
  const inner = memoryStore();
  const sessions = new Map<string, Parameters<SessionStore["saveSession"]>[0]>();
  const broken: SessionStore = {
    ...inner,
    saveSession: (session) => Promise.resolve(void sessions.set(session.id, { ...session })),
    getSession: (id) => Promise.resolve(sessions.get(id) ?? null),
    deleteSession: (id) => Promise.resolve(sessions.delete(id)),
    listSessions: (sub) => Promise.resolve([...sessions.values()].filter((s) => s.sub === sub)),
    async deleteSessions(sub) {
      let count = 0;
      for (const [id, s] of sessions) if (s.sub === sub && sessions.delete(id)) count++;
      return await Promise.resolve(count);
    },
  };
  const { failed } = await checkStore(broken, { kinds: ["sessions"] });
  assert.deepEqual(failed.map((f) => f.check).sort(), [
    "a session is gone once it expires",
    "a session whose expiresAt has passed is not saved",
  ]);
});

Deno.test("checkStore: a store that hangs fails that check within the timeout, never the run", async () => {
  const inner = memoryStore();
  const broken: SessionStore = { ...inner, consume: () => new Promise(() => {}) };
  const { failed } = await checkStore(broken, { kinds: ["marks"], timeout: 50 });
  assert.ok(failed.length >= 2);
  assert.match(failed[0].message, /no answer within 50 ms/);
});

Deno.test("checkStore: a store without a kind's methods fails that kind, and unknown kinds throw", async () => {
  // memoryStore has every kind: a store made of its session methods alone has no accounts.
  const { saveAccount: _s, getAccount: _g, listAccounts: _l, deleteAccount: _d, ...sessionsOnly } =
    memoryStore();
  const { failed } = await checkStore(sessionsOnly, { kinds: ["accounts"] });
  assert.equal(failed.length, 1);
  assert.equal(failed[0].check, "accounts: the store has the methods");
  assert.match(failed[0].message, /saveAccount/);
  await assert.rejects(
    checkStore(memoryStore(), { kinds: ["tables" as StoreKind] }),
    (error) => error instanceof TypeError && /unknown kind/.test(error.message),
  );
});

Deno.test("checkStore: leaves the app's own entries alone and removes what it made", async () => {
  const store = slow(memoryStore());
  const now = Date.now() / 1000;
  const mine = {
    id: "app-session",
    sub: "app-user",
    createdAt: Math.floor(now),
    expiresAt: now + 600,
  };
  await store.saveSession(mine);
  assert.equal(await store.consume("app-mark", 600), true);
  await store.hit("app-counter", 600);
  const seen = new Set<string>();
  const watched = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const first = args[0];
        const key = typeof first === "string"
          ? first
          : (first as { id?: string; sub?: string })?.id;
        if (typeof key === "string") seen.add(key);
        return value.apply(target, args);
      };
    },
  });
  const { failed } = await checkStore(watched, { kinds: MEMORY_KINDS });
  assert.deepEqual(failed, []);
  assert.ok([...seen].every((key) => key.startsWith("check-")), [...seen].join(", "));
  assert.deepEqual(await store.getSession("app-session"), mine);
  assert.equal(await store.consume("app-mark", 600), false);
  assert.equal((await store.hits("app-counter"))?.count, 1);
  const theirs = [...seen].filter((key) => key.includes("-u"));
  for (const sub of theirs) assert.deepEqual(await store.listSessions(sub), []);
});

/** Passkeys, accounts and API keys over Maps, as the contracts' JSDoc examples keep them. */
function mapStores(options: { compareAndSet: boolean }) {
  const passkeys = new Map<string, StoredPasskey>();
  const accounts = new Map<string, StoredAccount>();
  const apiKeys = new Map<string, StoredApiKey>();
  const accountKey = (provider: string, id: string) => JSON.stringify([provider, id]);
  const live = (row: StoredApiKey | undefined) =>
    row && (row.expiresAt === undefined || row.expiresAt > Date.now() / 1000) ? row : null;
  const later = () => new Promise((resolve) => setTimeout(resolve, 1));
  return {
    savePasskey(passkey: StoredPasskey) {
      if (passkeys.has(passkey.id)) return Promise.resolve(false);
      passkeys.set(passkey.id, structuredClone(passkey));
      return Promise.resolve(true);
    },
    getPasskey: (id: string) => Promise.resolve(structuredClone(passkeys.get(id) ?? null)),
    listPasskeys: (sub: string) =>
      Promise.resolve([...passkeys.values()].filter((row) => row.sub === sub)),
    deletePasskey: (id: string) => Promise.resolve(passkeys.delete(id)),
    async updatePasskey(
      id: string,
      update: { counter: number; lastUsedAt: number; backedUp: boolean; previousCounter: number },
    ) {
      const row = passkeys.get(id);
      if (!options.compareAndSet) {
        await later();
        if (row) Object.assign(row, { counter: update.counter, lastUsedAt: update.lastUsedAt });
        return true;
      }
      if (!row || row.counter !== update.previousCounter) return false;
      Object.assign(row, {
        counter: update.counter,
        lastUsedAt: update.lastUsedAt,
        backedUp: update.backedUp,
      });
      return true;
    },
    saveAccount(account: StoredAccount) {
      accounts.set(accountKey(account.provider, account.providerAccountId), { ...account });
      return Promise.resolve();
    },
    getAccount: (provider: string, id: string) =>
      Promise.resolve(accounts.get(accountKey(provider, id)) ?? null),
    listAccounts: (sub: string) =>
      Promise.resolve([...accounts.values()].filter((row) => row.sub === sub)),
    deleteAccount: (provider: string, id: string) =>
      Promise.resolve(accounts.delete(accountKey(provider, id))),
    saveApiKey(apiKey: StoredApiKey) {
      apiKeys.set(apiKey.id, { ...apiKey });
      return Promise.resolve();
    },
    getApiKey: (id: string) => Promise.resolve(live(apiKeys.get(id))),
    listApiKeys: (sub: string) =>
      Promise.resolve([...apiKeys.values()].filter((row) => row.sub === sub && live(row))),
    deleteApiKey: (id: string) => Promise.resolve(apiKeys.delete(id)),
    touchApiKey(id: string, lastUsedAt: number) {
      const row = apiKeys.get(id);
      if (row) row.lastUsedAt = lastUsedAt;
      return Promise.resolve();
    },
  };
}

Deno.test("checkStore: passkey, account and API key stores that keep the contracts pass", async () => {
  const { passed, failed } = await checkStore(mapStores({ compareAndSet: true }));
  assert.deepEqual(failed, []);
  for (
    const check of [
      "updatePasskey is atomic",
      "saveAccount replaces the account with the same provider and id",
      "provider and account id never run together",
      "an API key is gone once it expires",
    ]
  ) {
    assert.ok(passed.includes(check), check);
  }
});

Deno.test("checkStore: a passkey store without compare-and-set fails the counter checks", async () => {
  const { failed } = await checkStore(mapStores({ compareAndSet: false }), { kinds: ["passkeys"] });
  assert.deepEqual(failed.map((f) => f.check), [
    "updatePasskey saves only over the counter it read",
    "updatePasskey is atomic",
  ]);
});
