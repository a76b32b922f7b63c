// Passkey counters under concurrency: two sign-ins with the same counter at once, exactly one
// succeeds (updatePasskey saves only over the counter it read), on every store; the backed-up
// state (BS flag) is refreshed at each sign-in.
import assert from "node:assert/strict";
import type { PasskeyStore } from "../../mod.ts";
import { memoryStore } from "../../mod.ts";
import { denoKvStore, type KvLike } from "../../deno_kv.ts";
import { type SqlDatabase, sqlitePasskeyStore } from "../../examples/passkeys/sqlite_store.ts";
import { sqlStore } from "../../sql.ts";
import { FLAG } from "../webauthn/_authenticator.ts";
import { assertError } from "../server/_helpers.ts";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  registerNew,
} from "./_helpers.ts";

const SQLITE = "node:sqlite";
const { DatabaseSync } = (await import(SQLITE)) as {
  DatabaseSync: new (path: string) => SqlDatabase & { close(): void };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The store with every call 5 to 20 ms slower, as a database over a network is. */
function slow(store: PasskeyStore): PasskeyStore {
  const late = <T>(run: () => Promise<T>) => sleep(5 + Math.random() * 15).then(run);
  return {
    savePasskey: (passkey) => late(() => store.savePasskey(passkey)),
    getPasskey: (id) => late(() => store.getPasskey(id)),
    listPasskeys: (sub) => late(() => store.listPasskeys(sub)),
    deletePasskey: (id) => late(() => store.deletePasskey(id)),
    updatePasskey: (id, update) => late(() => store.updatePasskey(id, update)),
  };
}

interface Backend {
  name: string;
  open(): Promise<{ store: PasskeyStore; close(): Promise<void> | void }>;
}

const BACKENDS: Backend[] = [
  { name: "memoryStore", open: () => Promise.resolve({ store: memoryStore(), close() {} }) },
  {
    name: "denoKvStore",
    async open() {
      const kv = await (Deno as unknown as { openKv(path: string): Promise<KvLike & Disposable> })
        .openKv(":memory:");
      return { store: denoKvStore(kv), close: () => kv[Symbol.dispose]() };
    },
  },
  {
    name: "sqlStore on SQLite",
    async open() {
      const db = new DatabaseSync(":memory:") as SqlDatabase & {
        close(): void;
        prepare(sql: string): { all(...params: unknown[]): unknown[] };
      };
      const store = sqlStore({
        dialect: "sqlite",
        query: (sql, params) =>
          Promise.resolve(db.prepare(sql).all(...params) as Record<string, unknown>[]),
      });
      await store.migrate();
      return { store, close: () => db.close() };
    },
  },
  {
    name: "the SQL example",
    open() {
      const db = new DatabaseSync(":memory:");
      return Promise.resolve({ store: sqlitePasskeyStore(db), close: () => db.close() });
    },
  },
];

for (const backend of BACKENDS) {
  for (const latency of [false, true]) {
    const how = latency ? " taking 5-20 ms a call" : "";
    Deno.test(`passkeys (${backend.name}${how}): two sign-ins with the same counter at once, exactly one succeeds`, async () => {
      const opened = await backend.open();
      try {
        const store = latency ? slow(opened.store) : opened.store;
        const { auth, logs } = passkeyAuth({ store });
        const browser = browserFor(auth);
        await passwordSignIn(browser);
        const { authenticator } = await registerNew(browser, -7, { counter: 5 });
        for (const [racers, signCount] of [[2, 6], [10, 7], [2, 20]]) {
          // A cloned authenticator (or a replayed signature) sends the same counter twice at once.
          const answers = await Promise.all(
            Array.from(
              { length: racers },
              () => passkeySignIn(browserFor(auth), authenticator, { signCount }),
            ),
          );
          const statuses = answers.map((answer) => answer.status).sort();
          assert.deepEqual(statuses, [200, ...Array(racers - 1).fill(400)], `${racers} at once`);
          for (const answer of answers) {
            if (answer.status === 400) await assertError(answer, 400, "access_denied");
            else await answer.body?.cancel();
          }
          assert.equal((await opened.store.getPasskey(authenticator.id))?.counter, signCount);
        }
        assert.ok(
          logs.some((entry) =>
            entry.level === "warn" && entry.message.includes("possible cloned authenticator")
          ),
        );
        // Different counters at once: the higher one succeeds even when the lower one saved
        // first (it is checked again against the saved counter); the lower one only if first.
        const both = await Promise.all([
          passkeySignIn(browserFor(auth), authenticator, { signCount: 22 }),
          passkeySignIn(browserFor(auth), authenticator, { signCount: 21 }),
        ]);
        assert.equal(both[0].status, 200);
        for (const answer of both) await answer.body?.cancel();
        assert.equal((await opened.store.getPasskey(authenticator.id))?.counter, 22);
      } finally {
        await opened.close();
      }
    });
  }

  Deno.test(`passkeys (${backend.name}): the backed-up state (BS flag) is refreshed at each sign-in`, async () => {
    const opened = await backend.open();
    try {
      const { auth } = passkeyAuth({ store: opened.store });
      const browser = browserFor(auth);
      await passwordSignIn(browser);
      const { authenticator, response } = await registerNew(browser, -8, {
        flags: FLAG.UP | FLAG.UV | FLAG.AT | FLAG.BE,
      });
      assert.equal(response.status, 201);
      const { passkey } = await response.json();
      assert.equal(passkey.deviceType, "multiDevice");
      assert.equal(passkey.backedUp, false);
      const listed = async () => (await auth.api.listPasskeys(ADA.sub))[0];
      for (const backedUp of [true, true, false, true]) {
        const flags = FLAG.UP | FLAG.UV | FLAG.BE | (backedUp ? FLAG.BS : 0);
        const signedIn = await passkeySignIn(browserFor(auth), authenticator, { flags });
        assert.equal(signedIn.status, 200);
        await signedIn.body?.cancel();
        assert.equal((await opened.store.getPasskey(authenticator.id))?.backedUp, backedUp);
        assert.equal((await listed()).backedUp, backedUp);
        // BE never changes: the device type stays what it was at registration.
        assert.equal((await listed()).deviceType, "multiDevice");
      }
    } finally {
      await opened.close();
    }
  });
}

Deno.test("passkeys: a store whose updatePasskey does not answer the compare-and-set fails closed (503)", async () => {
  const real = memoryStore();
  const store: PasskeyStore = {
    savePasskey: (passkey) => real.savePasskey(passkey),
    getPasskey: (id) => real.getPasskey(id),
    listPasskeys: (sub) => real.listPasskeys(sub),
    deletePasskey: (id) => real.deletePasskey(id),
    // The contract before compare-and-set: saves whatever it is given and resolves nothing.
    updatePasskey: async (id, update) => {
      await real.updatePasskey(id, update);
      return undefined as unknown as boolean;
    },
  };
  const { auth, logs } = passkeyAuth({ store });
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const answer = await passkeySignIn(browserFor(auth), authenticator);
  await assertError(answer, 503, "temporarily_unavailable");
  assert.equal(
    answer.headers.getSetCookie().some((line) => line.includes("session_token=ey")),
    false,
  );
  assert.ok(
    logs.some((entry) =>
      entry.level === "error" && entry.details?.operation === "updatePasskey" &&
      entry.details?.error === "TypeError"
    ),
    JSON.stringify(logs),
  );
});
