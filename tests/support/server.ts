/**
 * Starts an HTTP server as a subprocess under Deno, Bun or Node, waits for the
 * line it prints once it listens, and stops it reliably.
 *
 * Contract for a server entry (the examples and the stand-in fixtures): read
 * the port from `PORT` (`0` picks a free one), bind 127.0.0.1 and print
 * `listening on http://127.0.0.1:PORT` once it accepts connections.
 *
 * @module
 */

import { type Tool, toolPath } from "./tools.ts";

/** A runtime that can run a server entry. */
export type Runtime = "deno" | "bun" | "node";

/** Repository root, absolute, without a trailing slash. */
export const REPO_ROOT: string = decodeURIComponent(new URL("../../", import.meta.url).pathname)
  .replace(/\/$/, "");

/** Options for {@linkcode startServer}. */
export interface StartServerOptions {
  /** Port passed as `PORT`; `0` (the default) lets the server pick a free one. */
  port?: number;
  /** Extra environment for the server, on top of the inherited one. */
  env?: Record<string, string>;
  /** Working directory; defaults to the repository root. */
  cwd?: string;
  /** Runtime flags placed before the entry (e.g. `["--unstable-kv"]` for Deno). */
  runtimeArgs?: string[];
  /** How long to wait for the listening line; defaults to 20 s. */
  timeoutMs?: number;
}

/** A server subprocess; `await using` stops it at the end of the scope. */
export interface RunningServer extends AsyncDisposable {
  /** Origin the server announced, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Port taken from {@linkcode RunningServer.url}. */
  port: number;
  /** Process id of the subprocess. */
  pid: number;
  /** Everything the server printed so far, stdout and stderr interleaved (last 64 KiB). */
  output(): string;
  /** Stops the server (SIGTERM, then SIGKILL after a grace period); safe to call twice. */
  stop(): Promise<void>;
}

// Matches `listening on http://127.0.0.1:8000` and Deno's default `Listening on http://...`.
const LISTENING = /listening on (https?:\/\/[^\s/]+)/i;
const OUTPUT_LIMIT = 64 * 1024;
const STOP_GRACE_MS = 3_000;
const KILL_WAIT_MS = 5_000;

const live = new Set<Deno.ChildProcess>();
// Kills servers left running if the test process exits without stopping them.
globalThis.addEventListener("unload", () => {
  for (const child of live) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }
});

/**
 * Returns the command that runs `entry` under `runtime`, or `undefined` when
 * the runtime is not available (see `scripts/setup.ts`).
 *
 * @example
 * ```ts ignore
 * runtimeCommand("deno", "examples/deno/main.ts");
 * // { command: "/path/to/deno", args: ["run", "-A", "examples/deno/main.ts"] }
 * ```
 */
export function runtimeCommand(
  runtime: Runtime,
  entry: string,
  runtimeArgs: string[] = [],
): { command: string; args: string[] } | undefined {
  if (runtime === "deno") {
    return { command: Deno.execPath(), args: ["run", "-A", ...runtimeArgs, entry] };
  }
  const binary = toolPath(runtime satisfies Tool);
  if (binary === undefined) return undefined;
  return { command: binary, args: [...runtimeArgs, entry] };
}

/**
 * Returns a port that was free on 127.0.0.1 a moment ago, for servers that
 * must know their URL before they start (e.g. for an OAuth redirect URI).
 *
 * @example
 * ```ts ignore
 * const port = freePort();
 * await using server = await startServer("deno", "main.ts", { port });
 * ```
 */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Starts `entry` under `runtime` with `PORT` set, waits for its
 * `listening on http://HOST:PORT` line and returns where it listens. Throws,
 * with the server's output, when it exits or stays silent past the timeout.
 *
 * @example
 * ```ts ignore
 * await using server = await startServer("node", "examples/node/server.mjs");
 * const response = await fetch(`${server.url}/auth/session`);
 * ```
 */
export async function startServer(
  runtime: Runtime,
  entry: string,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const command = runtimeCommand(runtime, entry, options.runtimeArgs);
  if (command === undefined) {
    throw new Error(`Runtime ${runtime} is not available; expected its path in the environment.`);
  }
  const child = new Deno.Command(command.command, {
    args: command.args,
    cwd: options.cwd ?? REPO_ROOT,
    env: {
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      PORT: String(options.port ?? 0),
      ...options.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  live.add(child);

  let output = "";
  let announce: (url: string) => void = () => {};
  const announced = new Promise<string>((resolve) => announce = resolve);
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];

  async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
    const reader = stream.getReader();
    readers.push(reader);
    const decoder = new TextDecoder();
    let pending = "";
    try {
      while (true) {
        const { value: bytes, done } = await reader.read();
        if (done) break;
        const value = decoder.decode(bytes, { stream: true });
        output = (output + value).slice(-OUTPUT_LIMIT);
        pending += value;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          const match = LISTENING.exec(line);
          // Servers bound to every interface are reached through loopback.
          if (match) announce(match[1].replace("0.0.0.0", "127.0.0.1").replace("[::]", "[::1]"));
        }
      }
    } catch {
      // The reader was cancelled while stopping.
    }
  }
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);

  let stopping: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopping ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already exited.
      }
      if (await withTimeout(child.status, STOP_GRACE_MS) === "timeout") {
        try {
          child.kill("SIGKILL");
        } catch {
          // Exited just now.
        }
        await withTimeout(child.status, KILL_WAIT_MS);
      }
      live.delete(child);
      // A grandchild may still hold the pipes open; do not wait on it forever.
      if (await withTimeout(drained, 1_000) === "timeout") {
        await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
      }
    })();
    return stopping;
  }

  const timeoutMs = options.timeoutMs ?? 20_000;
  const outcome = await withTimeout(
    Promise.race([
      announced,
      child.status.then((status) => ({ exited: status.code })),
    ]),
    timeoutMs,
  );
  if (typeof outcome !== "string" || outcome === "timeout") {
    await stop();
    const why = outcome === "timeout"
      ? `printed no "listening on http://..." line within ${timeoutMs} ms`
      : `exited with code ${outcome.exited} before listening`;
    throw new Error(
      `The ${runtime} server ${entry} ${why}; expected it to listen. Output:\n${output}`,
    );
  }
  const url = outcome;
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid,
    output: () => output,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
