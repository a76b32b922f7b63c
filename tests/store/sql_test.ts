// sqlStore on a real PostgreSQL (started for this file, through npm:pg and npm:postgres) and on
// SQLite (node:sqlite): the conformance kit on both dialects, concurrency from two pools and two
// processes, revocation, the throttle and the single-use OAuth state across instances through
// HTTP, bounded growth without prune(), bound parameters, the prefix and NUL rules, failing
// queries failing closed, and one query per session read. Ignored on PostgreSQL, with a
// `skipped:` line, without Debian's postgresql.
import assert from "node:assert/strict";
// @ts-types="npm:@types/pg@8"
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import pg from "npm:pg@8";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import postgres from "npm:postgres@3";
import type { LogEntry } from "../../mod.ts";
import { type SqlQuery, sqlSchema, type SqlStore, sqlStore } from "../../sql.ts";
import { checkStore, createMockProvider } from "../../testing.ts";
import { assertError, assertNoSession, Browser, Clock, makeAuth } from "../server/_helpers.ts";
import { type PostgresServer, startPostgres } from "../support/postgres_server.ts";
import { missingTool } from "../support/tools.ts";
import { REPO_ROOT } from "../support/server.ts";

// node:sqlite is typed by no @types/node this project installs: typed here.
interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): { all(...params: (string | number | null)[]): Record<string, unknown>[] };
  close(): void;
}
const SQLITE = "node:sqlite";
const { DatabaseSync } = (await import(SQLITE)) as {
  DatabaseSync: new (path: string) => SqliteDatabase;
};

const noPostgres = missingTool("postgres");
// Started once for the file, outside any test; stopped by the last test (or at exit).
const server: PostgresServer | undefined = noPostgres ? undefined : await startPostgres();
let prefixes = 0;

/** A fresh table prefix, so that tests sharing the server share no rows. */
function freshPrefix(): string {
  return `t${++prefixes}_${crypto.randomUUID().slice(0, 8)}_`;
}

/** One way to reach a database: a dialect, a query function and a clean-up. */
interface Connection {
  dialect: "postgres" | "sqlite";
  query: SqlQuery;
  close(): Promise<void>;
}

interface Flavor {
  name: string;
  ignore: boolean;
  /** A connection; connections of one flavor from one `database` share rows. */
  connect(database?: unknown): Promise<Connection>;
  /** A database several connections can share (a file for SQLite). */
  database(): Promise<unknown>;
}

const nodePg: Flavor = {
  name: "postgres (pg)",
  ignore: noPostgres,
  database: () => Promise.resolve(undefined),
  connect() {
    const pool = new pg.Pool({ connectionString: server!.url, max: 10 });
    return Promise.resolve({
      dialect: "postgres",
      query: (sql, params) => pool.query(sql, [...params]).then((result) => result.rows),
      close: () => pool.end(),
    });
  },
};

const postgresJs: Flavor = {
  name: "postgres (postgres.js)",
  ignore: noPostgres,
  database: () => Promise.resolve(undefined),
  connect() {
    const sql = postgres(server!.url, { max: 10, onnotice: () => {} });
    return Promise.resolve({
      dialect: "postgres",
      query: (text, params) => sql.unsafe(text, [...params]),
      close: () => sql.end(),
    });
  },
};

const sqlite: Flavor = {
  name: "sqlite (node:sqlite)",
  ignore: false,
  async database() {
    const dir = await Deno.makeTempDir({ prefix: "auth-sqlite-" });
    return `${dir}/auth.db`;
  },
  async connect(database) {
    const path = typeof database === "string" ? database : ":memory:";
    const db = new DatabaseSync(path);
    // Two connections to one file wait for each other's writes instead of failing at once.
    db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL;");
    return await Promise.resolve({
      dialect: "sqlite" as const,
      query: (sql: string, params: readonly (string | number | null)[]) =>
        Promise.resolve(db.prepare(sql).all(...params)),
      close: () => Promise.resolve(db.close()),
    });
  },
};

const FLAVORS = [nodePg, postgresJs, sqlite];

