/**
 * `sqlStore`: sessions, one-time marks, counters, passkeys, linked accounts
 * and API keys in PostgreSQL or SQLite, over one `query(sql, params)`
 * function the app hands in (any driver), so the library still imports
 * nothing.
 *
 * Every operation is one statement: a session read is one round trip, and
 * `consume` and `hit` are single upserts with `RETURNING` whose conflict
 * clause decides atomically, so N instances racing on one key get exactly
 * one `true` and exactly N counts. Expired rows are never returned (every
 * read filters on the time) and are deleted by an extra statement on one
 * write in `SWEEP_EVERY` per table, so no table grows without a cron job.
 * Times are integer seconds; an expiry is rounded up, so a mark or a
 * window never ends early.
 *
 * @module
 */

import { checkSeconds, hitCount } from "./_local.ts";
import {
  checkKey,
  checkPasskey,
  checkPasskeyId,
  checkSession,
  corrupt,
  MAX_KEY_LENGTH,
} from "./_validate.ts";
import type {
  AccountStore,
  ApiKeyStore,
  HitCount,
  PasskeyStore,
  SessionStore,
  StoredAccount,
  StoredApiKey,
  StoredPasskey,
  StoredSession,
} from "./types.ts";

/** The SQL dialects {@linkcode sqlStore} writes. */
export type SqlDialect = "postgres" | "sqlite";

/**
 * Runs one statement with bound parameters and resolves its result rows as
 * objects keyed by column name (an empty array when it returns none).
 * PostgreSQL statements use `$1, $2, ...`; SQLite statements use `?`.
 *
 * @example With node-postgres
 * ```ts ignore
 * import pg from "pg";
 * import type { SqlQuery } from "@service-stack/auth/sql";
 *
 * const pool = new pg.Pool({ connectionString: Deno.env.get("DATABASE_URL") });
 * const query: SqlQuery = (sql, params) => pool.query(sql, params).then((r) => r.rows);
 * ```
 */
export type SqlQuery = (
  sql: string,
  params: readonly (string | number | null)[],
) => Promise<readonly Record<string, unknown>[]>;

/** Options for {@linkcode sqlStore}. */
export interface SqlStoreOptions {
  /** `"postgres"` (also for databases that speak its protocol) or `"sqlite"`. */
  dialect: SqlDialect;
  /** Runs one statement; see {@linkcode SqlQuery}. */
  query: SqlQuery;
  /**
   * Prefix of every table name (`[a-z_][a-z0-9_]{0,30}`), so that two apps
   * share a database without sharing sessions. Defaults to `"auth_"`.
   */
  prefix?: string;
  /**
   * The clock every expiry follows, in milliseconds since the epoch: give it
   * the `clock` given to `createAuth`. Defaults to `Date.now`.
   */
  clock?: () => number;
}

/**
 * Options for {@linkcode sqlSchema}.
 */
export interface SqlSchemaOptions {
  /** Prefix of every table name, as given to {@linkcode sqlStore}. Defaults to `"auth_"`. */
  prefix?: string;
}

/** A store in SQL: every store contract of the library, plus its schema and a clean-up. */
export interface SqlStore extends SessionStore, PasskeyStore, AccountStore, ApiKeyStore {
  /**
   * Creates the tables and indexes when they do not exist. Idempotent, and
   * safe when several instances run it at once.
   */
  migrate(): Promise<void>;
  /** Deletes every expired row now (writes also do it from time to time); resolves how many. */
  prune(): Promise<number>;
}

const PREFIX = /^[a-z_][a-z0-9_]{0,30}$/;
/** One write in this many per table also deletes that table's expired rows. */
export const SWEEP_EVERY = 50;

function checkPrefix(prefix: unknown): string {
  if (prefix === undefined) return "auth_";
  if (typeof prefix !== "string" || !PREFIX.test(prefix)) {
    throw new TypeError(
      'sqlStore prefix must match [a-z_][a-z0-9_]{0,30}; expected e.g. "auth_" or "myapp_auth_".',
    );
  }
  return prefix;
}

/** Table names of one prefix. */
interface Tables {
  sessions: string;
  marks: string;
  counters: string;
  passkeys: string;
  accounts: string;
  apiKeys: string;
}

