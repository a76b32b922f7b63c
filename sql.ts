/**
 * `@service-stack/auth/sql`: sessions, one-time marks, counters, passkeys,
 * linked accounts and API keys in PostgreSQL or SQLite, over the `query`
 * function of any driver (`pg`, `postgres`, `node:sqlite`, `bun:sqlite`).
 * The library imports no driver.
 *
 * @example
 * ```ts
 * import { createAuth } from "@service-stack/auth";
 * import { sqlStore } from "@service-stack/auth/sql";
 *
 * // An open SQLite database, e.g. `new DatabaseSync("auth.db")` of node:sqlite (see docs/sql-store.md).
 * declare const db: { prepare(sql: string): { all(...params: unknown[]): Record<string, unknown>[] } };
 * const store = sqlStore({
 *   dialect: "sqlite",
 *   query: (sql, params) => Promise.resolve(db.prepare(sql).all(...params)),
 * });
 * await store.migrate();
 * const auth = createAuth({ oauth: ["github"], session: { store }, passkeys: { store, findUser: () => null } });
 * ```
 *
 * @module
 */

export {
  type SqlDialect,
  type SqlQuery,
  sqlSchema,
  type SqlSchemaOptions,
  type SqlStore,
  sqlStore,
  type SqlStoreOptions,
} from "./src/store/sql.ts";
export type {
  AccountStore,
  ApiKeyStore,
  HitCount,
  PasskeyStore,
  SessionStore,
  StoredAccount,
  StoredApiKey,
  StoredPasskey,
  StoredSession,
} from "./src/store/types.ts";
