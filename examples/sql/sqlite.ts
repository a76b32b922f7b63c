// The same in SQLite through node:sqlite (Deno 2.2+, Node 22.5+); with Bun, `bun:sqlite`'s
// Database has the same prepare(sql).all(...params).
// Run: deno run -A examples/sql/sqlite.ts
// @ts-ignore: the Node types Deno type-checks with do not declare node:sqlite yet.
import { DatabaseSync } from "node:sqlite";
import { createAuth } from "@service-stack/auth";
import { sqlStore } from "@service-stack/auth/sql";

const db = new DatabaseSync(Deno.env.get("SQLITE_PATH") ?? "auth.db");
db.exec("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;");
// The store runs a fixed set of statements: each is prepared once.
const statements = new Map<string, ReturnType<typeof db.prepare>>();
export const store = sqlStore({
  dialect: "sqlite",
  query: (sql, params) => {
    let statement = statements.get(sql);
    if (statement === undefined) statements.set(sql, statement = db.prepare(sql));
    return Promise.resolve(statement.all(...params));
  },
});
await store.migrate();

export const auth = createAuth({ oauth: ["github"], session: { store } });
export const close = () => db.close();
