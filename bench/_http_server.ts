/**
 * One contestant of `bench/http_compare.ts`, served on a loopback port:
 * `bare-none` (no crypto), `bare-headers` (no crypto, with the three
 * headers every response of ours carries), `bare-crypto` (the two Web
 * Crypto calls of a sealed read), or ours with no store, `memoryStore()`,
 * `redisStore()` or `sqlStore()` (`ours-sql-pg`, `ours-sql-postgresjs` on
 * `--postgres=<url>`, `ours-sql-sqlite` in a temporary file).
 * Prints `PORT <n>` once it listens; ours first mints session cookies into
 * the file named by `--cookies`.
 *
 * @module
 */

import { createAuth, memoryStore, type SessionStore } from "../mod.ts";
import { redisStore } from "../redis.ts";
import { type SqlQuery, sqlStore } from "../sql.ts";
import { signInAs } from "../testing.ts";
// deno-lint-ignore no-import-prefix -- dev-only client for the Redis contestant.
import { createClient } from "npm:redis@6";
// @ts-types="npm:@types/pg@8"
// deno-lint-ignore no-import-prefix -- dev-only driver for the PostgreSQL contestant.
import pg from "npm:pg@8";
// deno-lint-ignore no-import-prefix -- dev-only driver for the PostgreSQL contestant.
import postgres from "npm:postgres@3";

const [mode, ...rest] = Deno.args;
const option = (name: string) => rest.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";
const BODY = JSON.stringify({
  user: { sub: "user-1", name: "Ada" },
  expires: "2030-01-01T00:00:00.000Z",
});

let handler: (request: Request) => Response | Promise<Response>;
if (mode === "bare-none") {
  handler = (request) => {
    request.headers.get("Cookie");
    return new Response(BODY, { headers: { "Content-Type": "application/json" } });
  };
} else if (mode === "bare-headers") {
  // What ours must send on a session response: JSON, no-store, nosniff. More than a
  // Content-Type alone takes the runtime off its fastest response path.
  handler = (request) => {
    request.headers.get("Cookie");
    return new Response(BODY, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  };
} else if (mode === "bare-url") {
  // The same, also reading the method and URL as any router must (Deno fetches both on demand).
  handler = (request) => {
    request.headers.get("Cookie");
    if (request.method !== "GET" || !request.url.endsWith("/auth/session")) {
      return new Response(null, { status: 404 });
    }
    return new Response(BODY, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  };
} else if (mode === "bare-async") {
  // The same again, answering through a promise as our handlers' contract does.
  handler = async (request) => {
    request.headers.get("Cookie");
    if (request.method !== "GET" || !request.url.endsWith("/auth/session")) {
      return new Response(null, { status: 404 });
    }
    return await Promise.resolve(
      new Response(BODY, {
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      }),
    );
  };
} else if (mode === "bare-crypto") {
  const aes = await crypto.subtle.importKey("raw", new Uint8Array(32), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  const hmac = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(32),
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
      "verify",
    ],
  );
  const iv = new Uint8Array(12);
  const data = new TextEncoder().encode("x".repeat(300));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, data);
  const signature = await crypto.subtle.sign("HMAC", hmac, data);
  handler = async (request) => {
    request.headers.get("Cookie");
    await crypto.subtle.decrypt({ name: "AES-GCM", iv }, aes, sealed);
    await crypto.subtle.verify("HMAC", hmac, signature, data);
    return new Response(BODY, { headers: { "Content-Type": "application/json" } });
  };
} else {
  let store: SessionStore | undefined;
  if (mode === "ours-memory") store = memoryStore();
  if (mode === "ours-redis") {
    const client = createClient({ url: option("redis") });
    client.on("error", () => {});
    await client.connect();
    store = redisStore(client);
  }
  if (mode.startsWith("ours-sql-")) store = await sqlContestant(mode, option("postgres"));
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    env: {},
    logger: false,
    session: store ? { store } : undefined,
  });
  const count = Number(option("count") ?? "1");
  const cookies: string[] = [];
  for (let i = 0; i < count; i++) {
    const header = await signInAs(auth, { sub: `user-${i}`, name: "Ada" });
    cookies.push(header.split("; ")[0]);
  }
  await Deno.writeTextFile(option("cookies")!, cookies.join("\n") + "\n");
  handler = auth.handlers.GET;
}

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`PORT ${port}`),
}, handler);

/** A migrated sqlStore over the contestant's driver. */
async function sqlContestant(which: string, url: string | undefined) {
  let query: SqlQuery;
  let dialect: "postgres" | "sqlite" = "postgres";
  if (which === "ours-sql-pg") {
    const pool = new pg.Pool({ connectionString: url, max: 20 });
    // As examples/sql/postgres_pg.ts: named statements, parsed once per connection.
    const names = new Map<string, string>();
    query = (text, params) => {
      let name = names.get(text);
      if (name === undefined) names.set(text, name = `auth_${names.size}`);
      return pool.query({ name, text, values: [...params] }).then((result) => result.rows);
    };
  } else if (which === "ours-sql-postgresjs") {
    const sql = postgres(url!, { max: 20, onnotice: () => {} });
    query = (text, params) => sql.unsafe(text, [...params]);
  } else {
    // node:sqlite is typed by no @types/node this project installs: typed here.
    const SQLITE = "node:sqlite";
    const { DatabaseSync } = (await import(SQLITE)) as {
      DatabaseSync: new (path: string) => {
        exec(sql: string): void;
        prepare(sql: string): { all(...params: unknown[]): Record<string, unknown>[] };
      };
    };
    const db = new DatabaseSync(`${await Deno.makeTempDir()}/auth.db`);
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    // As examples/sql/sqlite.ts: each statement prepared once.
    const statements = new Map<string, { all(...params: unknown[]): Record<string, unknown>[] }>();
    query = (sql, params) => {
      let statement = statements.get(sql);
      if (statement === undefined) statements.set(sql, statement = db.prepare(sql));
      return Promise.resolve(statement.all(...params));
    };
    dialect = "sqlite";
  }
  // A prefix per server, so that rounds never read another round's rows.
  const prefix = `bench_${crypto.randomUUID().slice(0, 8)}_`;
  const store = sqlStore({ dialect, query, prefix });
  await store.migrate();
  return store;
}