function tablesOf(prefix: string): Tables {
  return {
    sessions: `${prefix}sessions`,
    marks: `${prefix}marks`,
    counters: `${prefix}counters`,
    passkeys: `${prefix}passkeys`,
    accounts: `${prefix}accounts`,
    apiKeys: `${prefix}api_keys`,
  };
}

/** The DDL statements, one string each. */
function schemaStatements(dialect: SqlDialect, prefix: string): string[] {
  const t = tablesOf(prefix);
  const int = dialect === "postgres" ? "BIGINT" : "INTEGER";
  const bool = dialect === "postgres" ? "BOOLEAN" : "INTEGER";
  return [
    `CREATE TABLE IF NOT EXISTS ${t.sessions} (id TEXT PRIMARY KEY, sub TEXT NOT NULL, ` +
    `created_at ${int} NOT NULL, expires_at ${int} NOT NULL, user_agent TEXT)`,
    `CREATE INDEX IF NOT EXISTS ${t.sessions}_sub ON ${t.sessions} (sub)`,
    `CREATE INDEX IF NOT EXISTS ${t.sessions}_expires ON ${t.sessions} (expires_at)`,
    `CREATE TABLE IF NOT EXISTS ${t.marks} (key TEXT PRIMARY KEY, expires_at ${int} NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ${t.marks}_expires ON ${t.marks} (expires_at)`,
    `CREATE TABLE IF NOT EXISTS ${t.counters} (key TEXT PRIMARY KEY, count ${int} NOT NULL, ` +
    `ends_at ${int} NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ${t.counters}_ends ON ${t.counters} (ends_at)`,
    `CREATE TABLE IF NOT EXISTS ${t.passkeys} (id TEXT PRIMARY KEY, sub TEXT NOT NULL, ` +
    `public_key TEXT NOT NULL, algorithm INTEGER NOT NULL, counter ${int} NOT NULL, ` +
    `transports TEXT NOT NULL, aaguid TEXT NOT NULL, backed_up ${bool} NOT NULL, ` +
    `device_type TEXT NOT NULL, name TEXT NOT NULL, created_at ${int} NOT NULL, ` +
    `last_used_at ${int})`,
    `CREATE INDEX IF NOT EXISTS ${t.passkeys}_sub ON ${t.passkeys} (sub)`,
    `CREATE TABLE IF NOT EXISTS ${t.accounts} (provider TEXT NOT NULL, ` +
    `provider_account_id TEXT NOT NULL, sub TEXT NOT NULL, scope TEXT NOT NULL, ` +
    `expires_at ${int}, tokens TEXT NOT NULL, created_at ${int} NOT NULL, ` +
    `updated_at ${int} NOT NULL, PRIMARY KEY (provider, provider_account_id))`,
    `CREATE INDEX IF NOT EXISTS ${t.accounts}_sub ON ${t.accounts} (sub)`,
    `CREATE TABLE IF NOT EXISTS ${t.apiKeys} (id TEXT PRIMARY KEY, sub TEXT NOT NULL, ` +
    `name TEXT NOT NULL, scopes TEXT NOT NULL, hash TEXT NOT NULL, kid TEXT NOT NULL, ` +
    `created_at ${int} NOT NULL, expires_at ${int}, last_used_at ${int})`,
    `CREATE INDEX IF NOT EXISTS ${t.apiKeys}_sub ON ${t.apiKeys} (sub)`,
    `CREATE INDEX IF NOT EXISTS ${t.apiKeys}_expires ON ${t.apiKeys} (expires_at)`,
  ];
}

/**
 * The DDL that {@linkcode SqlStore.migrate} runs, as text for migration
 * tools: every table and index of the store, `IF NOT EXISTS`, one
 * statement per line, each ending with `;`.
 *
 * @example
 * ```ts
 * import { sqlSchema } from "@service-stack/auth/sql";
 *
 * await Deno.writeTextFile("migrations/001_auth.sql", sqlSchema("postgres", { prefix: "auth_" }));
 * ```
 */
export function sqlSchema(dialect: SqlDialect, options: SqlSchemaOptions = {}): string {
  checkDialect(dialect);
  return schemaStatements(dialect, checkPrefix(options.prefix)).map((s) => `${s};\n`).join("");
}