/** A migrated store over a new connection, with a fresh prefix unless one is given. */
async function openStore(
  flavor: Flavor,
  options: { database?: unknown; prefix?: string; clock?: () => number; count?: string[] } = {},
): Promise<{ store: SqlStore; connection: Connection; prefix: string }> {
  const connection = await flavor.connect(options.database);
  const prefix = options.prefix ?? freshPrefix();
  const counted = options.count;
  const query: SqlQuery = counted
    ? (sql, params) => {
      counted.push(sql);
      return connection.query(sql, params);
    }
    : connection.query;
  const store = sqlStore({ dialect: connection.dialect, query, prefix, clock: options.clock });
  await store.migrate();
  counted?.splice(0);
  return { store, connection, prefix };
}

function sqlTest(name: string, fn: (flavor: Flavor) => Promise<void>, flavors = FLAVORS): void {
  for (const flavor of flavors) {
    Deno.test({ name: `sql ${flavor.name}: ${name}`, ignore: flavor.ignore, fn: () => fn(flavor) });
  }
}

sqlTest("checkStore passes every check of every kind", async (flavor) => {
  const { store, connection } = await openStore(flavor);
  try {
    const { passed, failed } = await checkStore(store);
    assert.deepEqual(failed, []);
    for (const check of ["consume is atomic", "hit is atomic", "updatePasskey is atomic"]) {
      assert.ok(passed.includes(check), check);
    }
    assert.ok(passed.includes("an API key is gone once it expires"));
    assert.ok(passed.includes("provider and account id never run together"));
  } finally {
    await connection.close();
  }
});

sqlTest("migrate is idempotent and safe when instances run it at once", async (flavor) => {
  const database = await flavor.database();
  const prefix = freshPrefix();
  const connections = await Promise.all([flavor.connect(database), flavor.connect(database)]);
  try {
    const stores = connections.map((c) => sqlStore({ dialect: c.dialect, query: c.query, prefix }));
    await Promise.all([...stores, ...stores].map((store) => store.migrate()));
    await stores[0].migrate();
    assert.equal(await stores[0].consume("k", 60), true);
    assert.equal(await stores[1].consume("k", 60), false);
  } finally {
    for (const c of connections) await c.close();
  }
});

sqlTest("sqlSchema is the DDL migrate runs, prefixed", async (flavor) => {
  const seen: string[] = [];
  const connection = await flavor.connect();
  try {
    const prefix = freshPrefix();
    const store = sqlStore({
      dialect: connection.dialect,
      prefix,
      query: (sql, params) => (seen.push(sql), connection.query(sql, params)),
    });
    await store.migrate();
    const schema = sqlSchema(connection.dialect, { prefix });
    assert.equal(schema, seen.map((statement) => `${statement};\n`).join(""));
    for (const table of ["sessions", "marks", "counters", "passkeys", "accounts", "api_keys"]) {
      assert.match(schema, new RegExp(`CREATE TABLE IF NOT EXISTS ${prefix}${table} \\(`));
    }
    assert.ok(!schema.includes("auth_"), "no other prefix");
    assert.match(sqlSchema(connection.dialect), /CREATE TABLE IF NOT EXISTS auth_sessions \(/);
  } finally {
    await connection.close();
  }
});

sqlTest("two pools: 50 concurrent consumes of one key give one true", async (flavor) => {
  const database = await flavor.database();
  const prefix = freshPrefix();
  const a = await openStore(flavor, { database, prefix });
  const b = await openStore(flavor, { database, prefix });
  try {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).store.consume("state-1", 600)),
    );
    assert.equal(results.filter(Boolean).length, 1);
  } finally {
    await a.connection.close();
    await b.connection.close();
  }
});

sqlTest("two pools: 100 concurrent hits count exactly 100", async (flavor) => {
  const database = await flavor.database();
  const prefix = freshPrefix();
  const a = await openStore(flavor, { database, prefix });
  const b = await openStore(flavor, { database, prefix });
  try {
    const counts = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).store.hit("ip:1", 600)),
    );
    assert.deepEqual(
      counts.map((c) => c.count).sort((x, y) => x - y),
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    assert.equal((await a.store.hits("ip:1"))?.count, 100);
  } finally {
    await a.connection.close();
    await b.connection.close();
  }
});

