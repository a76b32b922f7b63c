/**
 * A throwaway `redis-server` (Debian's package, found through
 * `REDIS_SERVER_BIN`) on a free loopback port, with no persistence and no
 * config file. It can be stopped and started again on the same port, so that
 * tests can take Redis away under a connected client and bring it back.
 *
 * @module
 */

import { freePort } from "./server.ts";
import { toolPath } from "./tools.ts";

/** Options for {@linkcode startRedisServer}. */
export interface StartRedisServerOptions {
  /** The `redis-server` binary; defaults to `REDIS_SERVER_BIN`. */
  binary?: string;
  /** How long to wait for the server to answer `PING`; defaults to 10 s. */
  timeoutMs?: number;
}

/** A running `redis-server`; `await using` stops it and removes its folder. */
export interface RedisServer extends AsyncDisposable {
  /** The loopback port it listens on, the same after {@linkcode RedisServer.start}. */
  port: number;
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Stops the server (SIGTERM, then SIGKILL); connected clients lose their connection. */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it answers. */
  start(): Promise<void>;
  /** The server's log so far. */
  output(): Promise<string>;
}

const STOP_GRACE_MS = 3_000;
const KILL_WAIT_MS = 5_000;
const live = new Set<Deno.ChildProcess>();
const folders = new Set<string>();
// Kills servers and removes their folders if the process ends without disposing of them.
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

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) =>
    timer = setTimeout(() => resolve("timeout"), ms)
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Whether a Redis server on `port` answers `PING` with `PONG`. */
async function answersPing(port: number): Promise<boolean> {
  let connection: Deno.TcpConn | undefined;
  try {
    connection = await Deno.connect({ hostname: "127.0.0.1", port });
    await connection.write(new TextEncoder().encode("PING\r\n"));
    const buffer = new Uint8Array(64);
    const read = await withTimeout(connection.read(buffer), 1_000);
    return typeof read === "number" &&
      new TextDecoder().decode(buffer.subarray(0, read)).startsWith("+PONG");
  } catch {
    return false;
  } finally {
    connection?.close();
  }
}

/**
 * Starts `redis-server` on a free 127.0.0.1 port (`--save "" --appendonly no`,
 * no config file) and resolves once it answers `PING`. Throws, with its log,
 * when it exits or stays silent past the timeout.
 *
 * @example
 * ```ts ignore
 * await using redis = await startRedisServer();
 * const client = await createClient({ url: redis.url }).connect();
 * await redis.stop(); // the client's next command waits or fails
 * await redis.start(); // same port: the client reconnects
 * ```
 */
export async function startRedisServer(
  options: StartRedisServerOptions = {},
): Promise<RedisServer> {
  const binary = options.binary ?? toolPath("redis-server");
  if (binary === undefined) {
    throw new Error("redis-server is not available; expected its path in REDIS_SERVER_BIN.");
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const dir = await Deno.makeTempDir({ prefix: "redis_server_" });
  folders.add(dir);
  const logFile = `${dir}/redis.log`;
  let port = freePort();
  let child: Deno.ChildProcess | undefined;

  async function stop(): Promise<void> {
    const current = child;
    if (current === undefined) return;
    child = undefined;
    try {
      current.kill("SIGTERM");
    } catch {
      // Already exited.
    }
    if (await withTimeout(current.status, STOP_GRACE_MS) === "timeout") {
      try {
        current.kill("SIGKILL");
      } catch {
        // Exited just now.
      }
      await withTimeout(current.status, KILL_WAIT_MS);
    }
    live.delete(current);
  }

  async function output(): Promise<string> {
    return await Deno.readTextFile(logFile).catch(() => "");
  }

  async function start(): Promise<void> {
    if (child !== undefined) return;
    const started = new Deno.Command(binary!, {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--logfile",
        logFile,
        "--loglevel",
        "warning",
      ],
      cwd: dir,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child = started;
    live.add(started);
    let exited = false;
    started.status.then(() => exited = true);
    const deadline = Date.now() + timeoutMs;
    while (!await answersPing(port)) {
      if (exited || Date.now() > deadline) {
        await stop();
        throw new Error(
          `redis-server did not answer on port ${port}; expected PONG. Log:\n${await output()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  // Another process may take the free port between the probe and the start: try a few.
  for (let attempt = 1;; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 3) {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
        folders.delete(dir);
        throw error;
      }
      port = freePort();
    }
  }

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    output,
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      folders.delete(dir);
    },
  };
}
