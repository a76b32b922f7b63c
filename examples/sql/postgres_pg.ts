// Sessions, passkeys, linked accounts and API keys in PostgreSQL through node-postgres.
// Run: DATABASE_URL=postgres://... deno run -A examples/sql/postgres_pg.ts
// @ts-types="npm:@types/pg@8"
import pg from "pg";
import { createAuth } from "@service-stack/auth";
import { sqlStore } from "@service-stack/auth/sql";

const pool = new pg.Pool({ connectionString: Deno.env.get("DATABASE_URL") });
// The store runs a fixed set of statements: named, each is parsed once per connection.
const names = new Map<string, string>();
export const store = sqlStore({
  dialect: "postgres",
  query: (text, params) => {
    let name = names.get(text);
    if (name === undefined) names.set(text, name = `auth_${names.size}`);
    return pool.query({ name, text, values: [...params] }).then((result) => result.rows);
  },
});
await store.migrate(); // creates the auth_* tables once; safe on every start

export const auth = createAuth({ oauth: ["github"], session: { store } });
export const close = () => pool.end();
