// The passkey guide's SQL example (docs/passkeys.md, examples/passkeys/sqlite_store.ts) on SQLite through node:sqlite:
// the passkey contract, and the routes end to end on it.
import assert from "node:assert/strict";
import { type SqlDatabase, sqlitePasskeyStore } from "../../examples/passkeys/sqlite_store.ts";
import { passkeyContract } from "../store/_contract.ts";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  registerNew,
} from "./_helpers.ts";

// node:sqlite is typed by no @types/node this project installs: typed locally.
const SQLITE = "node:sqlite";
const { DatabaseSync } = (await import(SQLITE)) as {
  DatabaseSync: new (path: string) => SqlDatabase & { close(): void };
};
type DatabaseSync = InstanceType<typeof DatabaseSync>;

async function openHarness() {
  const dir = await Deno.makeTempDir();
  const databases: DatabaseSync[] = [];
  const open = (prefix = "") => {
    const db = new DatabaseSync(`${dir}/passkeys${prefix.replace(/\W/g, "_")}.db`);
    databases.push(db);
    return db;
  };
  return {
    store: (prefix?: string) => sqlitePasskeyStore(open(prefix)),
    otherInstance: (prefix?: string) => Promise.resolve(sqlitePasskeyStore(open(prefix))),
    async close() {
      for (const db of databases) db.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

passkeyContract("sqlite (examples/passkeys/sqlite_store.ts)", {
  open: openHarness,
  shared: true,
  // An app's own store need not check its input: the routes and the store guard do.
  validates: false,
});

Deno.test("sqlite store: register, sign in, list and delete through the routes", async () => {
  const harness = await openHarness();
  try {
    const store = harness.store();
    const { auth } = passkeyAuth({ store });
    const browser = browserFor(auth);
    await passwordSignIn(browser);
    const { authenticator, response } = await registerNew(browser, -8, { counter: 7 });
    assert.equal(response.status, 201);
    const signedIn = await passkeySignIn(browserFor(auth), authenticator);
    assert.equal(signedIn.status, 200);
    assert.equal((await signedIn.json()).user.sub, ADA.sub);
    const row = await store.getPasskey(authenticator.id);
    assert.equal(row?.counter, 8);
    assert.equal(typeof row?.lastUsedAt, "number");
    const listed = await auth.api.listPasskeys(ADA.sub);
    assert.deepEqual(listed.map((p) => p.id), [authenticator.id]);
    assert.equal(await auth.api.deletePasskey(ADA.sub, authenticator.id), true);
    assert.equal(await store.getPasskey(authenticator.id), null);
  } finally {
    await harness.close();
  }
});

Deno.test("the passkey guide's SQL example is examples/passkeys/sqlite_store.ts, byte for byte", async () => {
  const root = new URL("../../", import.meta.url);
  const guide = await Deno.readTextFile(new URL("docs/passkeys.md", root));
  const example = await Deno.readTextFile(new URL("examples/passkeys/sqlite_store.ts", root));
  assert.ok(
    guide.includes("```ts\n" + example + "```\n"),
    "docs/passkeys.md has a ts block equal to it",
  );
});
