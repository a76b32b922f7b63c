/**
 * The whole test task: static checks, then every test, then one plain summary
 * line (`N passed, N failed`) that CI reads. Each static check counts as one
 * test. Run with `deno task test`, or `deno task test tests/store/` for some
 * test files (the static checks still run).
 *
 * Test files run in parallel (`deno test --parallel`), `DENO_JOBS` at a time:
 * twice the CPU count by default, because most slow tests wait on servers,
 * browsers and timers rather than compute. The type check and the doc lint
 * run beside the tests, their output printed after.
 *
 * @module
 */

import { setupTools } from "./setup.ts";

const ENTRY_POINTS = [
  "mod.ts",
  "client.ts",
  "core.ts",
  "jose.ts",
  "testing.ts",
  "node.ts",
  "sql.ts",
];
const deno = Deno.execPath();

let passed = 0;
let failed = 0;
const failures: string[] = [];

// Test files that take seconds (servers, browsers, timeouts) start first, so that the parallel
// run does not end waiting on one of them; the rest follow in Deno's order.
const SLOW_FIRST = [
  "tests/browser/email_demo_browser_test.ts",
  "tests/browser/browser_test.ts",
  "tests/readme_test.ts",
  "tests/browser/two_factor_browser_test.ts",
  "tests/oauth/provider_failures_test.ts",
  "tests/store/redis_test.ts",
  "tests/store/redis_failover_test.ts",
  "tests/store/sql_test.ts",
  "tests/project_test.ts",
  "tests/node/types_test.ts",
  "tests/runtimes/runtimes_test.ts",
  "tests/node/node_handler_test.ts",
  "tests/store/memory_test.ts",
  "tests/store/deno_kv_test.ts",
  "tests/support/server_test.ts",
  "tests/e2e/examples_test.ts",
  "tests/oauth/oidc/jwks_test.ts",
  "tests/testing/check_store_test.ts",
];

async function run(label: string, args: string[], env?: Record<string, string>): Promise<boolean> {
  console.log(`\n== ${label}: deno ${args.join(" ")}`);
  const { code } = await new Deno.Command(deno, {
    args,
    env,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code === 0;
}

/** Runs a command with its output held back, for checks that run beside the tests. */
async function runQuiet(args: string[]): Promise<{ ok: boolean; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(deno, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { ok: code === 0, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

function count(label: string, ok: boolean): void {
  if (ok) {
    passed++;
  } else {
    failed++;
    failures.push(label);
  }
}

async function check(label: string, args: string[]): Promise<void> {
  count(label, await run(label, args));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The test paths to run: the slow files under `paths` first, then `paths` themselves. */
async function orderedTestPaths(paths: string[]): Promise<string[]> {
  const prefixes = paths.map((path) => path.replace(/^\.\//, "").replace(/\/?$/, "/"));
  const slow: string[] = [];
  for (const file of SLOW_FIRST) {
    if (prefixes.some((prefix) => file.startsWith(prefix)) && await exists(file)) slow.push(file);
  }
  return [...slow, ...paths];
}

/** Every module of the tests, benchmarks, scripts and examples, whose npm imports must be installed. */
async function devModules(): Promise<string[]> {
  const files: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name === "node_modules") continue;
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.(?:ts|mjs)$/.test(entry.name)) files.push(path);
    }
  }
  for (const dir of ["tests", "bench", "scripts", "examples"]) await walk(dir);
  return files.sort();
}

/** Counts test cases, failures and ignored ones in a JUnit report written by `deno test`. */
function countJUnit(xml: string): { tests: number; failures: number; skipped: number } {
  let tests = 0;
  let failuresCount = 0;
  let skipped = 0;
  for (const m of xml.matchAll(/<testcase\b[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    tests++;
    const body = m[2] ?? "";
    if (/<failure\b|<error\b/.test(body)) failuresCount++;
    else if (/<skipped\b/.test(body)) skipped++;
  }
  return { tests, failures: failuresCount, skipped };
}

const tools = await setupTools();

// deno.json has nodeModulesDir "manual": otherwise `deno task demo` would first download every
// locked npm package, test tools included. The dev packages are installed here instead.
console.log("\n== npm dev packages: deno install --entrypoint (tests/ bench/ scripts/ examples/)");
const installed = await new Deno.Command(deno, {
  args: ["install", "--quiet", "--entrypoint", ...await devModules()],
  stdin: "null",
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (!installed.success) {
  failed++;
  failures.push("npm dev packages");
}

// Format and lint read the whole tree, so they finish before tests write temporary files into it.
await check("format", ["fmt", "--check"]);
await check("lint", ["lint"]);

const quietChecks: [string, string[]][] = [
  ["type check", ["check", ...ENTRY_POINTS, "tests/", "bench/", "examples/", "scripts/"]],
  ["doc lint", ["doc", "--lint", ...ENTRY_POINTS]],
];
const quietResults = quietChecks.map(([, args]) => runQuiet(args));

const testPaths = Deno.args.length > 0 ? Deno.args : ["tests/"];
const jobs = Deno.env.get("DENO_JOBS") || String(2 * (navigator.hardwareConcurrency || 1));
const junit = await Deno.makeTempFile({ suffix: ".xml" });
const testsOk = await run(`tests (DENO_JOBS=${jobs})`, [
  "test",
  "-A",
  "--unstable-kv",
  "--no-check",
  "--parallel",
  `--junit-path=${junit}`,
  ...await orderedTestPaths(testPaths),
], { ...tools.env, DENO_JOBS: jobs });

for (const [index, [label, args]] of quietChecks.entries()) {
  const { ok, output } = await quietResults[index];
  console.log(`\n== ${label}: deno ${args.join(" ")}`);
  if (output !== "") console.log(output.trimEnd());
  count(label, ok);
}
let report = "";
try {
  report = await Deno.readTextFile(junit);
} catch {
  // No report means the runner itself failed before writing it.
}
await Deno.remove(junit).catch(() => {});
const counted = countJUnit(report);
passed += counted.tests - counted.failures - counted.skipped;
failed += counted.failures;
if (counted.failures > 0) failures.push(`${counted.failures} test case(s)`);
if (!testsOk && counted.failures === 0) {
  // The runner failed without a failing case (e.g. a module did not load).
  failed++;
  failures.push("test runner");
} else if (counted.tests === 0) {
  // A run that reports no test case (unreadable report, format change) must not read as green.
  failed++;
  failures.push("test report (no test cases counted)");
}

if (failures.length > 0) console.log(`\nFailed: ${failures.join(", ")}`);
const skipped = counted.skipped > 0 ? `, ${counted.skipped} skipped` : "";
console.log(`\n${passed} passed, ${failed} failed${skipped}`);
Deno.exit(failed === 0 ? 0 : 1);
