// denoKvStore over a real Deno KV (`Deno.openKv(":memory:")`, the SQLite
// backend): the shared contract, with two stores over one database as two
// instances (two SQLite handles on one file fail with "database is locked",
// so the races run through one handle), plus entries past their expiry that
// Deno KV has not deleted yet.
import assert from "node:assert/strict";
import { denoKvStore, type KvAtomicLike, type KvKey, type KvLike } from "../../deno_kv.ts";
import type { StoreHarness } from "./_contract.ts";
import { session, storeContract } from "./_contract.ts";
import { checkStore, type StoreKind } from "../../testing.ts";

const PREFIX = ["service-stack"];

/** A `Deno.Kv` as far as these tests use it. */
interface OpenedKv extends KvLike {
  set(key: KvKey, value: unknown): Promise<unknown>;
  close(): void;
}

/**
 * `Deno.openKv`, typed here because the project's type check runs without
 * Deno's unstable types (`deno test --unstable-kv` provides it at run time).
 */
function openKv(path: string): Promise<OpenedKv> {
  return (Deno as unknown as { openKv(path: string): Promise<OpenedKv> }).openKv(path);
}

/** A fresh in-memory database; every store over it is another instance. */
async function openHarness(): Promise<StoreHarness & { kv: OpenedKv }> {
  const kv = await openKv(":memory:");
  // Prefix strings as the Redis suite uses them become one key part here.
  const prefixFor = (prefix?: string) => (prefix === undefined ? PREFIX : [prefix]);
  return {
    kv,
    store: (prefix) => denoKvStore(kv, { prefix: prefixFor(prefix) }),
    otherInstance: (prefix) => Promise.resolve(denoKvStore(kv, { prefix: prefixFor(prefix) })),
    async plant(kind, key, value, sub) {
      const entryKey = kind === "listed"
        ? [...PREFIX, "user", sub!, key]
        : [...PREFIX, kind === "session" ? "session" : kind, key];
      await kv.set(entryKey, value);
    },
    close() {
      kv.close();
      return Promise.resolve();
    },
  };
}

storeContract("deno kv", {
  shared: true,
  open: openHarness,
  garbage: {
    session: [new Uint8Array([1, 2, 3])],
    once: ["soon", null, { expiresAt: 1 }, NaN],
    hits: [
      "3",
      null,
      { count: "3", endsAt: Date.now() + 60_000 },
      { count: 0, endsAt: Date.now() + 60_000 },
      { count: 1.5, endsAt: Date.now() + 60_000 },
      { count: 2 },
    ],
  },
});

Deno.test("deno kv: a session past its expiresAt that KV still holds is no session", async () => {
  const h = await openHarness();
  try {
    const stale = session("s1", "user-1", -5);
    // Written without expireIn, as an entry Deno KV has not deleted yet looks.
    await h.kv.set([...PREFIX, "session", "s1"], stale);
    await h.kv.set([...PREFIX, "user", "user-1", "s1"], stale);
    const store = h.store();
    assert.equal(await store.getSession("s1"), null);
    assert.deepEqual(await store.listSessions("user-1"), []);
    assert.equal(await store.deleteSessions("user-1"), 0);
    assert.equal((await h.kv.get([...PREFIX, "session", "s1"])).versionstamp, null);
  } finally {
    await h.close();
  }
});

Deno.test("deno kv: a one-time mark past its expiry that KV still holds is consumed anew", async () => {
  const h = await openHarness();
  try {
    await h.kv.set([...PREFIX, "once", "state-1"], Date.now() - 1_000);
    const store = h.store();
    assert.equal(await store.consume("state-1", 60), true);
    assert.equal(await store.consume("state-1", 60), false);
  } finally {
    await h.close();
  }
});

Deno.test("deno kv: a counter past its window that KV still holds starts over", async () => {
  const h = await openHarness();
  try {
    await h.kv.set([...PREFIX, "hits", "user-1"], { count: 9, endsAt: Date.now() - 1_000 });
    assert.deepEqual(await h.store().hit("user-1", 60), { count: 1, resetIn: 60 });
  } finally {
    await h.close();
  }
});

