/**
 * The behaviour every `SessionStore` promises, as one suite that each
 * adapter's test file runs against its real backend.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { PasskeyStore, SessionStore, StoredPasskey, StoredSession } from "../../mod.ts";

/** Kinds of entries a harness can plant raw values under. */
export type PlantKind = "session" | "listed" | "once" | "hits";

/** One backend for one test: stores over it, and raw access for corruption tests. */
export interface StoreHarness {
  /** A store over this backend; stores with the same prefix share everything. */
  store(prefix?: string): SessionStore & PasskeyStore;
  /**
   * A store over the same backend through a second, separate connection
   * (another app instance); absent when the backend lives in one object.
   */
  otherInstance?(prefix?: string): Promise<SessionStore & PasskeyStore>;
  /**
   * Writes `value` as the store's default prefix would for `kind` and `key`,
   * bypassing the store: `session` under a session id, `listed` as a session
   * of user `sub` under id `key`, `once` and `hits` under a key.
   */
  plant?(kind: PlantKind, key: string, value: unknown, sub?: string): Promise<void>;
  /** Closes connections and stops servers. */
  close(): Promise<void>;
}

/** How to run the suite for one adapter. */
export interface ContractOptions {
  /** Opens a fresh, empty backend. */
  open(): Promise<StoreHarness>;
  /** Ignores every test (e.g. the server is not installed). */
  ignore?: boolean;
  /** Whether {@linkcode StoreHarness.otherInstance} exists (multi-instance tests). */
  shared: boolean;
  /** Backend values the store did not write; omit when the backend cannot hold any. */
  garbage?: {
    /** Backend-specific bad sessions beyond the shared ones (e.g. text that is not JSON). */
    session: unknown[];
    /** Raw one-time mark values that `consume` must refuse to read as absent. */
    once: unknown[];
    /** Raw counter values that `hit` must refuse. */
    hits: unknown[];
  };
}

// The store's own words for a value it did not write, or Redis refusing to count one.
const CORRUPT = /did not write|not an integer/;

/** Sleeps `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** A session of `sub` expiring `seconds` from now. */
export function session(id: string, sub: string, seconds = 3600): StoredSession {
  const now = Date.now() / 1000;
  return { id, sub, createdAt: Math.floor(now), expiresAt: now + seconds, userAgent: "Test/1.0" };
}

/** A passkey of `sub` as the passkey routes store it. */
export function passkey(
  id: string,
  sub: string,
  extra: Partial<StoredPasskey> = {},
): StoredPasskey {
  return {
    id,
    sub,
    publicKey: "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE",
    algorithm: -8,
    counter: 0,
    transports: ["internal", "hybrid"],
    aaguid: "00000000-0000-0000-0000-000000000000",
    backedUp: false,
    deviceType: "singleDevice",
    name: "Laptop",
    createdAt: 1_764_000_000,
    ...extra,
  };
}

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Registers the contract tests for one adapter, each named `<label>: <behaviour>`.
 *
 * @example
 * ```ts ignore
 * storeContract("memory", { shared: false, open: () => Promise.resolve(memoryHarness()) });
 * ```
 */