function checkDialect(dialect: unknown): SqlDialect {
  if (dialect !== "postgres" && dialect !== "sqlite") {
    throw new TypeError('sqlStore dialect must be "postgres" or "sqlite"; expected one of them.');
  }
  return dialect;
}

/** Throws a TypeError for a string holding NUL, which a database would refuse or cut short. */
function noNul(name: string, value: string): string {
  if (value.includes("\0")) {
    throw new TypeError(`${name} must not hold a NUL character; expected printable text.`);
  }
  return value;
}

function key(name: string, value: unknown): string {
  return noNul(name, checkKey(name, value));
}

/** A number read back from a driver, which may give a BIGINT as a string. */
function num(value: unknown, what: string): number {
  const n = typeof value === "number"
    ? value
    : typeof value === "bigint"
    ? Number(value)
    : typeof value === "string" && value !== ""
    ? Number(value)
    : NaN;
  if (!Number.isFinite(n)) throw corrupt(what);
  return n;
}

function optionalNum(value: unknown, what: string): number | undefined {
  return value === null || value === undefined ? undefined : num(value, what);
}

function bool(value: unknown, what: string): boolean {
  if (value === true || value === 1 || value === "1" || value === "t" || value === "true") {
    return true;
  }
  if (value === false || value === 0 || value === "0" || value === "f" || value === "false") {
    return false;
  }
  throw corrupt(what);
}

function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw corrupt(what);
  return value;
}

function stringList(value: unknown, what: string): string[] {
  let list: unknown;
  try {
    list = JSON.parse(text(value, what));
  } catch {
    throw corrupt(what);
  }
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) throw corrupt(what);
  return list;
}

/** Seconds since the epoch, rounded up: an expiry that never comes early. */
function ceilSeconds(seconds: number): number {
  return Math.ceil(seconds);
}

/**
 * A statement written with `$1, $2, ...` in SQLite's positional `?` form, and
 * which parameter each `?` takes (a parameter named twice is bound twice).
 */
interface Positional {
  sql: string;
  order: number[];
}

function positional(sql: string): Positional {
  const order: number[] = [];
  const out = sql.replace(/\$(\d+)/g, (_, n: string) => {
    order.push(Number(n) - 1);
    return "?";
  });
  return { sql: out, order };
}

type Param = string | number | null;

/**
 * A store in PostgreSQL or SQLite, over the `query` function of any driver:
 * it implements `SessionStore` (sessions, one-time marks, counters),
 * `PasskeyStore`, `AccountStore` and `ApiKeyStore`. Call `migrate()` once
 * at start (or run {@linkcode sqlSchema}'s DDL with your migration tool).
 * A failing `query` rejects, and the library fails closed (503, never a
 * session).
 *
 * @example PostgreSQL through node-postgres
 * ```ts ignore
 * import pg from "pg";
 * import { createAuth } from "@service-stack/auth";
 * import { sqlStore } from "@service-stack/auth/sql";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = sqlStore({
 *   dialect: "postgres",
 *   query: (sql, params) => pool.query(sql, [...params]).then((result) => result.rows),
 * });
 * await store.migrate();
 * const auth = createAuth({ oauth: ["github"], session: { store } });
 * ```
 *
 * @example SQLite (node:sqlite's DatabaseSync, or bun:sqlite's Database)
 * ```ts
 * import { sqlStore } from "@service-stack/auth/sql";
 *
 * // An open SQLite database, e.g. `new DatabaseSync(":memory:")` of node:sqlite.
 * declare const db: { prepare(sql: string): { all(...params: unknown[]): Record<string, unknown>[] } };
 * const store = sqlStore({
 *   dialect: "sqlite",
 *   query: (sql, params) => Promise.resolve(db.prepare(sql).all(...params)),
 * });
 * await store.migrate();
 * console.log(await store.consume("state-1", 600)); // true
 * ```
 */
