/**
 * Installs what the test task needs beyond Deno itself, so that one command
 * works on a fresh machine with only Node.js and npm. Everything it installs
 * is dev-only; the library has no runtime dependencies.
 *
 * Each tool is optional: when one cannot be found or installed, its variable
 * is left unset and the tests that need it are ignored with a `skipped:` line.
 * Run alone with `deno run -A scripts/setup.ts`.
 *
 * @module
 */

/** Paths of optional tools, exposed to the tests through the environment. */
export interface Tools {
  /** Extra environment for the test run (e.g. `BUN_BIN`, `CHROMIUM_BIN`, `REDIS_SERVER_BIN`, `REDIS_CLI_BIN`, `POSTGRES_BIN`). */
  env: Record<string, string>;
}

const ROOT = new URL("../", import.meta.url);
const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const REDIS_SERVER_CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];
const REDIS_CLI_CANDIDATES = ["/usr/bin/redis-cli", "/usr/local/bin/redis-cli"];
// Debian's postgresql package keeps the server and initdb under a folder per major version.
const POSTGRES_CANDIDATES = [18, 17, 16, 15, 14, 13].map((major) =>
  `/usr/lib/postgresql/${major}/bin/postgres`
);
// Bounds every external command so that a hung install cannot stall the test run.
const APT_UPDATE_TIMEOUT_MS = 90_000;
const APT_INSTALL_TIMEOUT_MS = 4 * 60_000;
const NPM_TIMEOUT_MS = 3 * 60_000;
const PROBE_TIMEOUT_MS = 20_000;