// The child process: one store over its own pool, racing the parent on the same keys.
const CHILD = `
import pg from "npm:pg@8";
import { DatabaseSync } from "node:sqlite";
import { sqlStore } from "${REPO_ROOT}/sql.ts";
const [dialect, target, prefix] = Deno.args;
let query;
if (dialect === "postgres") {
  const pool = new pg.Pool({ connectionString: target, max: 10 });
  query = (sql, params) => pool.query(sql, [...params]).then((r) => r.rows);
} else {
  const db = new DatabaseSync(target);
  db.exec("PRAGMA busy_timeout = 5000;");
  query = (sql, params) => Promise.resolve(db.prepare(sql).all(...params));
}
const store = sqlStore({ dialect, query, prefix });
await new Promise((resolve) => setTimeout(resolve, Number(Deno.args[3]) - Date.now()));
const consumed = await Promise.all(Array.from({ length: 25 }, () => store.consume("race", 600)));
const hits = await Promise.all(Array.from({ length: 50 }, () => store.hit("race", 600)));
console.log(JSON.stringify({ wins: consumed.filter(Boolean).length, hits: hits.length }));
Deno.exit(0);
`;

sqlTest("two processes: consume and hit hold across them", async (flavor) => {
  const database = await flavor.database();
  const prefix = freshPrefix();
  const mine = await openStore(flavor, { database, prefix });
  const dir = await Deno.makeTempDir({ dir: REPO_ROOT, prefix: ".sql_child_" });
  try {
    await Deno.writeTextFile(`${dir}/child.ts`, CHILD);
    const target = flavor === sqlite ? database as string : server!.url;
    const startAt = Date.now() + 1_500;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${dir}/child.ts`, mine.connection.dialect, target, prefix, `${startAt}`],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
    const consumed = await Promise.all(
      Array.from({ length: 25 }, () => mine.store.consume("race", 600)),
    );
    await Promise.all(Array.from({ length: 50 }, () => mine.store.hit("race", 600)));
    const output = await child;
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    const theirs = JSON.parse(new TextDecoder().decode(output.stdout)) as { wins: number };
    assert.equal(consumed.filter(Boolean).length + theirs.wins, 1);
    assert.equal((await mine.store.hits("race"))?.count, 100);
  } finally {
    await mine.connection.close();
    await Deno.remove(dir, { recursive: true });
  }
}, [nodePg, sqlite]);

/** Two app instances over one database, each with its own connection. */
async function twoInstances(flavor: Flavor, extra: Parameters<typeof makeAuth>[0] = {}) {
  const database = await flavor.database();
  const prefix = freshPrefix();
  const a = await openStore(flavor, { database, prefix });
  const b = await openStore(flavor, { database, prefix });
  const make = (store: SqlStore) => makeAuth({ session: { store, storeTimeout: 2_000 }, ...extra });
  return {
    a: make(a.store),
    b: make(b.store),
    close: async () => {
      await a.connection.close();
      await b.connection.close();
    },
  };
}

/** Serves `handler` on a loopback port, for the tests that go through HTTP. */
function serve(handler: (request: Request) => Promise<Response>) {
  const httpServer = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    url: `http://127.0.0.1:${(httpServer.addr as Deno.NetAddr).port}`,
    close: () => httpServer.shutdown(),
  };
}

sqlTest("revocation on one instance is seen by the other at once, through HTTP", async (flavor) => {
  const { a, b, close } = await twoInstances(flavor);
  const [httpA, httpB] = [serve(a.handlers.ALL), serve(b.handlers.ALL)];
  try {
    const browser = new Browser(a.handlers.ALL);
    await browser.signIn();
    const cookie = browser.cookieHeader();
    const before = await fetch(`${httpB.url}/auth/session`, { headers: { Cookie: cookie } });
    assert.equal((await before.json())?.user?.sub, "user-1");
    const csrfToken = await browser.csrf();
    const out = await fetch(`${httpA.url}/auth/signOut`, {
      method: "POST",
      headers: { Cookie: browser.cookieHeader(), "X-CSRF-Token": csrfToken },
    });
    assert.equal(out.status, 200);
    await out.body?.cancel();
    await assertNoSession(
      await fetch(`${httpB.url}/auth/session`, { headers: { Cookie: cookie } }),
    );
  } finally {
    await httpA.close();
    await httpB.close();
    await close();
  }
});

sqlTest("the credentials throttle holds across instances", async (flavor) => {
  const { a, b, close } = await twoInstances(flavor);
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const auth = i % 2 ? a : b;
      const browser = new Browser(auth.handlers.ALL);
      const response = await browser.fetch("POST", "/auth/signIn/credentials", {
        json: { username: "ada", password: "wrong" },
        headers: { "X-CSRF-Token": await browser.csrf() },
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
  } finally {
    await close();
  }
});

sqlTest("a callback's state is single-use across instances", async (flavor) => {
  const mock = createMockProvider();
  const { a, b, close } = await twoInstances(flavor, { oauth: [mock.provider], fetch: mock.fetch });
  try {
    const browser = new Browser(a.handlers.ALL);
    const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
    const back = new URL(
      (await mock.fetch(start.headers.get("Location")!)).headers.get("Location")!,
    );
    const cookie = browser.cookieHeader();
    const responses = await Promise.all([a, b].map((auth) =>
      auth.handlers.ALL(
        new Request(`http://localhost:8000${back.pathname}${back.search}`, {
          headers: { Cookie: cookie },
        }),
      )
    ));
    const errors = responses.map((r) =>
      new URL(r.headers.get("Location")!, "http://x").searchParams.get("error")
    );
    assert.equal(errors.filter((e) => e === null).length, 1, JSON.stringify(errors));
  } finally {
    await close();
  }
});

sqlTest("a session read is one query, through HTTP and api.getSession", async (flavor) => {
  const count: string[] = [];
  const { store, connection } = await openStore(flavor, { count });
  try {
    const auth = makeAuth({ session: { store } });
    const browser = new Browser(auth.handlers.ALL);
    await browser.signIn();
    count.splice(0);
    const response = await browser.fetch("GET", "/auth/session");
    assert.equal((await response.json())?.user?.sub, "user-1");
    assert.equal(count.length, 1, count.join("\n"));
    assert.match(count[0], /^SELECT /);
    count.splice(0);
    const request = new Request("http://localhost:8000/", {
      headers: { Cookie: browser.cookieHeader() },
    });
    assert.equal((await auth.api.getSession(request))?.user.sub, "user-1");
    assert.equal(count.length, 1);
  } finally {
    await connection.close();
  }
});

sqlTest(
  "tables stay bounded without prune(): expired rows go as the store writes",
  async (flavor) => {
    const clock = new Clock(Date.now());
    const { store, connection, prefix } = await openStore(flavor, { clock: clock.fn });
    const rows = async (table: string) =>
      Number((await connection.query(`SELECT COUNT(*) AS n FROM ${prefix}${table}`, []))[0].n);
    try {
      for (let round = 0; round < 5; round++) {
        await Promise.all(Array.from({ length: 200 }, (_, i) => {
          const key = `r${round}-${i}`;
          const now = clock.now / 1000;
          return Promise.all([
            store.consume(key, 1),
            store.hit(key, 1),
            store.saveSession({ id: key, sub: "u", createdAt: now, expiresAt: now + 1 }),
            store.saveApiKey({
              id: key,
              sub: "u",
              name: "k",
              scopes: [],
              hash: "h",
              kid: "k",
              createdAt: Math.floor(now),
              expiresAt: Math.ceil(now + 1),
            }),
          ]);
        }));
        clock.advance(10);
      }
      // A last batch of writes sweeps what expired before it.
      for (let i = 0; i < 60; i++) await store.consume(`last-${i}`, 600);
      for (let i = 0; i < 60; i++) await store.hit(`last-${i}`, 600);
      for (let i = 0; i < 60; i++) {
        const now = clock.now / 1000;
        await store.saveSession({
          id: `last-${i}`,
          sub: "u",
          createdAt: now,
          expiresAt: now + 600,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const table of ["marks", "counters", "sessions"]) {
        const n = await rows(table);
        assert.ok(n <= 260, `${table} holds ${n} rows after 1,000 expired writes`);
      }
      assert.ok(await rows("api_keys") <= 200, "api_keys holds at most the last round");
      clock.advance(10_000);
      const pruned = await store.prune();
      assert.ok(pruned >= 180, `prune removed ${pruned}`);
      for (const table of ["marks", "counters", "sessions", "api_keys"]) {
        assert.equal(await rows(table), 0, table);
      }
    } finally {
      await connection.close();
    }
  },
);

sqlTest("keys are bound parameters: SQL in a key is stored and read as text", async (flavor) => {
  const count: string[] = [];
  const { store, connection, prefix } = await openStore(flavor, { count });
  try {
    const evil = `x'); DROP TABLE ${prefix}sessions; --`;
    const now = Date.now() / 1000;
    await store.saveSession({ id: evil, sub: evil, createdAt: now, expiresAt: now + 60 });
    assert.equal((await store.getSession(evil))?.sub, evil);
    assert.equal(await store.consume(evil, 60), true);
    assert.equal(await store.consume(evil, 60), false);
    assert.ok(count.every((sql) => !sql.includes("DROP")), "no value in a statement");
    assert.equal((await store.listSessions(evil)).length, 1);
  } finally {
    await connection.close();
  }
});

sqlTest("a key or sub holding NUL is refused, never stored cut short", async (flavor) => {
  const count: string[] = [];
  const { store, connection } = await openStore(flavor, { count });
  try {
    const now = Date.now() / 1000;
    await assert.rejects(store.consume("state\0tail", 60), TypeError);
    await assert.rejects(
      store.saveSession({ id: "s\0", sub: "u", createdAt: now, expiresAt: now + 60 }),
      TypeError,
    );
    await assert.rejects(
      store.saveSession({ id: "s", sub: "u\0x", createdAt: now, expiresAt: now + 60 }),
      TypeError,
    );
    await assert.rejects(store.hit("\0", 60), TypeError);
    assert.deepEqual(count, [], "nothing reached the database");
    assert.equal(await store.consume("state", 60), true, "the cut-short key was never written");
  } finally {
    await connection.close();
  }
});

Deno.test("sqlStore refuses a prefix, dialect or query that is not one", () => {
  const query: SqlQuery = () => Promise.resolve([]);
  for (const prefix of ["Auth_", "a-b", "1abc", "x; DROP TABLE y", "a".repeat(32), "", "é"]) {
    assert.throws(
      () => sqlStore({ dialect: "postgres", query, prefix }),
      (error) => error instanceof TypeError && /prefix/.test(error.message),
      prefix,
    );
    assert.throws(() => sqlSchema("sqlite", { prefix }), TypeError);
  }
  assert.doesNotThrow(() => sqlStore({ dialect: "sqlite", query, prefix: "a".repeat(31) }));
  assert.throws(
    () => sqlStore({ dialect: "mysql" as "sqlite", query }),
    (error) => error instanceof TypeError && /dialect/.test(error.message),
  );
  assert.throws(
    () => sqlStore({ dialect: "sqlite", query: "SELECT" as unknown as SqlQuery }),
    (error) => error instanceof TypeError && /query/.test(error.message),
  );
});

Deno.test("sqlStore reads BIGINT strings and 0/1 booleans as a driver returns them", async () => {
  const now = Math.floor(Date.now() / 1000);
  const query: SqlQuery = (sql) =>
    Promise.resolve(
      sql.startsWith("SELECT id, sub, public_key")
        ? [{
          id: "AQID",
          sub: "u",
          public_key: "MCow",
          algorithm: "-8",
          counter: "7",
          transports: '["usb"]',
          aaguid: "00000000-0000-0000-0000-000000000000",
          backed_up: 1,
          device_type: "multiDevice",
          name: "Key",
          created_at: String(now),
          last_used_at: null,
        }]
        : [{ count: "3", ends_at: String(now + 60) }],
    );
  const store = sqlStore({ dialect: "sqlite", query });
  const passkey = await store.getPasskey("AQID");
  assert.equal(passkey?.counter, 7);
  assert.equal(passkey?.backedUp, true);
  assert.equal(passkey?.createdAt, now);
  assert.equal("lastUsedAt" in passkey!, false, "a NULL column is left out");
  assert.equal((await store.hits("k"))?.count, 3);
});

Deno.test("sqlStore writes positional ? for SQLite, repeating a parameter named twice", async () => {
  const seen: { sql: string; params: readonly unknown[] }[] = [];
  const store = sqlStore({
    dialect: "sqlite",
    query: (
      sql,
      params,
    ) => (seen.push({ sql, params }), Promise.resolve([{ count: 1, ends_at: 9e9 }])),
  });
  await store.hit("k", 60);
  assert.ok(!/\$\d/.test(seen[0].sql), seen[0].sql);
  assert.equal(seen[0].sql.split("?").length - 1, seen[0].params.length);
});

sqlTest("a failing query fails closed: 503, never a session", async (flavor) => {
  const { connection, prefix } = await openStore(flavor);
  try {
    let failing = false;
    const entries: LogEntry[] = [];
    const store = sqlStore({
      dialect: connection.dialect,
      query: (sql, params) =>
        failing ? Promise.reject(new Error("connection reset")) : connection.query(sql, params),
      prefix,
    });
    await store.migrate();
    const auth = makeAuth({
      session: { store },
      logger: { level: "error", log: (entry: LogEntry) => entries.push(entry) },
    });
    const browser = new Browser(auth.handlers.ALL);
    await browser.signIn();
    const cookie = browser.cookieHeader();
    failing = true;
    await assertError(
      await auth.handlers.ALL(
        new Request("http://localhost:8000/auth/session", { headers: { Cookie: cookie } }),
      ),
      503,
      "temporarily_unavailable",
    );
    const request = new Request("http://localhost:8000/", { headers: { Cookie: cookie } });
    assert.equal(await auth.api.getSession(request), null);
    const fresh = new Browser(auth.handlers.ALL);
    const refused = await fresh.signIn();
    assert.equal(refused.status, 503);
    assert.equal(fresh.cookies.has("service-stack.session_token"), false);
    assert.ok(entries.some((entry) => entry.message === "session store failed"));
  } finally {
    await connection.close();
  }
});

/** Runs one of examples/sql/ in a process of its own with its environment, as a user runs it. */
async function runExample(file: string, env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tests/store/fixtures/sql_example.ts", file],
    cwd: REPO_ROOT,
    env: {
      AUTH_SECRET: "sql-example-secret-0123456789-abcdefghij",
      GITHUB_CLIENT_ID: "id",
      GITHUB_CLIENT_SECRET: "secret",
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.ok(output.success, decoder.decode(output.stderr));
  const result = JSON.parse(decoder.decode(output.stdout).trim().split("\n").at(-1)!);
  assert.deepEqual(result, { sub: `example-${file}`, listed: 1 });
}

for (const file of ["postgres_pg.ts", "postgres_js.ts"]) {
  Deno.test({
    name: `sql: the guide's ${file} example signs in on PostgreSQL`,
    ignore: noPostgres,
    fn: () => runExample(file, { DATABASE_URL: server!.url }),
  });
}

Deno.test("sql: the guide's sqlite.ts example signs in on SQLite", async () => {
  const dir = await Deno.makeTempDir({ prefix: "auth-sqlite-" });
  try {
    await runExample("sqlite.ts", { SQLITE_PATH: `${dir}/auth.db` });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "sql: the PostgreSQL server stops",
  ignore: noPostgres,
  async fn() {
    await server!.stop();
    await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port: server!.port }));
  },
});