export function storeContract(label: string, options: ContractOptions): void {
  function test(name: string, fn: (harness: StoreHarness) => Promise<void>, only = true): void {
    if (!only) return;
    Deno.test({
      name: `${label}: ${name}`,
      ignore: options.ignore,
      fn: async () => {
        const harness = await options.open();
        try {
          await fn(harness);
        } finally {
          await harness.close();
        }
      },
    });
  }

  // --- sessions ---------------------------------------------------------

  test("getSession returns the session saveSession saved", async (h) => {
    const store = h.store();
    const saved = session("s1", "user-1");
    await store.saveSession(saved);
    assert.deepEqual(await store.getSession("s1"), saved);
  });

  test("getSession returns null for an id never saved", async (h) => {
    const store = h.store();
    await store.saveSession(session("s1", "user-1"));
    assert.equal(await store.getSession("s2"), null);
    assert.equal(await store.getSession("s"), null);
  });

  test("saveSession replaces the session with the same id", async (h) => {
    const store = h.store();
    await store.saveSession(session("s1", "user-1", 60));
    const replaced = { ...session("s1", "user-1", 7200), userAgent: "Other/2.0" };
    await store.saveSession(replaced);
    assert.deepEqual(await store.getSession("s1"), replaced);
    assert.deepEqual(await store.listSessions("user-1"), [replaced]);
  });

  test("saveSession keeps a session without a userAgent without one", async (h) => {
    const store = h.store();
    const { userAgent: _, ...bare } = session("s1", "user-1");
    await store.saveSession(bare);
    assert.deepEqual(await store.getSession("s1"), bare);
  });

  test("saveSession cuts a userAgent to 256 characters", async (h) => {
    const store = h.store();
    await store.saveSession({ ...session("s1", "user-1"), userAgent: "A".repeat(300) });
    assert.equal((await store.getSession("s1"))?.userAgent, "A".repeat(256));
  });

  test("a session is neither returned nor listed once its expiresAt has passed", async (h) => {
    const store = h.store();
    const short = session("short", "user-1", 1);
    await store.saveSession(short);
    await store.saveSession(session("long", "user-1"));
    assert.deepEqual(await store.getSession("short"), short);
    await sleep(short.expiresAt * 1000 - Date.now() + 150);
    assert.equal(await store.getSession("short"), null);
    assert.deepEqual((await store.listSessions("user-1")).map((s) => s.id), ["long"]);
  });

  test("saveSession with an expiresAt already past removes the session", async (h) => {
    const store = h.store();
    await store.saveSession(session("s1", "user-1"));
    await store.saveSession(session("s1", "user-1", -10));
    assert.equal(await store.getSession("s1"), null);
    assert.deepEqual(await store.listSessions("user-1"), []);
  });

  test("listSessions returns every active session of the user and no one else's", async (h) => {
    const store = h.store();
    const mine = [session("a", "user-1"), session("b", "user-1"), session("c", "user-1")];
    for (const s of mine) await store.saveSession(s);
    await store.saveSession(session("d", "user-2"));
    assert.deepEqual((await store.listSessions("user-1")).sort(byId), mine);
  });

  test("listSessions does not mix users whose names start alike", async (h) => {
    const store = h.store();
    await store.saveSession(session("a", "user"));
    await store.saveSession(session("b", "user-1"));
    await store.saveSession(session("c", "use"));
    assert.deepEqual((await store.listSessions("user")).map((s) => s.id), ["a"]);
  });

  test("listSessions returns an empty list for a user without sessions", async (h) => {
    assert.deepEqual(await h.store().listSessions("nobody"), []);
  });

  test("deleteSession revokes one session and resolves true", async (h) => {
    const store = h.store();
    await store.saveSession(session("s1", "user-1"));
    await store.saveSession(session("s2", "user-1"));
    assert.equal(await store.deleteSession("s1"), true);
    assert.equal(await store.getSession("s1"), null);
    assert.equal((await store.getSession("s2"))?.id, "s2");
    assert.deepEqual((await store.listSessions("user-1")).map((s) => s.id), ["s2"]);
  });

  test("deleteSession resolves false for an unknown or already deleted id", async (h) => {
    const store = h.store();
    assert.equal(await store.deleteSession("never"), false);
    await store.saveSession(session("s1", "user-1"));
    await store.deleteSession("s1");
    assert.equal(await store.deleteSession("s1"), false);
  });

  test("deleteSessions revokes every session of the user and resolves how many", async (h) => {
    const store = h.store();
    for (const id of ["a", "b", "c"]) await store.saveSession(session(id, "user-1"));
    await store.saveSession(session("d", "user-2"));
    assert.equal(await store.deleteSessions("user-1"), 3);
    for (const id of ["a", "b", "c"]) assert.equal(await store.getSession(id), null);
    assert.deepEqual(await store.listSessions("user-1"), []);
    assert.equal((await store.getSession("d"))?.sub, "user-2");
  });

  test("deleteSessions resolves 0 for a user without sessions", async (h) => {
    assert.equal(await h.store().deleteSessions("nobody"), 0);
  });

  test("a session saved again under another user moves to that user's list", async (h) => {
    const store = h.store();
    await store.saveSession(session("s1", "user-1"));
    await store.saveSession(session("s1", "user-2"));
    assert.deepEqual(await store.listSessions("user-1"), []);
    assert.deepEqual((await store.listSessions("user-2")).map((s) => s.id), ["s1"]);
    assert.equal(await store.deleteSessions("user-1"), 0);
    assert.equal((await store.getSession("s1"))?.sub, "user-2");
  });

  test("invalid arguments reject with a TypeError", async (h) => {
    const store = h.store();
    const bad: [string, () => Promise<unknown>][] = [
      ["empty id", () => store.getSession("")],
      ["long id", () => store.getSession("x".repeat(257))],
      ["number id", () => store.getSession(1 as unknown as string)],
      ["session without sub", () => store.saveSession({ ...session("s1", ""), sub: "" })],
      ["NaN expiresAt", () => store.saveSession({ ...session("s1", "u"), expiresAt: NaN })],
      [
        "number userAgent",
        () => store.saveSession({ ...session("s1", "u"), userAgent: 5 as unknown as string }),
      ],
      ["empty sub", () => store.listSessions("")],
      ["zero ttl", () => store.consume("k", 0)],
      ["negative ttl", () => store.consume("k", -1)],
      ["Infinity window", () => store.hit("k", Infinity)],
      ["empty key", () => store.hit("", 60)],
    ];
    for (const [what, call] of bad) await assert.rejects(call(), TypeError, what);
    assert.equal(await store.getSession("s1"), null);
  });

  // --- consume ----------------------------------------------------------

  test("consume is true the first time and false every time after", async (h) => {
    const store = h.store();
    assert.equal(await store.consume("state-1", 60), true);
    assert.equal(await store.consume("state-1", 60), false);
    assert.equal(await store.consume("state-1", 60), false);
  });

  test("concurrent consume calls for one key resolve true exactly once", async (h) => {
    const store = h.store();
    const results = await Promise.all(
      Array.from({ length: 25 }, () => store.consume("state-1", 60)),
    );
    assert.equal(results.filter((first) => first).length, 1);
  });

  test("consume is true again once its ttl has passed", async (h) => {
    const store = h.store();
    assert.equal(await store.consume("state-1", 1), true);
    assert.equal(await store.consume("state-1", 1), false);
    await sleep(1_150);
    assert.equal(await store.consume("state-1", 1), true);
  });

  test("consume keys are independent", async (h) => {
    const store = h.store();
    assert.equal(await store.consume("state-1", 60), true);
    assert.equal(await store.consume("state-2", 60), true);
    assert.equal(await store.consume("state-", 60), true);
  });

  test("two instances racing to consume one key: exactly one wins", async (h) => {
    const one = h.store();
    const two = await h.otherInstance!();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).consume("state-1", 60)),
    );
    assert.equal(results.filter((first) => first).length, 1);
    assert.equal(await two.consume("state-1", 60), false);
  }, options.shared);

  // --- hit --------------------------------------------------------------

  test("hit counts each hit in a window and says when the window ends", async (h) => {
    const store = h.store();
    const counted = [];
    for (let i = 0; i < 3; i++) counted.push(await store.hit("user-1", 900));
    assert.deepEqual(counted.map((c) => c.count), [1, 2, 3]);
    for (const { resetIn } of counted) assert.ok(resetIn >= 899 && resetIn <= 900, `${resetIn}`);
  });

  test("concurrent hits are each counted exactly once", async (h) => {
    const store = h.store();
    const counted = await Promise.all(Array.from({ length: 25 }, () => store.hit("user-1", 60)));
    const counts = counted.map((c) => c.count).sort((a, b) => a - b);
    assert.deepEqual(counts, Array.from({ length: 25 }, (_, i) => i + 1));
    assert.equal((await store.hit("user-1", 60)).count, 26);
  });

  test("hits from two instances are counted together", async (h) => {
    const one = h.store();
    const two = await h.otherInstance!();
    const counted = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).hit("user-1", 60)),
    );
    const counts = counted.map((c) => c.count).sort((a, b) => a - b);
    assert.deepEqual(counts, Array.from({ length: 20 }, (_, i) => i + 1));
  }, options.shared);

  test("a hit window is fixed at the first hit, then the count starts over", async (h) => {
    const store = h.store();
    const started = Date.now();
    assert.equal((await store.hit("user-1", 1)).count, 1);
    await sleep(500);
    const second = await store.hit("user-1", 1);
    assert.deepEqual(second, { count: 2, resetIn: 1 });
    await sleep(started + 1_150 - Date.now());
    assert.equal((await store.hit("user-1", 1)).count, 1);
  });

  test("hits reads the count without counting, and null without one", async (h) => {
    const store = h.store();
    assert.equal(await store.hits("user-1"), null);
    await store.hit("user-1", 900);
    await store.hit("user-1", 900);
    const read = await store.hits("user-1");
    assert.equal(read?.count, 2);
    assert.ok(read!.resetIn >= 899 && read!.resetIn <= 900);
    assert.equal((await store.hits("user-1"))?.count, 2);
    await store.resetHits("user-1");
    assert.equal(await store.hits("user-1"), null);
  });

  test("hits is null once the window ended", async (h) => {
    const store = h.store();
    await store.hit("user-1", 1);
    await sleep(1_150);
    assert.equal(await store.hits("user-1"), null);
  });

  test("resetHits starts a new window", async (h) => {
    const store = h.store();
    await store.hit("user-1", 60);
    await store.hit("user-1", 60);
    await store.resetHits("user-1");
    assert.equal((await store.hit("user-1", 60)).count, 1);
  });

  test("hit counters for different keys are independent", async (h) => {
    const store = h.store();
    await store.hit("user-1", 60);
    await store.hit("user-1", 60);
    assert.equal((await store.hit("user-2", 60)).count, 1);
    await store.resetHits("user-2");
    assert.equal((await store.hit("user-1", 60)).count, 3);
  });

  passkeyContract(label, { open: options.open, ignore: options.ignore, shared: options.shared });

  // --- isolation --------------------------------------------------------

  test("stores under different prefixes share nothing", async (h) => {
    const one = h.store("app-one:");
    const two = h.store("app-two:");
    await one.saveSession(session("s1", "user-1"));
    assert.equal(await two.getSession("s1"), null);
    assert.deepEqual(await two.listSessions("user-1"), []);
    assert.equal(await two.deleteSessions("user-1"), 0);
    assert.equal(await two.deleteSession("s1"), false);
    assert.equal((await one.getSession("s1"))?.id, "s1");
    assert.equal(await one.consume("state-1", 60), true);
    assert.equal(await two.consume("state-1", 60), true);
    await one.hit("user-1", 60);
    assert.equal((await two.hit("user-1", 60)).count, 1);
  }, options.shared);

  // --- values the store did not write -------------------------------------

  const garbage = options.garbage;
  if (garbage === undefined) return;

  test("getSession rejects a session entry the store did not write", async (h) => {
    const store = h.store();
    const values = [...badSessions("s1", "user-1"), ...garbage.session];
    for (const value of values) {
      await h.plant!("session", "s1", value);
      await assert.rejects(store.getSession("s1"), CORRUPT, JSON.stringify(value));
    }
  });

  test("listSessions rejects a listed session the store did not write", async (h) => {
    const store = h.store();
    // Each bad value names the user whose list it is planted in, so only its own fault counts.
    const valuesFor = (sub: string) => [
      ...badSessions("s1", sub),
      ...garbage.session,
      session("s1", "someone-else"),
    ];
    for (let i = 0; i < valuesFor("").length; i++) {
      const value = valuesFor(`user-${i}`)[i];
      await h.plant!("listed", "s1", value, `user-${i}`);
      await assert.rejects(store.listSessions(`user-${i}`), CORRUPT, JSON.stringify(value));
    }
  });

  test("consume rejects a one-time mark the store did not write", async (h) => {
    const store = h.store();
    for (const [i, value] of garbage.once.entries()) {
      await h.plant!("once", `k${i}`, value);
      await assert.rejects(store.consume(`k${i}`, 60), CORRUPT, JSON.stringify(value));
    }
  }, garbage.once.length > 0);

  test("hit rejects a counter the store did not write", async (h) => {
    const store = h.store();
    for (const [i, value] of garbage.hits.entries()) {
      await h.plant!("hits", `k${i}`, value);
      await assert.rejects(store.hit(`k${i}`, 60), CORRUPT, JSON.stringify(value));
    }
  });
}

