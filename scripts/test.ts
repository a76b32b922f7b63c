/**
 * The whole test task: static checks, then every test, then one plain summary
 * line (`N passed, N failed`) that CI reads. Each static check counts as one
 * test. Run with `deno task test`.
 *
 * @module
 */

import { setupTools } from "./setup.ts";

const ENTRY_POINTS = ["mod.ts", "client.ts", "jose.ts", "testing.ts", "node.ts"];
const deno = Deno.execPath();

let passed = 0;
let failed = 0;
const failures: string[] = [];

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

async function check(label: string, args: string[]): Promise<void> {
  if (await run(label, args)) {
    passed++;
  } else {
    failed++;
    failures.push(label);
  }
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

await check("format", ["fmt", "--check"]);
await check("lint", ["lint"]);
await check("type check", ["check", ...ENTRY_POINTS, "tests/", "bench/", "examples/", "scripts/"]);
await check("doc lint", ["doc", "--lint", ...ENTRY_POINTS]);

const junit = await Deno.makeTempFile({ suffix: ".xml" });
const testsOk = await run("tests", [
  "test",
  "-A",
  "--unstable-kv",
  "--no-check",
  `--junit-path=${junit}`,
  "tests/",
], tools.env);
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
