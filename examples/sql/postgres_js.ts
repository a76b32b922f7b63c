// The same over postgres.js (npm:postgres).
// Run: DATABASE_URL=postgres://... deno run -A examples/sql/postgres_js.ts
import postgres from "postgres";
import { createAuth } from "@service-stack/auth";
import { sqlStore } from "@service-stack/auth/sql";

const sql = postgres(Deno.env.get("DATABASE_URL")!);
export const store = sqlStore({
  dialect: "postgres",
  query: (text, params) => sql.unsafe(text, [...params]),
});
await store.migrate();

export const auth = createAuth({ oauth: ["github"], session: { store } });
export const close = () => sql.end();
