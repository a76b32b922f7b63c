/**
 * A throwaway `redis-server` (Debian's package, found through
 * `REDIS_SERVER_BIN`) on a free loopback port, with no persistence and no
 * config file. It can be stopped and started again on the same port, so that
 * tests can take Redis away under a connected client and bring it back.
 * {@linkcode startRedisCluster} joins several into a Redis Cluster with
 * `redis-cli --cluster create` (`redis-cli` beside `redis-server`, or
 * `REDIS_CLI_BIN`).
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
  /** Picks the port to try (again after a failed start); defaults to any free port. */
  pickPort?: () => number;
  /** More `redis-server` arguments, e.g. `["--cluster-enabled", "yes"]`. */
  args?: string[];
}

/** A running `redis-server`; `await using` stops it and removes its folder. */
export interface RedisServer extends AsyncDisposable {
  /** The loopback port it listens on, the same after {@linkcode RedisServer.start}. */
  port: number;
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Stops the server (SIGTERM, then SIGKILL); connected clients lose their connection. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would: no goodbye to clients or replicas. */
  kill(): Promise<void>;
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
  const pickPort = options.pickPort ?? freePort;
  let port = pickPort();
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

  async function kill(): Promise<void> {
    const current = child;
    if (current === undefined) return;
    child = undefined;
    try {
      current.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await withTimeout(current.status, KILL_WAIT_MS);
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
        ...(options.args ?? []),
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
      port = pickPort();
    }
  }

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    kill,
    start,
    output,
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      folders.delete(dir);
    },
  };
}

/** Options for {@linkcode startRedisCluster}. */
export interface StartRedisClusterOptions {
  /** How many masters; defaults to 3, the fewest Redis accepts. */
  masters?: number;
  /** Replicas of each master (`--cluster-replicas`); defaults to 0. */
  replicas?: number;
  /** `cluster-node-timeout`, after which an unreachable master fails over; defaults to 5000 ms. */
  nodeTimeoutMs?: number;
  /** The `redis-server` binary; defaults to `REDIS_SERVER_BIN`. */
  binary?: string;
  /** The `redis-cli` binary; defaults to {@linkcode redisCliPath}. */
  cli?: string;
  /** How long to wait for the cluster to report `cluster_state:ok`; defaults to 20 s. */
  timeoutMs?: number;
}

/** A running Redis Cluster of masters on loopback; `await using` stops every node. */
export interface RedisCluster extends AsyncDisposable {
  /** The nodes, each a {@linkcode RedisServer} with its own port (its bus on port + 10000). */
  nodes: RedisServer[];
  /** Runs `redis-cli -p <port> <args>` against one node and resolves its output. */
  cli(port: number, args: string[]): Promise<string>;
  /** Deletes every key on every node. */
  flush(): Promise<void>;
  /** Stops every node. */
  stop(): Promise<void>;
}

/**
 * The `redis-cli` binary: `REDIS_CLI_BIN`, else the one beside
 * `REDIS_SERVER_BIN`; `undefined` when neither exists.
 *
 * @example
 * ```ts ignore
 * const cli = redisCliPath(); // "/usr/bin/redis-cli"
 * ```
 */
export function redisCliPath(): string | undefined {
  const server = toolPath("redis-server");
  const candidates = [
    Deno.env.get("REDIS_CLI_BIN"),
    server === undefined ? undefined : server.replace(/redis-server$/, "redis-cli"),
  ];
  for (const path of candidates) {
    if (path === undefined || path === "") continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // Not there: try the next one.
    }
  }
  return undefined;
}

let clusterToolsReported = false;

/**
 * Says whether Redis Cluster tests must be ignored (no `redis-server` or no
 * `redis-cli`), printing one `skipped:` line with the reason the first time.
 *
 * @example
 * ```ts ignore
 * Deno.test({ name: "cluster", ignore: missingClusterTools(), fn: async () => {} });
 * ```
 */
export function missingClusterTools(): boolean {
  const server = toolPath("redis-server");
  const cli = redisCliPath();
  if (server !== undefined && cli !== undefined) return false;
  if (!clusterToolsReported) {
    clusterToolsReported = true;
    console.log(
      server === undefined
        ? "skipped: no redis-server for the Redis Cluster tests (REDIS_SERVER_BIN is unset; run `deno task setup`)"
        : "skipped: no redis-cli for the Redis Cluster tests (none beside REDIS_SERVER_BIN and REDIS_CLI_BIN is unset)",
    );
  }
  return true;
}

// A cluster node also listens on port + 10000 (the cluster bus), which must be free too.
const BUS_OFFSET = 10_000;

/** Whether nothing listens on `port` of 127.0.0.1 right now. */
function portIsFree(port: number): boolean {
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return true;
  } catch {
    return false;
  }
}

