// memoryStore: the shared contract, plus its memory bound and what it evicts.
import { assertMarksSurviveFlood, manualClock } from "./_flood.ts";
import assert from "node:assert/strict";
import { memoryStore } from "../../mod.ts";
import { prng } from "../_prng.ts";
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

/** A session of `sub` on a manual clock, expiring `seconds` after its now. */
function sessionAt(nowMs: number, id: string, sub: string, seconds = 3600) {
  return { id, sub, createdAt: Math.floor(nowMs / 1000), expiresAt: nowMs / 1000 + seconds };
}

// Sessions

Deno.test("memory: a user over maxSessionsPerUser loses their own oldest session, nobody else's", async () => {
  const store = memoryStore({ maxSessionsPerUser: 3 });
  await store.saveSession(session("other", "user-2"));
  for (const id of ["a", "b", "c", "d"]) await store.saveSession(session(id, "user-1"));
  assert.equal(await store.getSession("a"), null);
  assert.deepEqual((await store.listSessions("user-1")).map((s) => s.id).sort(), ["b", "c", "d"]);
  assert.equal((await store.getSession("other"))?.id, "other");
});

Deno.test("memory: at maxSessions the session saved longest ago is ended", async () => {
  const store = memoryStore({ maxSessions: 3 });
  for (const [id, sub] of [["a", "u1"], ["b", "u2"], ["c", "u3"], ["d", "u4"]]) {
    await store.saveSession(session(id, sub));
  }
  assert.equal(await store.getSession("a"), null);
  assert.deepEqual(await store.listSessions("u1"), []);
  for (const id of ["b", "c", "d"]) assert.equal((await store.getSession(id))?.id, id);
});

Deno.test("memory: saving a session again makes it the newest", async () => {
  const store = memoryStore({ maxSessions: 3 });
  for (const id of ["a", "b", "c"]) await store.saveSession(session(id, "user-1"));
  await store.saveSession(session("a", "user-1"));
  await store.saveSession(session("d", "user-1"));
  assert.equal(await store.getSession("b"), null);
  assert.equal((await store.getSession("a"))?.id, "a");
});

Deno.test("memory: expired sessions free their room before a live one is ended", async () => {
  const clock = manualClock();
  const store = memoryStore({ maxSessions: 2, maxSessionsPerUser: 2, clock: clock.fn });
  await store.saveSession(sessionAt(clock.now, "short", "user-1", 10));
  await store.saveSession(sessionAt(clock.now, "long", "user-1"));
  clock.now += 11_000;
  await store.saveSession(sessionAt(clock.now, "new", "user-1"));
  assert.equal((await store.getSession("long"))?.id, "long");
  assert.equal((await store.getSession("new"))?.id, "new");
});

// Hit counters

Deno.test("memory: a flood of counters past the default bound signs nobody out and unlocks no username", async () => {
  const store = memoryStore();
  await store.saveSession(session("live", "user-1"));
  for (let i = 0; i < 6; i++) await store.hit("locked", 900);
  for (let i = 0; i < 100_100; i++) await store.hit(`flood-${i}`, 900);
  assert.equal((await store.getSession("live"))?.id, "live");
  assert.equal((await store.hits("locked"))?.count, 6);
  assert.equal((await store.hit("locked", 900)).count, 7);
});

Deno.test("memory: a full set of counters drops the fewest hits first, the oldest among equals", async () => {
  const store = memoryStore({ maxCounters: 3 });
  await store.hit("one-old", 60);
  await store.hit("two", 60);
  await store.hit("two", 60);
  await store.hit("one-new", 60);
  await store.hit("fourth", 60);
  assert.equal(await store.hits("one-old"), null);
  assert.equal((await store.hits("one-new"))?.count, 1);
  assert.equal((await store.hits("two"))?.count, 2);
  await store.hit("fifth", 60);
  assert.equal(await store.hits("one-new"), null);
  assert.equal((await store.hits("two"))?.count, 2);
  // Reset and expired counters leave no stale order behind.
  await store.resetHits("fourth");
  await store.hit("sixth", 60);
  await store.hit("sixth", 60);
  await store.hit("seventh", 60);
  assert.equal(await store.hits("fifth"), null);
  assert.deepEqual(
    [(await store.hits("two"))?.count, (await store.hits("sixth"))?.count],
    [2, 2],
  );
});

