// memoryStore: the shared contract, plus its memory bound and what it evicts.
import assert from "node:assert/strict";
import { memoryStore } from "../../mod.ts";
import { session, sleep, storeContract } from "./_contract.ts";

storeContract("memory", {
  shared: false,
  open: () => {
    // One instance per prefix: an in-memory store shares nothing with another.
    const stores = new Map<string, ReturnType<typeof memoryStore>>();
    return Promise.resolve({
      store(prefix = "") {
        let store = stores.get(prefix);
        if (store === undefined) stores.set(prefix, store = memoryStore());
        return store;
      },
      close: () => Promise.resolve(),
    });
  },
});

Deno.test("memory: a full store evicts its oldest session first", async () => {
  const store = memoryStore({ maxEntries: 3 });
  for (const id of ["a", "b", "c", "d"]) await store.saveSession(session(id, "user-1"));
  assert.equal(await store.getSession("a"), null);
  assert.deepEqual((await store.listSessions("user-1")).map((s) => s.id).sort(), ["b", "c", "d"]);
});

Deno.test("memory: saving a session again makes it the newest", async () => {
  const store = memoryStore({ maxEntries: 3 });
  for (const id of ["a", "b", "c"]) await store.saveSession(session(id, "user-1"));
  await store.saveSession(session("a", "user-1"));
  await store.saveSession(session("d", "user-1"));
  assert.equal(await store.getSession("b"), null);
  assert.equal((await store.getSession("a"))?.id, "a");
});

Deno.test("memory: a full store evicts the oldest of sessions and hit counters", async () => {
  const store = memoryStore({ maxEntries: 3 });
  await store.hit("user-1", 60);
  await store.saveSession(session("a", "user-1"));
  await store.hit("user-2", 60);
  await store.saveSession(session("b", "user-1"));
  // The counter for user-1 was the oldest entry: it starts over.
  assert.equal((await store.hit("user-1", 60)).count, 1);
  assert.equal((await store.hit("user-2", 60)).count, 2);
  // Counting user-1 again evicted session a, the oldest left.
  assert.equal(await store.getSession("a"), null);
  assert.equal((await store.getSession("b"))?.id, "b");
});

Deno.test("memory: a live one-time mark is never evicted, so consume never says first twice", async () => {
  const store = memoryStore({ maxEntries: 2 });
  assert.equal(await store.consume("state-1", 60), true);
  assert.equal(await store.consume("state-2", 60), true);
  await assert.rejects(store.consume("state-3", 60), /full of unexpired one-time marks/);
  assert.equal(await store.consume("state-1", 60), false);
  assert.equal(await store.consume("state-2", 60), false);
});

Deno.test("memory: a store full of one-time marks refuses new sessions instead of evicting", async () => {
  const store = memoryStore({ maxEntries: 1 });
  await store.consume("state-1", 60);
  await assert.rejects(store.saveSession(session("a", "user-1")), /full/);
  await assert.rejects(store.hit("user-1", 60), /full/);
  assert.equal(await store.getSession("a"), null);
  assert.equal(await store.consume("state-1", 60), false);
});

Deno.test("memory: sessions are evicted to make room for a one-time mark", async () => {
  const store = memoryStore({ maxEntries: 2 });
  await store.consume("state-1", 60);
  await store.saveSession(session("a", "user-1"));
  assert.equal(await store.consume("state-2", 60), true);
  assert.equal(await store.getSession("a"), null);
  assert.equal(await store.consume("state-1", 60), false);
});

Deno.test("memory: expired entries free their room before anything live is evicted", async () => {
  const store = memoryStore({ maxEntries: 3 });
  await store.consume("state-1", 0.2);
  await store.hit("user-1", 0.2);
  await store.saveSession(session("short", "user-1", 0.2));
  await sleep(1_100);
  await store.saveSession(session("a", "user-2"));
  await store.consume("state-2", 60);
  await store.hit("user-2", 60);
  // All three expired entries were swept; the three live ones all fit.
  assert.equal((await store.getSession("a"))?.id, "a");
  assert.equal(await store.consume("state-2", 60), false);
  assert.equal((await store.hit("user-2", 60)).count, 2);
});

Deno.test("memory: maxEntries must be a whole number above 0", () => {
  for (const maxEntries of [0, -1, 1.5, NaN, Infinity]) {
    assert.throws(() => memoryStore({ maxEntries }), TypeError, String(maxEntries));
  }
});

Deno.test("memory: a returned session is a copy that cannot change the stored one", async () => {
  const store = memoryStore();
  const saved = session("a", "user-1");
  await store.saveSession(saved);
  saved.sub = "changed";
  const read = await store.getSession("a");
  read!.expiresAt = 0;
  (await store.listSessions("user-1"))[0].userAgent = "changed";
  assert.deepEqual(await store.getSession("a"), { ...saved, sub: "user-1" });
});

Deno.test("memory: two stores share nothing", async () => {
  const one = memoryStore();
  const two = memoryStore();
  await one.saveSession(session("a", "user-1"));
  assert.equal(await two.getSession("a"), null);
  assert.equal(await one.consume("state-1", 60), true);
  assert.equal(await two.consume("state-1", 60), true);
});