/** Values that are not the session `id` of `sub` as a store writes it. */
function badSessions(id: string, sub: string): unknown[] {
  const good = session(id, sub);
  const { sub: _, ...withoutSub } = good;
  return [
    null,
    5,
    "text",
    [],
    {},
    withoutSub,
    { ...good, id: 5 },
    { ...good, id: "other" },
    { ...good, sub: 7 },
    { ...good, sub: "" },
    { ...good, createdAt: "yesterday" },
    { ...good, expiresAt: null },
    { ...good, userAgent: 42 },
    { ...good, userAgent: "A".repeat(257) },
  ];
}

/** One backend for the passkey suite: stores over it (`prefix` as for {@linkcode StoreHarness}). */
export interface PasskeyHarness {
  store(prefix?: string): PasskeyStore;
  otherInstance?(prefix?: string): Promise<PasskeyStore>;
  close(): Promise<void>;
}

/** How to run the passkey suite for one `PasskeyStore`. */
export interface PasskeyContractOptions {
  open(): Promise<PasskeyHarness>;
  ignore?: boolean;
  /** Whether `otherInstance` exists and prefixes separate stores. */
  shared: boolean;
  /** `false` for an app's own store, which need not check its input (the routes do). */
  validates?: boolean;
}

/**
 * Registers the passkey tests for one `PasskeyStore` (the built-in stores
 * through {@linkcode storeContract}, an app's own SQL store directly), each
 * named `<label>: <behaviour>`.
 */