Deno.test("memory: counters and sessions never take each other's room", async () => {
  const store = memoryStore({ maxSessions: 1, maxCounters: 1, maxMarks: 1 });
  await store.saveSession(session("a", "user-1"));
  await store.hit("user-1", 60);
  assert.equal(await store.consume("state-1", 60), true);
  assert.equal((await store.getSession("a"))?.id, "a");
  assert.equal((await store.hits("user-1"))?.count, 1);
  assert.equal(await store.consume("state-1", 60), false);
});

Deno.test("memory: eviction matches a plain model over random saves, hits and resets", async () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const random = prng(seed);
    const pick = (n: number) => Math.floor(random() * n);
    const store = memoryStore({ maxSessions: 6, maxSessionsPerUser: 3, maxCounters: 5 });
    // The model: sessions in save order; counters with the step at which they reached their count.
    let saved: { id: string; sub: string }[] = [];
    const counted = new Map<string, { count: number; step: number }>();
    for (let step = 0; step < 3_000; step++) {
      const op = pick(4);
      if (op === 0) {
        const id = `s${pick(12)}`;
        const sub = `u${pick(4)}`;
        await store.saveSession(session(id, sub));
        saved = saved.filter((entry) => entry.id !== id);
        const own = saved.filter((entry) => entry.sub === sub);
        if (own.length >= 3) saved = saved.filter((entry) => entry !== own[0]);
        if (saved.length >= 6) saved.shift();
        saved.push({ id, sub });
      } else if (op === 1 || op === 2) {
        const key = `k${pick(9)}`;
        await store.hit(key, 600);
        const counter = counted.get(key);
        if (counter !== undefined) {
          counted.set(key, { count: counter.count + 1, step });
        } else {
          if (counted.size >= 5) {
            const [fewest] = [...counted].sort(([, a], [, b]) =>
              a.count - b.count || a.step - b.step
            );
            counted.delete(fewest[0]);
          }
          counted.set(key, { count: 1, step });
        }
      } else {
        const key = `k${pick(9)}`;
        await store.resetHits(key);
        counted.delete(key);
      }
      for (let i = 0; i < 12; i++) {
        const expected = saved.find((entry) => entry.id === `s${i}`)?.sub ?? null;
        const got = (await store.getSession(`s${i}`))?.sub ?? null;
        assert.equal(got, expected, `seed ${seed}, step ${step}: session s${i}`);
      }
      for (let i = 0; i < 9; i++) {
        const got = (await store.hits(`k${i}`))?.count ?? null;
        assert.equal(got, counted.get(`k${i}`)?.count ?? null, `seed ${seed}, step ${step}: k${i}`);
      }
    }
  }
});

// One-time marks

Deno.test("memory: a flood of marks past the default bound never lets a mark be used twice, and new marks keep working", async () => {
  const clock = manualClock();
  await assertMarksSurviveFlood(memoryStore({ clock: clock.fn }), clock);
});

Deno.test("memory: a full set of marks drops the mark that expires soonest", async () => {
  const store = memoryStore({ maxMarks: 2 });
  assert.equal(await store.consume("long", 600), true);
  assert.equal(await store.consume("short", 60), true);
  assert.equal(await store.consume("middle", 300), true);
  // "short" was dropped: values expiring no later than it are refused, later ones accepted.
  assert.equal(await store.consume("short", 60), false);
  assert.equal(await store.consume("other-short", 30), false);
  assert.equal(await store.consume("long", 600), false);
  assert.equal(await store.consume("middle", 300), false);
  assert.equal(await store.consume("longer", 900), true);
});

Deno.test("memory: a new mark that would expire first is refused, not accepted twice", async () => {
  const store = memoryStore({ maxMarks: 2 });
  assert.equal(await store.consume("a", 600), true);
  assert.equal(await store.consume("b", 600), true);
  assert.equal(await store.consume("old", 10), false);
  assert.equal(await store.consume("a", 600), false);
  assert.equal(await store.consume("b", 600), false);
});

Deno.test("memory: once the dropped marks have expired, every value is accepted again", async () => {
  const clock = manualClock();
  const store = memoryStore({ maxMarks: 1, clock: clock.fn });
  assert.equal(await store.consume("a", 60), true);
  assert.equal(await store.consume("b", 120), true);
  assert.equal(await store.consume("c", 30), false);
  clock.now += 61_000;
  assert.equal(await store.consume("c", 30), false); // "b" still holds the one place
  clock.now += 60_000;
  assert.equal(await store.consume("c", 30), true);
});