export function sqlStore(options: SqlStoreOptions): SqlStore {
  if (options === null || typeof options !== "object") {
    throw new TypeError('sqlStore needs options; expected { dialect: "postgres", query }.');
  }
  const dialect = checkDialect(options.dialect);
  const prefix = checkPrefix(options.prefix);
  const run = options.query;
  if (typeof run !== "function") {
    throw new TypeError(
      "sqlStore query must be a function; expected (sql, params) => Promise<rows>.",
    );
  }
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") {
    throw new TypeError("clock must be a function; expected () => milliseconds, e.g. Date.now.");
  }
  const t = tablesOf(prefix);
  const now = () => clock() / 1000;
  const nowSeconds = () => Math.floor(now());

  // The store writes a fixed set of statements: each is turned into SQLite's form once.
  const rewritten = new Map<string, Positional>();
  async function query(sql: string, params: Param[]): Promise<readonly Record<string, unknown>[]> {
    let statement = sql;
    let bound = params;
    if (dialect === "sqlite") {
      let form = rewritten.get(sql);
      if (form === undefined) rewritten.set(sql, form = positional(sql));
      statement = form.sql;
      bound = form.order.map((index) => params[index]);
    }
    const rows = await run(statement, bound);
    if (!Array.isArray(rows)) throw new Error("sqlStore query must resolve an array of rows.");
    return rows;
  }

  // Expired rows of each table go on one write in SWEEP_EVERY (the first write included).
  const sweeps: Record<string, { writes: number; sql: string }> = {
    sessions: { writes: 0, sql: `DELETE FROM ${t.sessions} WHERE expires_at <= $1` },
    marks: { writes: 0, sql: `DELETE FROM ${t.marks} WHERE expires_at <= $1` },
    counters: { writes: 0, sql: `DELETE FROM ${t.counters} WHERE ends_at <= $1` },
    apiKeys: { writes: 0, sql: `DELETE FROM ${t.apiKeys} WHERE expires_at <= $1` },
  };
  function wrote(table: keyof typeof sweeps): void {
    const sweep = sweeps[table];
    if (sweep.writes++ % SWEEP_EVERY !== 0) return;
    // Not awaited: the write it follows is done; a failed sweep is tried again later.
    query(sweep.sql, [nowSeconds()]).catch(() => {});
  }

  function readSessionRow(row: Record<string, unknown>): StoredSession {
    const session: StoredSession = {
      id: text(row.id, "a session"),
      sub: text(row.sub, "a session"),
      createdAt: num(row.created_at, "a session"),
      expiresAt: num(row.expires_at, "a session"),
    };
    if (row.user_agent !== null && row.user_agent !== undefined) {
      session.userAgent = text(row.user_agent, "a session");
    }
    return session;
  }

  function readPasskeyRow(row: Record<string, unknown>): StoredPasskey {
    const passkey: StoredPasskey = {
      id: text(row.id, "a passkey"),
      sub: text(row.sub, "a passkey"),
      publicKey: text(row.public_key, "a passkey"),
      algorithm: num(row.algorithm, "a passkey"),
      counter: num(row.counter, "a passkey"),
      transports: stringList(row.transports, "a passkey"),
      aaguid: text(row.aaguid, "a passkey"),
      backedUp: bool(row.backed_up, "a passkey"),
      deviceType: text(row.device_type, "a passkey") as StoredPasskey["deviceType"],
      name: text(row.name, "a passkey"),
      createdAt: num(row.created_at, "a passkey"),
    };
    const lastUsedAt = optionalNum(row.last_used_at, "a passkey");
    if (lastUsedAt !== undefined) passkey.lastUsedAt = lastUsedAt;
    return passkey;
  }

  function readAccountRow(row: Record<string, unknown>): StoredAccount {
    const account: StoredAccount = {
      provider: text(row.provider, "an account"),
      providerAccountId: text(row.provider_account_id, "an account"),
      sub: text(row.sub, "an account"),
      scope: text(row.scope, "an account"),
      tokens: text(row.tokens, "an account"),
      createdAt: num(row.created_at, "an account"),
      updatedAt: num(row.updated_at, "an account"),
    };
    const expiresAt = optionalNum(row.expires_at, "an account");
    if (expiresAt !== undefined) account.expiresAt = expiresAt;
    return account;
  }

  function readApiKeyRow(row: Record<string, unknown>): StoredApiKey {
    const apiKey: StoredApiKey = {
      id: text(row.id, "an API key"),
      sub: text(row.sub, "an API key"),
      name: text(row.name, "an API key"),
      scopes: stringList(row.scopes, "an API key"),
      hash: text(row.hash, "an API key"),
      kid: text(row.kid, "an API key"),
      createdAt: num(row.created_at, "an API key"),
    };
    const expiresAt = optionalNum(row.expires_at, "an API key");
    if (expiresAt !== undefined) apiKey.expiresAt = expiresAt;
    const lastUsedAt = optionalNum(row.last_used_at, "an API key");
    if (lastUsedAt !== undefined) apiKey.lastUsedAt = lastUsedAt;
    return apiKey;
  }

  const SESSION_COLUMNS = "id, sub, created_at, expires_at, user_agent";
  const PASSKEY_COLUMNS = "id, sub, public_key, algorithm, counter, transports, aaguid, " +
    "backed_up, device_type, name, created_at, last_used_at";
  const ACCOUNT_COLUMNS = "provider, provider_account_id, sub, scope, expires_at, tokens, " +
    "created_at, updated_at";
  const API_KEY_COLUMNS = "id, sub, name, scopes, hash, kid, created_at, expires_at, last_used_at";
  // PostgreSQL gets "true" or "false" as text cast to BOOLEAN (drivers serialize a parameter
  // the server types as boolean each their own way); SQLite keeps 1 and 0.
  const boolParam = (value: boolean): Param =>
    dialect === "postgres" ? String(value) : value ? 1 : 0;
  const boolSlot = (n: number) =>
    dialect === "postgres" ? `CAST(CAST($${n} AS TEXT) AS BOOLEAN)` : `$${n}`;

  async function updatePasskey(id: string, update: unknown): Promise<boolean> {
    const u = checkCounterUpdate(update);
    // Saved only over the counter the sign-in read: a clone racing the original loses.
    const rows = await query(
      `UPDATE ${t.passkeys} SET counter = $2, last_used_at = $3, backed_up = ${boolSlot(4)} ` +
        `WHERE id = $1 AND counter = $5 RETURNING id`,
      [
        checkPasskeyId(id),
        u.counter,
        Math.floor(u.lastUsedAt),
        boolParam(u.backedUp),
        u.previousCounter,
      ],
    );
    return rows.length > 0;
  }

  const store: SqlStore = {
    async migrate() {
      for (const statement of schemaStatements(dialect, prefix)) {
        // Instances creating one table at once: PostgreSQL may refuse all but one (a catalog
        // unique violation); once the winner is done, IF NOT EXISTS holds. Other errors stay.
        for (let attempt = 0;; attempt++) {
          try {
            await query(statement, []);
            break;
          } catch (error) {
            if (attempt === 4) throw error;
            await new Promise((resolve) => setTimeout(resolve, 25 << attempt));
          }
        }
      }
    },

    async prune() {
      let count = 0;
      const at = nowSeconds();
      for (const sweep of Object.values(sweeps)) {
        const returning = sweep.sql + " RETURNING 1 AS gone";
        count += (await query(returning, [at])).length;
      }
      return count;
    },

    // --- sessions -----------------------------------------------------------

    async saveSession(session) {
      const s = checkSession(session);
      noNul("session.id", s.id);
      noNul("session.sub", s.sub);
      const expiresAt = ceilSeconds(s.expiresAt);
      if (s.expiresAt <= now()) {
        await query(`DELETE FROM ${t.sessions} WHERE id = $1`, [s.id]);
        return;
      }
      await query(
        `INSERT INTO ${t.sessions} (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5) ` +
          `ON CONFLICT (id) DO UPDATE SET sub = EXCLUDED.sub, created_at = EXCLUDED.created_at, ` +
          `expires_at = EXCLUDED.expires_at, user_agent = EXCLUDED.user_agent`,
        [
          s.id,
          s.sub,
          Math.floor(s.createdAt),
          expiresAt,
          s.userAgent === undefined ? null : noNul("session.userAgent", s.userAgent),
        ],
      );
      wrote("sessions");
    },

    async getSession(id) {
      const rows = await query(
        `SELECT ${SESSION_COLUMNS} FROM ${t.sessions} WHERE id = $1 AND expires_at > $2`,
        [key("id", id), nowSeconds()],
      );
      if (rows.length === 0) return null;
      const session = readSessionRow(rows[0]);
      if (session.id !== id) throw corrupt("a session");
      return session;
    },

    async deleteSession(id) {
      const rows = await query(
        `DELETE FROM ${t.sessions} WHERE id = $1 RETURNING expires_at`,
        [key("id", id)],
      );
      const at = now();
      return rows.some((row) => num(row.expires_at, "a session") > at);
    },

    async listSessions(sub) {
      const rows = await query(
        `SELECT ${SESSION_COLUMNS} FROM ${t.sessions} WHERE sub = $1 AND expires_at > $2`,
        [key("sub", sub), nowSeconds()],
      );
      return rows.map(readSessionRow).filter((session) => session.sub === sub);
    },

    async deleteSessions(sub) {
      const rows = await query(
        `DELETE FROM ${t.sessions} WHERE sub = $1 RETURNING expires_at`,
        [key("sub", sub)],
      );
      const at = now();
      return rows.filter((row) => num(row.expires_at, "a session") > at).length;
    },

    // --- one-time marks -------------------------------------------------------

    async consume(k, ttlSeconds) {
      const mark = key("key", k);
      const ttl = checkSeconds("ttlSeconds", ttlSeconds) / 1000;
      const at = now();
      // Inserted, or taken over from an expired mark: a row comes back. A live mark: none.
      const rows = await query(
        `INSERT INTO ${t.marks} (key, expires_at) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE ` +
          `SET expires_at = EXCLUDED.expires_at WHERE ${t.marks}.expires_at <= $3 RETURNING key`,
        [mark, ceilSeconds(at + ttl), Math.floor(at)],
      );
      wrote("marks");
      return rows.length > 0;
    },

    // --- counters ---------------------------------------------------------------

    async hit(k, windowSeconds) {
      const counter = key("key", k);
      const window = checkSeconds("windowSeconds", windowSeconds) / 1000;
      const at = now();
      const rows = await query(
        `INSERT INTO ${t.counters} (key, count, ends_at) VALUES ($1, 1, $2) ` +
          `ON CONFLICT (key) DO UPDATE SET ` +
          `count = CASE WHEN ${t.counters}.ends_at <= $3 THEN 1 ELSE ${t.counters}.count + 1 END, ` +
          `ends_at = CASE WHEN ${t.counters}.ends_at <= $3 THEN EXCLUDED.ends_at ` +
          `ELSE ${t.counters}.ends_at END RETURNING count, ends_at`,
        [counter, ceilSeconds(at + window), Math.floor(at)],
      );
      wrote("counters");
      if (rows.length !== 1) throw corrupt("a counter");
      const counted = countOf(rows[0], at);
      // The end is kept in whole seconds, rounded up: never report more than the window.
      counted.resetIn = Math.min(counted.resetIn, Math.ceil(window));
      return counted;
    },

    async hits(k) {
      const at = now();
      const rows = await query(
        `SELECT count, ends_at FROM ${t.counters} WHERE key = $1 AND ends_at > $2`,
        [key("key", k), Math.floor(at)],
      );
      return rows.length === 0 ? null : countOf(rows[0], at);
    },

    async resetHits(k) {
      await query(`DELETE FROM ${t.counters} WHERE key = $1`, [key("key", k)]);
    },

    // --- passkeys ---------------------------------------------------------------

    async savePasskey(passkey) {
      const p = checkPasskey(passkey);
      noNul("passkey.sub", p.sub);
      noNul("passkey.name", p.name);
      const rows = await query(
        `INSERT INTO ${t.passkeys} (${PASSKEY_COLUMNS}) VALUES ` +
          `($1, $2, $3, $4, $5, $6, $7, ${boolSlot(8)}, $9, $10, $11, $12) ON CONFLICT (id) ` +
          `DO NOTHING ` +
          `RETURNING id`,
        [
          p.id,
          p.sub,
          p.publicKey,
          p.algorithm,
          p.counter,
          JSON.stringify(p.transports),
          p.aaguid,
          boolParam(p.backedUp),
          p.deviceType,
          p.name,
          Math.floor(p.createdAt),
          p.lastUsedAt === undefined ? null : Math.floor(p.lastUsedAt),
        ],
      );
      return rows.length > 0;
    },

    async getPasskey(id) {
      const rows = await query(
        `SELECT ${PASSKEY_COLUMNS} FROM ${t.passkeys} WHERE id = $1`,
        [checkPasskeyId(id)],
      );
      return rows.length === 0 ? null : readPasskeyRow(rows[0]);
    },

    async listPasskeys(sub) {
      const rows = await query(
        `SELECT ${PASSKEY_COLUMNS} FROM ${t.passkeys} WHERE sub = $1`,
        [key("sub", sub)],
      );
      return rows.map(readPasskeyRow);
    },

    async deletePasskey(id) {
      const rows = await query(
        `DELETE FROM ${t.passkeys} WHERE id = $1 RETURNING id`,
        [checkPasskeyId(id)],
      );
      return rows.length > 0;
    },

    updatePasskey,

    // --- linked accounts --------------------------------------------------------

    async saveAccount(account) {
      const a = checkAccount(account);
      await query(
        `INSERT INTO ${t.accounts} (${ACCOUNT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ` +
          `ON CONFLICT (provider, provider_account_id) DO UPDATE SET sub = EXCLUDED.sub, ` +
          `scope = EXCLUDED.scope, expires_at = EXCLUDED.expires_at, tokens = EXCLUDED.tokens, ` +
          `created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`,
        [
          a.provider,
          a.providerAccountId,
          a.sub,
          a.scope,
          a.expiresAt ?? null,
          a.tokens,
          a.createdAt,
          a.updatedAt,
        ],
      );
    },

    async getAccount(provider, providerAccountId) {
      const rows = await query(
        `SELECT ${ACCOUNT_COLUMNS} FROM ${t.accounts} WHERE provider = $1 AND ` +
          `provider_account_id = $2`,
        [key("provider", provider), key("providerAccountId", providerAccountId)],
      );
      return rows.length === 0 ? null : readAccountRow(rows[0]);
    },

    async listAccounts(sub) {
      const rows = await query(
        `SELECT ${ACCOUNT_COLUMNS} FROM ${t.accounts} WHERE sub = $1`,
        [key("sub", sub)],
      );
      return rows.map(readAccountRow);
    },

    async deleteAccount(provider, providerAccountId) {
      const rows = await query(
        `DELETE FROM ${t.accounts} WHERE provider = $1 AND provider_account_id = $2 ` +
          `RETURNING provider`,
        [key("provider", provider), key("providerAccountId", providerAccountId)],
      );
      return rows.length > 0;
    },

    // --- API keys -----------------------------------------------------------------

    async saveApiKey(apiKey) {
      const k = checkApiKey(apiKey);
      await query(
        `INSERT INTO ${t.apiKeys} (${API_KEY_COLUMNS}) VALUES ` +
          `($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO UPDATE SET ` +
          `sub = EXCLUDED.sub, name = EXCLUDED.name, scopes = EXCLUDED.scopes, ` +
          `hash = EXCLUDED.hash, kid = EXCLUDED.kid, created_at = EXCLUDED.created_at, ` +
          `expires_at = EXCLUDED.expires_at, last_used_at = EXCLUDED.last_used_at`,
        [
          k.id,
          k.sub,
          k.name,
          JSON.stringify(k.scopes),
          k.hash,
          k.kid,
          k.createdAt,
          k.expiresAt ?? null,
          k.lastUsedAt ?? null,
        ],
      );
      wrote("apiKeys");
    },

    async getApiKey(id) {
      const rows = await query(
        `SELECT ${API_KEY_COLUMNS} FROM ${t.apiKeys} WHERE id = $1 AND ` +
          `(expires_at IS NULL OR expires_at > $2)`,
        [key("id", id), nowSeconds()],
      );
      return rows.length === 0 ? null : readApiKeyRow(rows[0]);
    },

    async listApiKeys(sub) {
      const rows = await query(
        `SELECT ${API_KEY_COLUMNS} FROM ${t.apiKeys} WHERE sub = $1 AND ` +
          `(expires_at IS NULL OR expires_at > $2)`,
        [key("sub", sub), nowSeconds()],
      );
      return rows.map(readApiKeyRow);
    },

    async deleteApiKey(id) {
      const rows = await query(
        `DELETE FROM ${t.apiKeys} WHERE id = $1 RETURNING id`,
        [key("id", id)],
      );
      return rows.length > 0;
    },

    async touchApiKey(id, lastUsedAt) {
      await query(
        `UPDATE ${t.apiKeys} SET last_used_at = $2 WHERE id = $1`,
        [key("id", id), checkTime("lastUsedAt", lastUsedAt)],
      );
    },
  };
  return store;
}