Deno.test("deno kv: every entry the store writes expires with what it holds", async () => {
  const kv = await openKv(":memory:");
  try {
    // Deno KV has no way to read an entry's expiry, so the writes are recorded on the way.
    const writes: { key: readonly unknown[]; expireIn?: number }[] = [];
    const recording: KvLike = {
      get: (key) => kv.get(key),
      delete: (key) => kv.delete(key),
      list: (selector) => kv.list(selector),
      atomic() {
        const operation = kv.atomic();
        const wrapped: KvAtomicLike = {
          check: (...checks) => (operation.check(...checks), wrapped),
          delete: (key) => (operation.delete(key), wrapped),
          set(key, value, options) {
            writes.push({ key, expireIn: options?.expireIn });
            operation.set(key, value, options);
            return wrapped;
          },
          commit: () => operation.commit(),
        };
        return wrapped;
      },
    };
    const store = denoKvStore(recording);
    await store.saveSession(session("s1", "user-1", 100));
    await store.consume("state-1", 300);
    await store.hit("user-1", 400);
    await store.hit("user-1", 400);
    const expected: [string, number][] = [
      ["session", 100_000],
      ["user", 100_000],
      ["once", 300_000],
      ["hits", 400_000],
      ["hits", 400_000],
    ];
    assert.deepEqual(writes.map((w) => w.key[1]), expected.map(([kind]) => kind));
    for (const [i, [kind, ms]] of expected.entries()) {
      const expireIn = writes[i].expireIn ?? 0;
      assert.ok(expireIn > ms - 2_000 && expireIn <= ms, `${kind}: expireIn ${expireIn}`);
    }
  } finally {
    kv.close();
  }
});

Deno.test("deno kv: a database file works as a store across reopening", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deno_kv_store_" });
  try {
    const first = await openKv(`${dir}/kv.sqlite3`);
    await denoKvStore(first).saveSession(session("s1", "user-1"));
    await denoKvStore(first).consume("state-1", 60);
    first.close();
    const second = await openKv(`${dir}/kv.sqlite3`);
    const store = denoKvStore(second);
    assert.equal((await store.getSession("s1"))?.sub, "user-1");
    assert.equal(await store.consume("state-1", 60), false);
    second.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno kv: writes give up after maxAttempts conflicts and reject", async () => {
  const kv = await openKv(":memory:");
  try {
    // A database whose every commit loses a race.
    const losing: KvLike = {
      get: (key) => kv.get(key),
      delete: (key) => kv.delete(key),
      list: (selector) => kv.list(selector),
      atomic() {
        const operation = kv.atomic();
        const wrapped = {
          check: () => wrapped,
          set: () => wrapped,
          delete: () => wrapped,
          commit: () => Promise.resolve({ ok: false }),
        };
        void operation;
        return wrapped;
      },
    };
    const store = denoKvStore(losing, { maxAttempts: 3 });
    await assert.rejects(store.hit("user-1", 60), /conflict 3 times/);
    await assert.rejects(store.consume("state-1", 60), /conflict 3 times/);
  } finally {
    kv.close();
  }
});