// Expiry and the clock

Deno.test("memory: expired entries free their room before anything live is evicted", async () => {
  const store = memoryStore({ maxSessions: 1, maxCounters: 1, maxMarks: 1 });
  await store.consume("state-1", 0.2);
  await store.hit("user-1", 0.2);
  await store.saveSession(session("short", "user-1", 0.2));
  await sleep(1_100);
  await store.saveSession(session("a", "user-2"));
  await store.consume("state-2", 60);
  await store.hit("user-2", 60);
  assert.equal((await store.getSession("a"))?.id, "a");
  assert.equal(await store.consume("state-2", 60), false);
  assert.equal((await store.hit("user-2", 60)).count, 2);
});

Deno.test("memory: every expiry follows the clock option, not the real time", async () => {
  const clock = manualClock(Date.now() - 24 * 3600 * 1000);
  const store = memoryStore({ clock: clock.fn });
  await store.saveSession(sessionAt(clock.now, "a", "user-1", 60));
  assert.equal(await store.consume("state", 60), true);
  assert.deepEqual(await store.hit("user-1", 60), { count: 1, resetIn: 60 });
  clock.now += 30_000;
  assert.deepEqual(await store.hits("user-1"), { count: 1, resetIn: 30 });
  assert.equal((await store.getSession("a"))?.id, "a");
  assert.equal(await store.consume("state", 60), false);
  clock.now += 31_000;
  assert.equal(await store.hits("user-1"), null);
  assert.equal(await store.getSession("a"), null);
  assert.equal(await store.consume("state", 60), true);
});

Deno.test("memory: a clock that answers no finite number fails the call", async () => {
  const store = memoryStore({ clock: () => NaN });
  await assert.rejects(store.consume("state", 60), TypeError);
  await assert.rejects(store.hit("user-1", 60), TypeError);
  await assert.rejects(store.getSession("a"), TypeError);
  assert.throws(() => memoryStore({ clock: 5 as unknown as () => number }), TypeError, "clock");
});

// Options

Deno.test("memory: every bound must be a whole number above 0", () => {
  for (
    const name of ["maxEntries", "maxSessions", "maxSessionsPerUser", "maxCounters", "maxMarks"]
  ) {
    for (const value of [0, -1, 1.5, NaN, Infinity]) {
      assert.throws(() => memoryStore({ [name]: value }), TypeError, `${name} must`);
    }
  }
});

Deno.test("memory: the deprecated maxEntries bounds each kind that has no bound of its own", async () => {
  const store = memoryStore({ maxEntries: 2, maxCounters: 3 });
  for (const id of ["a", "b", "c"]) await store.saveSession(session(id, `user-${id}`));
  assert.equal(await store.getSession("a"), null);
  for (const key of ["x", "y", "z"]) await store.hit(key, 60);
  assert.equal((await store.hits("x"))?.count, 1);
  assert.equal(await store.consume("m1", 60), true);
  assert.equal(await store.consume("m2", 120), true);
  assert.equal(await store.consume("m3", 180), true);
  assert.equal(await store.consume("m1", 60), false);
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

Deno.test("memory: a returned passkey is a copy, its transports too, that cannot change the stored one", async () => {
  const store = memoryStore();
  const saved = {
    id: "cred-1",
    sub: "user-1",
    publicKey: "AAAA",
    algorithm: -7,
    counter: 0,
    transports: ["internal"],
    aaguid: "00000000-0000-0000-0000-000000000000",
    backedUp: false,
    deviceType: "singleDevice" as const,
    name: "Laptop",
    createdAt: 1,
  };
  assert.equal(await store.savePasskey(saved), true);
  saved.transports.push("usb");
  const read = await store.getPasskey("cred-1");
  read!.counter = 99;
  read!.transports.push("nfc");
  const [listed] = await store.listPasskeys("user-1");
  listed.name = "changed";
  listed.transports.length = 0;
  assert.deepEqual(await store.getPasskey("cred-1"), { ...saved, transports: ["internal"] });
});

Deno.test("memory: two stores share nothing", async () => {
  const one = memoryStore();
  const two = memoryStore();
  await one.saveSession(session("a", "user-1"));
  assert.equal(await two.getSession("a"), null);
  assert.equal(await one.consume("state-1", 60), true);
  assert.equal(await two.consume("state-1", 60), true);
});