export function passkeyContract(label: string, options: PasskeyContractOptions): void {
  function test(name: string, fn: (harness: PasskeyHarness) => Promise<void>, only = true): void {
    if (!only) return;
    Deno.test({
      name: `${label}: ${name}`,
      ignore: options.ignore,
      fn: async () => {
        const harness = await options.open();
        try {
          await fn(harness);
        } finally {
          await harness.close();
        }
      },
    });
  }

  test("getPasskey and listPasskeys return the passkey savePasskey saved", async (h) => {
    const store = h.store();
    const saved = passkey("cred-1", "user-1");
    assert.equal(await store.savePasskey(saved), true);
    assert.deepEqual(await store.getPasskey("cred-1"), saved);
    assert.deepEqual(await store.listPasskeys("user-1"), [saved]);
    assert.equal(await store.getPasskey("cred-2"), null);
    assert.deepEqual(await store.listPasskeys("user-2"), []);
  });

  test("a user's passkeys are listed, nobody else's", async (h) => {
    const store = h.store();
    const mine = [passkey("a1", "user-1"), passkey("a2", "user-1", { algorithm: -7 })];
    for (const p of [...mine, passkey("b1", "user-2")]) await store.savePasskey(p);
    assert.deepEqual((await store.listPasskeys("user-1")).sort(byId), mine);
    assert.deepEqual((await store.listPasskeys("user-2")).map((p) => p.id), ["b1"]);
  });

  test("savePasskey refuses an id registered before, by anyone, and changes nothing", async (h) => {
    const store = h.store();
    const first = passkey("cred-1", "user-1");
    await store.savePasskey(first);
    assert.equal(await store.savePasskey(passkey("cred-1", "user-2", { name: "Thief" })), false);
    assert.equal(await store.savePasskey(passkey("cred-1", "user-1", { name: "Again" })), false);
    assert.deepEqual(await store.getPasskey("cred-1"), first);
    assert.deepEqual(await store.listPasskeys("user-2"), []);
    assert.deepEqual(await store.listPasskeys("user-1"), [first]);
  });

  test("savePasskey racing on one id saves exactly one", async (h) => {
    const store = h.store();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.savePasskey(passkey("cred-1", `user-${i}`))),
    );
    assert.equal(results.filter(Boolean).length, 1);
    const owner = (await store.getPasskey("cred-1"))!.sub;
    for (let i = 0; i < 8; i++) {
      const listed = await store.listPasskeys(`user-${i}`);
      assert.equal(listed.length, `user-${i}` === owner ? 1 : 0);
    }
  });

  test("updatePasskey records the counter, the last use and the backed-up state; other fields stay", async (h) => {
    const store = h.store();
    const saved = passkey("cred-1", "user-1", { counter: 5, deviceType: "multiDevice" });
    await store.savePasskey(saved);
    const update = { counter: 6, lastUsedAt: 1_764_000_100, backedUp: true, previousCounter: 5 };
    assert.equal(await store.updatePasskey("cred-1", update), true);
    const expected = { ...saved, counter: 6, lastUsedAt: 1_764_000_100, backedUp: true };
    assert.deepEqual(await store.getPasskey("cred-1"), expected);
    assert.deepEqual(await store.listPasskeys("user-1"), [expected]);
    // The BS flag can go back to false too.
    const next = { counter: 7, lastUsedAt: 1_764_000_200, backedUp: false, previousCounter: 6 };
    assert.equal(await store.updatePasskey("cred-1", next), true);
    assert.deepEqual(await store.getPasskey("cred-1"), {
      ...saved,
      counter: 7,
      lastUsedAt: 1_764_000_200,
    });
    // An unknown id creates nothing.
    assert.equal(await store.updatePasskey("cred-2", { ...update, previousCounter: 0 }), false);
    assert.equal(await store.getPasskey("cred-2"), null);
  });

  test("updatePasskey saves only over the counter it read (compare-and-set)", async (h) => {
    const store = h.store();
    const saved = passkey("cred-1", "user-1", { counter: 5 });
    await store.savePasskey(saved);
    for (const previousCounter of [0, 4, 6, 50]) {
      const stale = { counter: 60, lastUsedAt: 1_764_000_100, backedUp: true, previousCounter };
      assert.equal(
        await store.updatePasskey("cred-1", stale),
        false,
        `previous ${previousCounter}`,
      );
    }
    assert.deepEqual(await store.getPasskey("cred-1"), saved);
    assert.deepEqual(await store.listPasskeys("user-1"), [saved]);
    // Counter-less authenticators (0 stays 0) still record each sign-in.
    await store.savePasskey(passkey("cred-0", "user-1"));
    for (const lastUsedAt of [1_764_000_100, 1_764_000_200]) {
      const zero = { counter: 0, lastUsedAt, backedUp: false, previousCounter: 0 };
      assert.equal(await store.updatePasskey("cred-0", zero), true);
      assert.equal((await store.getPasskey("cred-0"))?.lastUsedAt, lastUsedAt);
    }
  });

  test("updatePasskey racing from one counter saves exactly one", async (h) => {
    const store = h.store();
    await store.savePasskey(passkey("cred-1", "user-1", { counter: 5 }));
    for (const racers of [2, 10]) {
      const before = (await store.getPasskey("cred-1"))!.counter;
      const results = await Promise.all(
        Array.from({ length: racers }, (_, i) =>
          store.updatePasskey("cred-1", {
            counter: before + 1 + i,
            lastUsedAt: 1_764_000_100 + i,
            backedUp: i % 2 === 0,
            previousCounter: before,
          })),
      );
      assert.equal(results.filter((saved) => saved === true).length, 1, `${racers} racers`);
      assert.equal(results.filter((saved) => saved === false).length, racers - 1);
      const winner = results.indexOf(true);
      const after = (await store.getPasskey("cred-1"))!;
      assert.equal(after.counter, before + 1 + winner);
      assert.equal(after.lastUsedAt, 1_764_000_100 + winner);
      assert.equal(after.backedUp, winner % 2 === 0);
      assert.deepEqual(await store.listPasskeys("user-1"), [after]);
    }
  });

  test("deletePasskey removes it from get and list; true only the first time", async (h) => {
    const store = h.store();
    await store.savePasskey(passkey("cred-1", "user-1"));
    await store.savePasskey(passkey("cred-2", "user-1"));
    assert.equal(await store.deletePasskey("cred-1"), true);
    assert.equal(await store.deletePasskey("cred-1"), false);
    assert.equal(await store.deletePasskey("never"), false);
    assert.equal(await store.getPasskey("cred-1"), null);
    assert.deepEqual((await store.listPasskeys("user-1")).map((p) => p.id), ["cred-2"]);
    // The id is free again once deleted.
    assert.equal(await store.savePasskey(passkey("cred-1", "user-2")), true);
    assert.equal((await store.getPasskey("cred-1"))?.sub, "user-2");
  });

  test("a credential id of 1,023 bytes (1,364 characters) and a sub of 256 work", async (h) => {
    const store = h.store();
    const id = "A".repeat(1364);
    const sub = "u".repeat(256);
    const saved = passkey(id, sub, { lastUsedAt: 1_764_000_000.5, name: "Ünïcödé ключ 🔑" });
    assert.equal(await store.savePasskey(saved), true);
    assert.deepEqual(await store.getPasskey(id), saved);
    assert.deepEqual(await store.listPasskeys(sub), [saved]);
    assert.equal(await store.deletePasskey(id), true);
  });

  test("passkey methods refuse bad input with a TypeError and write nothing", async (h) => {
    const store = h.store();
    const good = passkey("cred-1", "user-1");
    const bad: unknown[] = [
      null,
      { ...good, id: "" },
      { ...good, id: "has space" },
      { ...good, id: "A".repeat(1365) },
      { ...good, sub: "" },
      { ...good, algorithm: -9 },
      { ...good, counter: -1 },
      { ...good, counter: 1.5 },
      { ...good, publicKey: "not base64url!" },
      { ...good, transports: "usb" },
      { ...good, aaguid: "nope" },
      { ...good, deviceType: "phone" },
      { ...good, name: "x".repeat(101) },
      { ...good, createdAt: "now" },
    ];
    for (const value of bad) {
      await assert.rejects(
        store.savePasskey(value as StoredPasskey),
        TypeError,
        JSON.stringify(value),
      );
    }
    await assert.rejects(store.getPasskey("a:b"), TypeError);
    await assert.rejects(store.deletePasskey(""), TypeError);
    await assert.rejects(store.listPasskeys(""), TypeError);
    const update = { counter: 1, lastUsedAt: 1, backedUp: false, previousCounter: 0 };
    for (
      const value of [
        { ...update, counter: -1 },
        { ...update, previousCounter: -1 },
        { ...update, previousCounter: undefined },
        { ...update, backedUp: "yes" },
        { counter: 1, lastUsedAt: 1 },
      ]
    ) {
      await assert.rejects(
        store.updatePasskey("cred-1", value as typeof update),
        TypeError,
        JSON.stringify(value),
      );
    }
    assert.deepEqual(await store.listPasskeys("user-1"), []);
  }, options.validates !== false);

  test("passkeys saved by one instance are read, updated and deleted by another", async (h) => {
    const one = h.store();
    const two = await h.otherInstance!();
    await one.savePasskey(passkey("cred-1", "user-1"));
    assert.equal((await two.getPasskey("cred-1"))?.sub, "user-1");
    assert.equal(await two.savePasskey(passkey("cred-1", "user-2")), false);
    const update = { counter: 3, lastUsedAt: 1_764_000_100, backedUp: false, previousCounter: 0 };
    assert.equal(await two.updatePasskey("cred-1", update), true);
    assert.equal((await one.getPasskey("cred-1"))?.counter, 3);
    // The compare-and-set holds across instances: racing from counter 3, one of each saves.
    const results = await Promise.all(
      [one, two, one, two].map((store, i) =>
        store.updatePasskey("cred-1", { ...update, counter: 4 + i, previousCounter: 3 })
      ),
    );
    assert.equal(results.filter(Boolean).length, 1);
    assert.equal((await two.getPasskey("cred-1"))?.counter, 4 + results.indexOf(true));
    assert.equal(await two.deletePasskey("cred-1"), true);
    assert.deepEqual(await one.listPasskeys("user-1"), []);
  }, options.shared);

  test("passkeys under different prefixes share nothing", async (h) => {
    const one = h.store("app-one:");
    const two = h.store("app-two:");
    await one.savePasskey(passkey("cred-1", "user-1"));
    assert.equal(await two.getPasskey("cred-1"), null);
    assert.deepEqual(await two.listPasskeys("user-1"), []);
    assert.equal(await two.savePasskey(passkey("cred-1", "user-1")), true);
    assert.equal(await two.deletePasskey("cred-1"), true);
    assert.ok(await one.getPasskey("cred-1"));
  }, options.shared);
}