Deno.test("deno kv: Deno.Kv type-checks as the store's KvLike", async () => {
  // Deno's unstable types apply only to the entry file that asks for them, so this runs alone.
  const dir = await Deno.makeTempDir({ prefix: "deno_kv_types_" });
  try {
    const entry = `${dir}/fits.ts`;
    const module = new URL("../../deno_kv.ts", import.meta.url).href;
    await Deno.writeTextFile(
      entry,
      `/// <reference lib="deno.unstable" />\n` +
        `import { denoKvStore, type KvLike } from "${module}";\n` +
        `const kv: Deno.Kv = await Deno.openKv(":memory:");\n` +
        `const structural: KvLike = kv;\n` +
        `denoKvStore(kv);\n` +
        `export { structural };\n`,
    );
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", entry],
      cwd: dir,
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.ok(success, new TextDecoder().decode(stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno kv: denoKvStore refuses what is not a database and a bad prefix", () => {
  assert.throws(() => denoKvStore({} as KvLike), TypeError);
  assert.throws(() => denoKvStore(null as unknown as KvLike), TypeError);
  const kv = { get() {}, list() {}, atomic() {}, delete() {} } as unknown as KvLike;
  assert.throws(() => denoKvStore(kv, { prefix: "app" as unknown as string[] }), TypeError);
  assert.throws(() => denoKvStore(kv, { maxAttempts: 0 }), TypeError);
});

Deno.test("deno kv: denoKvStore refuses a prefix that is not 1 to 8 bounded key parts", () => {
  const kv = { get() {}, list() {}, atomic() {}, delete() {} } as unknown as KvLike;
  const bad: unknown[] = [
    [],
    [""],
    ["x".repeat(101)],
    [NaN],
    [Infinity],
    [{}],
    [null],
    [undefined],
    [["nested"]],
    ["app", Symbol("part")],
    [new Uint8Array(101)],
    Array(9).fill("app"),
  ];
  for (const [i, prefix] of bad.entries()) {
    assert.throws(() => denoKvStore(kv, { prefix: prefix as KvKey }), TypeError, `#${i}`);
  }
  for (const prefix of [["a"], ["x".repeat(100)], ["app", 1, 2n, true, new Uint8Array([1])]]) {
    denoKvStore(kv, { prefix });
  }
});

Deno.test("deno kv: two apps with their own prefixes on one database share nothing", async () => {
  const h = await openHarness();
  try {
    const blog = denoKvStore(h.kv);
    const shop = denoKvStore(h.kv, { prefix: ["shop"] });
    await blog.saveSession(session("s1", "user-1"));
    await shop.saveSession(session("s1", "user-2"));
    await shop.saveSession(session("s2", "user-1"));
    assert.equal((await blog.getSession("s1"))?.sub, "user-1");
    assert.equal((await shop.getSession("s1"))?.sub, "user-2");
    assert.deepEqual((await blog.listSessions("user-1")).map((s) => s.id), ["s1"]);
    assert.equal(await shop.deleteSessions("user-1"), 1);
    assert.equal((await blog.getSession("s1"))?.sub, "user-1");
    assert.equal(await blog.consume("state-1", 60), true);
    assert.equal(await shop.consume("state-1", 60), true);
    await blog.hit("user-1", 60);
    await blog.hit("user-1", 60);
    assert.equal(await shop.hits("user-1"), null);
    assert.equal((await shop.hit("user-1", 60)).count, 1);
    await shop.resetHits("user-1");
    assert.equal((await blog.hits("user-1"))?.count, 2);
    for await (const entry of h.kv.list({ prefix: [] })) {
      assert.ok(["service-stack", "shop"].includes(entry.key[0] as string), String(entry.key));
    }
  } finally {
    await h.close();
  }
});

Deno.test("deno kv: changing the prefix array after creating the store moves no key", async () => {
  const h = await openHarness();
  try {
    const prefix = ["shop"];
    const store = denoKvStore(h.kv, { prefix });
    await store.saveSession(session("s1", "user-1"));
    prefix[0] = "blog";
    assert.equal((await store.getSession("s1"))?.id, "s1");
    assert.equal(await store.consume("state-1", 60), true);
    assert.equal((await h.kv.get(["shop", "once", "state-1"])).versionstamp !== null, true);
  } finally {
    await h.close();
  }
});

Deno.test("deno kv: checkStore passes every check", async () => {
  const kinds: StoreKind[] = ["sessions", "marks", "counters", "passkeys", "apiKeys"];
  const harness = await openHarness();
  try {
    const { failed } = await checkStore(harness.store(), { kinds });
    assert.deepEqual(failed, []);
  } finally {
    await harness.close();
  }
});