/** A free loopback port whose bus port (port + 10000) is free as well. */
export function freeClusterPort(): number {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * (65_535 - BUS_OFFSET - 20_000));
    if (portIsFree(port) && portIsFree(port + BUS_OFFSET)) return port;
  }
  throw new Error("No free pair of loopback ports found; expected port and port + 10000 free.");
}

async function run(binary: string, args: string[], timeoutMs = 10_000): Promise<string> {
  const child = new Deno.Command(binary, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).spawn();
  const { code, stdout, stderr } = await child.output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  if (code !== 0) {
    throw new Error(
      `${binary} ${args.join(" ")} exited with ${code}; expected 0. Output:\n${text}`,
    );
  }
  return text;
}

/**
 * Starts a Redis Cluster of `masters` nodes, each with `replicas` replicas,
 * on free loopback ports (each with its bus port free too), joins them with
 * `redis-cli --cluster create ... --cluster-replicas <replicas> --cluster-yes`
 * and resolves once every node reports `cluster_state:ok` and knows every
 * other. Which node is a master is for `CLUSTER NODES` to say. A failure on the way
 * stops whatever had started.
 *
 * @example
 * ```ts ignore
 * await using cluster = await startRedisCluster();
 * const client = await createCluster({
 *   rootNodes: cluster.nodes.map((node) => ({ url: node.url })),
 * }).connect();
 * ```
 */
export async function startRedisCluster(
  options: StartRedisClusterOptions = {},
): Promise<RedisCluster> {
  const cli = options.cli ?? redisCliPath();
  if (cli === undefined) {
    throw new Error(
      "redis-cli is not available; expected it beside redis-server or in REDIS_CLI_BIN.",
    );
  }
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const total = masters * (1 + replicas);
  const timeoutMs = options.timeoutMs ?? 20_000;
  const nodes: RedisServer[] = [];

  const cliAt = (port: number, args: string[]) =>
    run(cli, ["-h", "127.0.0.1", "-p", String(port), ...args]);
  async function stop(): Promise<void> {
    await Promise.all(nodes.map((node) => node[Symbol.asyncDispose]()));
  }

  try {
    // Started together (each on its own free port pair); whatever started is stopped on failure.
    const started = await Promise.allSettled(
      Array.from({ length: total }, () =>
        startRedisServer({
          binary: options.binary,
          pickPort: freeClusterPort,
          args: [
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
            "--cluster-node-timeout",
            String(options.nodeTimeoutMs ?? 5000),
            // A replica's first sync starts at once, not after the default 5 s wait for more replicas.
            "--repl-diskless-sync-delay",
            "0",
          ],
        })),
    );
    for (const result of started) if (result.status === "fulfilled") nodes.push(result.value);
    const failed = started.find((result) => result.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    await run(cli, [
      "--cluster",
      "create",
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      "--cluster-replicas",
      String(replicas),
      "--cluster-yes",
    ], timeoutMs);
    const deadline = Date.now() + timeoutMs;
    for (const node of nodes) {
      for (;;) {
        const info = await cliAt(node.port, ["CLUSTER", "INFO"]);
        if (
          info.includes("cluster_state:ok") && info.includes(`cluster_known_nodes:${total}`) &&
          info.includes("cluster_slots_ok:16384")
        ) {
          break;
        }
        if (Date.now() > deadline) {
          throw new Error(`The cluster did not become ready; expected cluster_state:ok.\n${info}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    // redis-cli can leave a replica unassigned (a master without slots) when its CLUSTER
    // REPLICATE races the handshake: give each master lacking one a spare node here.
    while (replicas > 0) {
      const rows = (await cliAt(nodes[0].port, ["CLUSTER", "NODES"])).trim().split("\n")
        .map((line) => line.trim().split(" "));
      const isMaster = (row: string[]) => row[2].includes("master");
      const needy = rows.filter((row) =>
        isMaster(row) && row.length > 8 &&
        rows.filter((other) => other[3] === row[0]).length < replicas
      );
      const spare = rows.find((row) => isMaster(row) && row.length <= 8);
      if (needy.length === 0 || spare === undefined) break;
      if (Date.now() > deadline) {
        throw new Error("A replica could not be assigned; expected CLUSTER REPLICATE to succeed.");
      }
      const port = Number(spare[1].split("@")[0].split(":")[1]);
      // "Unknown node" until gossip reaches the spare: tried again below.
      await cliAt(port, ["CLUSTER", "REPLICATE", needy[0][0]]).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A replica that never synced refuses to fail over: wait until each holds its master's data.
    for (const node of replicas > 0 ? nodes : []) {
      for (;;) {
        const info = await cliAt(node.port, ["INFO", "replication"]);
        if (info.includes("role:master") || info.includes("master_link_status:up")) break;
        if (Date.now() > deadline) {
          throw new Error(`A replica did not sync; expected master_link_status:up.\n${info}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    nodes,
    cli: cliAt,
    async flush() {
      await Promise.all(nodes.map((node) => cliAt(node.port, ["FLUSHALL"])));
    },
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}