function countOf(row: Record<string, unknown>, at: number): HitCount {
  const count = num(row.count, "a counter");
  const endsAt = num(row.ends_at, "a counter");
  if (!Number.isInteger(count) || count < 1) throw corrupt("a counter");
  return hitCount(count, (endsAt - at) * 1000);
}

function checkCounterUpdate(update: unknown): {
  counter: number;
  lastUsedAt: number;
  backedUp: boolean;
  previousCounter: number;
} {
  const u = update as Record<string, unknown> | null;
  const counter = (value: unknown) =>
    typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
  if (
    u === null || typeof u !== "object" || !counter(u.counter) || !counter(u.previousCounter) ||
    typeof u.lastUsedAt !== "number" || !Number.isFinite(u.lastUsedAt) ||
    typeof u.backedUp !== "boolean"
  ) {
    throw new TypeError(
      "update must be { counter, lastUsedAt, backedUp, previousCounter }; expected whole counters " +
        "from 0, seconds since the epoch and a boolean.",
    );
  }
  return u as { counter: number; lastUsedAt: number; backedUp: boolean; previousCounter: number };
}

/** Seconds since the epoch as the tables keep them: whole, rounded down (`up` for an expiry). */
function checkTime(name: string, value: unknown, up = false): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${name} must be seconds since the epoch; expected a number.`);
  }
  return up ? Math.ceil(value) : Math.floor(value);
}

function checkText(name: string, value: unknown, max: number): string {
  if (typeof value !== "string" || value.length > max) {
    throw new TypeError(`${name} must be a string of at most ${max} characters; expected text.`);
  }
  return noNul(name, value);
}

function checkAccount(account: unknown): StoredAccount {
  const a = account as Record<string, unknown> | null;
  if (a === null || typeof a !== "object") {
    throw new TypeError(
      "account must be an object; expected { provider, providerAccountId, sub, scope, tokens, ... }.",
    );
  }
  const copy: StoredAccount = {
    provider: key("account.provider", a.provider),
    providerAccountId: key("account.providerAccountId", a.providerAccountId),
    sub: key("account.sub", a.sub),
    scope: checkText("account.scope", a.scope, 4096),
    tokens: checkText("account.tokens", a.tokens, 65536),
    createdAt: checkTime("account.createdAt", a.createdAt),
    updatedAt: checkTime("account.updatedAt", a.updatedAt),
  };
  if (a.expiresAt !== undefined) copy.expiresAt = checkTime("account.expiresAt", a.expiresAt, true);
  return copy;
}

function checkApiKey(apiKey: unknown): StoredApiKey {
  const k = apiKey as Record<string, unknown> | null;
  if (k === null || typeof k !== "object") {
    throw new TypeError("apiKey must be an object; expected { id, sub, name, scopes, hash, kid }.");
  }
  if (
    !Array.isArray(k.scopes) ||
    !k.scopes.every((scope) => typeof scope === "string" && !scope.includes("\0"))
  ) {
    throw new TypeError('apiKey.scopes must be an array of strings; expected e.g. ["read"].');
  }
  const copy: StoredApiKey = {
    id: key("apiKey.id", k.id),
    sub: key("apiKey.sub", k.sub),
    name: checkText("apiKey.name", k.name, MAX_KEY_LENGTH),
    scopes: [...k.scopes],
    hash: checkText("apiKey.hash", k.hash, 512),
    kid: checkText("apiKey.kid", k.kid, MAX_KEY_LENGTH),
    createdAt: checkTime("apiKey.createdAt", k.createdAt),
  };
  if (k.expiresAt !== undefined) copy.expiresAt = checkTime("apiKey.expiresAt", k.expiresAt, true);
  if (k.lastUsedAt !== undefined) copy.lastUsedAt = checkTime("apiKey.lastUsedAt", k.lastUsedAt);
  return copy;
}