interface RunResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** Runs a command without stdin, capturing output, killed after `timeoutMs`. */
async function runQuiet(
  cmd: string,
  args: string[],
  options: { timeoutMs: number; env?: Record<string, string> },
): Promise<RunResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args,
      env: options.env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return { ok: false, stdout: "", stderr: String(error) };
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }, options.timeoutMs);
  try {
    const out = await child.output();
    const decoder = new TextDecoder();
    return {
      ok: out.success,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Returns the first line `binary --version` prints, or null when it does not run. */
async function probeVersion(binary: string): Promise<string | null> {
  const result = await runQuiet(binary, ["--version"], { timeoutMs: PROBE_TIMEOUT_MS });
  if (!result.ok) return null;
  return result.stdout.trim().split("\n")[0] ?? "";
}

function lastLines(text: string, count = 3): string {
  return text.trim().split("\n").slice(-count).join(" | ");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Returns the first of `candidates` that runs, with its version. */
async function firstRunning(
  candidates: string[],
): Promise<{ binary: string; version: string } | null> {
  for (const binary of candidates) {
    const version = await probeVersion(binary);
    if (version !== null) return { binary, version };
  }
  return null;
}

/** Paths where the npm package `bun` may leave a native binary. */
async function bunCandidates(prefix: string): Promise<string[]> {
  // The package's postinstall replaces bin/bun.exe with the native binary; when
  // install scripts are disabled the platform package still holds it.
  const candidates = [`${prefix}/node_modules/bun/bin/bun.exe`];
  try {
    for await (const entry of Deno.readDir(`${prefix}/node_modules/@oven`)) {
      candidates.push(`${prefix}/node_modules/@oven/${entry.name}/bin/bun`);
    }
  } catch {
    // Not installed yet.
  }
  return candidates;
}

/** Finds a working Bun under `toolsDir/bun`, installing `bun@1` from npm when absent. */
async function setupBun(toolsDir: string, log: (line: string) => void): Promise<string | null> {
  const prefix = `${toolsDir}/bun`;
  let found = await firstRunning(await bunCandidates(prefix));
  let how = "cached";
  if (found === null) {
    how = "installed from npm";
    await Deno.mkdir(prefix, { recursive: true });
    const result = await runQuiet("npm", [
      "install",
      "--prefix",
      prefix,
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--loglevel=error",
      "bun@1",
    ], { timeoutMs: NPM_TIMEOUT_MS });
    if (!result.ok) {
      log(`bun: not available (npm install bun@1 failed: ${lastLines(result.stderr)})`);
      return null;
    }
    found = await firstRunning(await bunCandidates(prefix));
  }
  if (found === null) {
    log(`bun: not available (no runnable binary under ${prefix}/node_modules)`);
    return null;
  }
  log(`bun: ${found.version} (${how}) at ${found.binary}`);
  return found.binary;
}

/** Installs Debian packages with apt-get, running `apt-get update` at most once per setup. */
type AptInstall = (packages: string[]) => Promise<{ ok: boolean; detail: string }>;

/** Returns an installer that serializes apt runs and shares one `apt-get update`. */
function aptInstaller(): AptInstall {
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  // Waits for another apt run (e.g. a parallel setup) instead of failing on its lock.
  const lock = ["-o", "DPkg::Lock::Timeout=180"];
  let updated: Promise<RunResult> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return (packages) => {
    const run = queue.then(async () => {
      if (Deno.uid() !== 0) return { ok: false, detail: "not root, so no apt-get" };
      updated ??= runQuiet("apt-get", [...lock, "update", "-qq"], {
        timeoutMs: APT_UPDATE_TIMEOUT_MS,
        env,
      });
      const update = await updated;
      const install = await runQuiet("apt-get", [
        ...lock,
        "install",
        "-y",
        "-qq",
        "--no-install-recommends",
        ...packages,
      ], { timeoutMs: APT_INSTALL_TIMEOUT_MS, env });
      if (install.ok) return { ok: true, detail: "" };
      const hint = update.ok ? "" : ` after a failed apt-get update: ${lastLines(update.stderr)}`;
      return { ok: false, detail: `apt-get install failed: ${lastLines(install.stderr)}${hint}` };
    });
    queue = run.catch(() => {});
    return run;
  };
}

async function firstExisting(candidates: string[]): Promise<string | null> {
  for (const path of candidates) {
    if (await exists(path)) return path;
  }
  return null;
}

/** Finds a tool in `candidates`, installing Debian's `aptPackage` when absent and running as root. */
async function setupAptTool(
  tool: { name: string; aptPackage: string; candidates: string[] },
  apt: AptInstall,
  log: (line: string) => void,
): Promise<string | null> {
  let binary = await firstExisting(tool.candidates);
  let how = "found";
  if (binary === null) {
    how = "installed with apt-get";
    const installed = await apt([tool.aptPackage]);
    if (!installed.ok) {
      log(`${tool.name}: not available (not installed; ${installed.detail})`);
      return null;
    }
    binary = await firstExisting(tool.candidates);
    if (binary === null) {
      log(`${tool.name}: not available (apt-get succeeded but no binary was found)`);
      return null;
    }
  }
  const version = await probeVersion(binary);
  if (version === null) {
    log(`${tool.name}: not available (${binary} does not run)`);
    return null;
  }
  log(`${tool.name}: ${version} (${how}) at ${binary}`);
  return binary;
}

/**
 * `redis-server`, then `redis-cli` (Debian's redis-tools), which joins servers into a
 * Redis Cluster for the cluster and failover tests: the one beside `redis-server` first.
 */
async function setupRedis(
  apt: AptInstall,
  log: (line: string) => void,
): Promise<[string | null, string | null]> {
  const server = await setupAptTool(
    { name: "redis-server", aptPackage: "redis-server", candidates: REDIS_SERVER_CANDIDATES },
    apt,
    log,
  );
  if (server === null) return [null, null];
  const beside = server.replace(/redis-server$/, "redis-cli");
  const cli = await setupAptTool(
    { name: "redis-cli", aptPackage: "redis-tools", candidates: [beside, ...REDIS_CLI_CANDIDATES] },
    apt,
    log,
  );
  return [server, cli];
}

/** Finds `node` on PATH. */
async function setupNode(log: (line: string) => void): Promise<string | null> {
  const version = await probeVersion("node");
  if (version === null) {
    log("node: not available (no `node` on PATH)");
    return null;
  }
  const which = await runQuiet("node", ["-p", "process.execPath"], {
    timeoutMs: PROBE_TIMEOUT_MS,
  });
  const binary = which.ok ? which.stdout.trim() : "node";
  log(`node: ${version} at ${binary}`);
  return binary;
}

/**
 * Prepares dev-only tools and returns the environment the tests read them from:
 * `BUN_BIN`, `CHROMIUM_BIN`, `NODE_BIN`, `REDIS_SERVER_BIN`, `REDIS_CLI_BIN` and `POSTGRES_BIN`,
 * each set only
 * when the tool runs.
 * Idempotent and quiet; the slow installs run concurrently and only the first time.
 *
 * @example Pass the tools to a test run
 * ```ts ignore
 * import { setupTools } from "./setup.ts";
 *
 * const { env } = await setupTools();
 * await new Deno.Command(Deno.execPath(), { args: ["test", "-A"], env }).output();
 * ```
 */
export async function setupTools(): Promise<Tools> {
  const toolsDir = decodeURIComponent(new URL(".tools", ROOT).pathname);
  const started = performance.now();
  // Lines are buffered per tool so that the concurrent setups print in a fixed order.
  const lines: string[][] = [[], [], [], [], []];
  const apt = aptInstaller();
  const [bun, chromium, node, [redis, redisCli], postgres] = await Promise.all([
    setupBun(toolsDir, (line) => lines[0].push(line)),
    setupAptTool(
      { name: "chromium", aptPackage: "chromium", candidates: CHROMIUM_CANDIDATES },
      apt,
      (line) => lines[1].push(line),
    ),
    setupNode((line) => lines[2].push(line)),
    setupRedis(apt, (line) => lines[3].push(line)),
    setupAptTool(
      { name: "postgres", aptPackage: "postgresql", candidates: POSTGRES_CANDIDATES },
      apt,
      (line) => lines[4].push(line),
    ),
  ]);
  for (const line of lines.flat()) console.log(line);
  console.log(`setup: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const env: Record<string, string> = {};
  if (bun !== null) env.BUN_BIN = bun;
  if (chromium !== null) env.CHROMIUM_BIN = chromium;
  if (node !== null) env.NODE_BIN = node;
  if (redis !== null) env.REDIS_SERVER_BIN = redis;
  if (redisCli !== null) env.REDIS_CLI_BIN = redisCli;
  if (postgres !== null) env.POSTGRES_BIN = postgres;
  return { env };
}

if (import.meta.main) {
  const { env } = await setupTools();
  for (const [name, value] of Object.entries(env)) console.log(`${name}=${value}`);
}
