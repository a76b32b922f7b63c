/**
 * A throwaway PostgreSQL server (Debian's package, found through
 * `POSTGRES_BIN`) in a temporary folder on a free loopback port: `initdb`
 * with trust authentication, then `postgres` with durability off (these
 * are tests). PostgreSQL refuses to run as root, so as root both run as
 * the package's `postgres` user. Stopped, and its folder removed, on
 * dispose or when the process ends.
 *
 * @module
 */

import { freePort } from "./server.ts";
import { toolPath } from "./tools.ts";

/** A running PostgreSQL; `await using` stops it and removes its folder. */
export interface PostgresServer extends AsyncDisposable {
  /** The loopback port it listens on. */
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** Stops the server (fast shutdown, then SIGKILL). */
  stop(): Promise<void>;
}

const live = new Set<Deno.ChildProcess>();
const folders = new Set<string>();
globalThis.addEventListener("unload", () => {
  for (const child of live) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }
  for (const dir of folders) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Already gone.
    }
  }
});

/**
 * The command line that runs `binary` as the `postgres` user when this process is root;
 * `setpriv` execs it, so the process started is the server itself and signals reach it.
 */
function asPostgresUser(binary: string, args: string[]): [string, string[]] {
  if (Deno.uid() !== 0) return [binary, args];
  return ["setpriv", [
    "--reuid=postgres",
    "--regid=postgres",
    "--init-groups",
    "--",
    binary,
    ...args,
  ]];
}

async function run(binary: string, args: string[]): Promise<void> {
  const [cmd, argv] = asPostgresUser(binary, args);
  const { success, stderr, stdout } = await new Deno.Command(cmd, {
    args: argv,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    const text = new TextDecoder().decode(stderr) || new TextDecoder().decode(stdout);
    throw new Error(`${binary} failed: ${text.trim().split("\n").slice(-3).join(" | ")}`);
  }
}

/** Whether something accepts TCP connections on `port`. */
async function listening(port: number): Promise<boolean> {
  try {
    const connection = await Deno.connect({ hostname: "127.0.0.1", port });
    connection.close();
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts PostgreSQL on a free loopback port and waits until it accepts connections.
 *
 * @example
 * ```ts ignore
 * await using postgres = await startPostgres();
 * const pool = new pg.Pool({ connectionString: postgres.url });
 * ```
 */
export async function startPostgres(options: { maxConnections?: number } = {}): Promise<
  PostgresServer
> {
  const postgres = toolPath("postgres");
  if (postgres === undefined) throw new Error("POSTGRES_BIN is not set");
  const initdb = postgres.replace(/postgres$/, "initdb");
  const dir = await Deno.makeTempDir({ prefix: "auth-postgres-" });
  folders.add(dir);
  if (Deno.uid() === 0) {
    const { success } = await new Deno.Command("chown", { args: ["postgres:", dir] }).output();
    if (!success) throw new Error(`chown postgres ${dir} failed`);
  }
  const data = `${dir}/data`;
  await run(initdb, ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const port = freePort();
  const [cmd, argv] = asPostgresUser(postgres, [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
    "-c",
    `max_connections=${options.maxConnections ?? 100}`,
  ]);
  const child = new Deno.Command(cmd, {
    args: argv,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  live.add(child);
  const started = Date.now();
  while (!await listening(port)) {
    if (Date.now() - started > 20_000) {
      child.kill("SIGKILL");
      throw new Error("postgres did not listen within 20 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let stopped = false;
  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    try {
      // SIGINT is PostgreSQL's fast shutdown.
      child.kill("SIGINT");
    } catch {
      // Already exited.
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already exited.
      }
    }, 5_000);
    await child.status;
    clearTimeout(timer);
    live.delete(child);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    folders.delete(dir);
  }
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
