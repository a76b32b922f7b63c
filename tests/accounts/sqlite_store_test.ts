// The guide's SQL example (examples/accounts/sqlite_store.ts, shown in
// docs/accounts.md byte for byte) on SQLite through node:sqlite: the account
// contract, and a sign-in that links an account whose row holds no token in clear.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { type SqlDatabase, sqliteAccountStore } from "../../examples/accounts/sqlite_store.ts";
import { accountContract } from "../store/_accounts_contract.ts";
import { REPO_ROOT } from "../support/server.ts";
import { AccountBrowser, SECRET } from "./_helpers.ts";
import { pathOf } from "../oauth/_flow_helpers.ts";

// node:sqlite is typed by no @types/node this project installs: typed locally.
const SQLITE = "node:sqlite";
const { DatabaseSync } = (await import(SQLITE)) as {
  DatabaseSync: new (path: string) => SqlDatabase & { close(): void };
};

Deno.test("the guide's SQLite AccountStore passes the account contract", async () => {
  const db = new DatabaseSync(":memory:");
  try {
    await accountContract(sqliteAccountStore(db), { checksInput: false });
  } finally {
    db.close();
  }
});

Deno.test("the guide's SQLite AccountStore links a sign-in and holds its tokens sealed", async () => {
  const db = new DatabaseSync(":memory:");
  try {
    const mock = createMockProvider({ users: [{ sub: "gh-1", name: "Ada" }] });
    const auth = createAuth({
      oauth: [mock.provider],
      secret: SECRET,
      logger: false,
      fetch: mock.fetch,
      accounts: { store: sqliteAccountStore(db) },
    } as AuthConfig);
    const browser = new AccountBrowser(auth.handlers.ALL);
    const start = await browser.get("/auth/signIn/mock");
    const callback = await mock.fetch(start.headers.get("Location")!);
    await browser.get(pathOf(new URL(callback.headers.get("Location")!)));
    const sub = (await (await browser.get("/auth/session")).json()).user.sub;
    const token = await auth.api.getAccessToken({ sub }, "mock");
    assert.ok(token);
    const rows = db.prepare("SELECT * FROM linked_accounts").all() as Record<string, unknown>[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].sub, sub);
    assert.ok(!JSON.stringify(rows).includes(token.accessToken), "no token in clear");
  } finally {
    db.close();
  }
});

Deno.test("docs/accounts.md shows examples/accounts/sqlite_store.ts byte for byte", async () => {
  const doc = await Deno.readTextFile(`${REPO_ROOT}/docs/accounts.md`);
  const file = await Deno.readTextFile(`${REPO_ROOT}/examples/accounts/sqlite_store.ts`);
  assert.ok(doc.includes("```ts\n" + file + "```\n"), "the guide's block differs from the file");
});
