/**
 * The README's first hour, run as printed: the install before the first
 * release (a clone mapped by a Deno import map; the npm tarball built from
 * the clone and installed with npm) and the code blocks of the runtime and
 * session guides under docs/. Each guide server is byte-identical to a file
 * in `examples/guides/`, started as a real process (Deno in place; Node and
 * Bun from a staged copy with the npm build installed) and asked for
 * `GET /auth/session`. The Next.js files are type-checked against a
 * stand-in for `next/headers` (running them needs Next.js); the session
 * store modules run. tests/docs_test.ts type-checks every other block.
 *
 * @module
 */

import assert from "node:assert/strict";
import { stageApp } from "./support/npm_package.ts";
import { startRedisServer } from "./support/redis_server.ts";
import { freePort, REPO_ROOT } from "./support/server.ts";
import { missingTool, toolPath } from "./support/tools.ts";

const readme = await Deno.readTextFile(`${REPO_ROOT}/README.md`);

/** The text of a guide under docs/. */
async function doc(file: string): Promise<string> {
  return await Deno.readTextFile(`${REPO_ROOT}/docs/${file}`);
}
const denoJson = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`)) as {
  name: string;
  version: string;
  exports: Record<string, string>;
};

/** The environment every guide expects (see each guide's first block), with test values. */
const GUIDE_ENV = {
  AUTH_SECRET: "readme-guide-secret-0123456789-abcdefghij",
  GITHUB_CLIENT_ID: "readme-client-id",
  GITHUB_CLIENT_SECRET: "readme-client-secret",
};

interface Block {
  /** The guide it is in (`deno.md`), or a README section's heading. */
  heading: string;
  /** Its place among that guide's blocks, from 0. */
  index: number;
  info: string;
  code: string;
}

/** The text of the `## title` section, up to the next `## ` heading. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.notEqual(start, -1, `README has a "## ${title}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function blocksOf(text: string, top: string): Block[] {
  const blocks: Block[] = [];
  const counts = new Map<string, number>();
  let heading = top;
  for (const match of text.matchAll(/^### (.+)$|^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    if (match[1] !== undefined) {
      heading = match[1];
      continue;
    }
    const index = counts.get(heading) ?? 0;
    counts.set(heading, index + 1);
    blocks.push({ heading, index, info: match[2].trim(), code: match[3] });
  }
  return blocks;
}

/** Every block of a guide, numbered in order, whatever the headings. */
function guideBlocks(file: string, text: string): Block[] {
  return [...text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((match, index) => ({
    heading: file,
    index,
    info: match[1].trim(),
    code: match[2],
  }));
}

const NODE_GUIDES = "node.md";
const NEXT_JS = "nextjs.md";
const SESSIONS = "sessions.md";
const GUIDE_FILES = ["deno.md", "bun.md", NODE_GUIDES, NEXT_JS, SESSIONS];
const GUIDES: Block[] = [];
for (const file of GUIDE_FILES) GUIDES.push(...guideBlocks(file, await doc(file)));

function guide(heading: string, index: number): Block {
  const block = GUIDES.find((b) => b.heading === heading && b.index === index);
  assert.ok(block, `docs/${heading} has a code block #${index}`);
  return block;
}

/** A guide server: its README block, its file, and how to run it. */
interface GuideServer {
  heading: string;
  index: number;
  /** Relative to the repository root. */
  file: string;
  runtime: "deno" | "bun" | "node";
  /** npm packages the staged copy links besides this one. */
  packages?: string[];
}

const SERVERS: GuideServer[] = [
  { heading: "deno.md", index: 1, file: "examples/guides/deno/server.ts", runtime: "deno" },
  { heading: "bun.md", index: 1, file: "examples/guides/bun/server.js", runtime: "bun" },
  { heading: NODE_GUIDES, index: 1, file: "examples/guides/node/server.mjs", runtime: "node" },
  {
    heading: NODE_GUIDES,
    index: 2,
    file: "examples/guides/express/server.mjs",
    runtime: "node",
    packages: ["express"],
  },
  {
    heading: NODE_GUIDES,
    index: 3,
    file: "examples/guides/hono-node/server.mjs",
    runtime: "node",
    packages: ["hono", "@hono/node-server"],
  },
];

const ENV_BLOCK = "shell exports with placeholders (`...`), the values each run below sets";

/** Every other block of these guides, and what covers it. */
const OTHER_BLOCKS: Record<string, string> = {
  "deno.md #0": ENV_BLOCK,
  "bun.md #0": ENV_BLOCK,
  [`${NODE_GUIDES} #0`]: ENV_BLOCK,
  [`${NEXT_JS} #0`]: "the .env.local lines with placeholders (`...`)",
  [`${NEXT_JS} #1`]: "one shell assignment with a placeholder origin",
  [`${NEXT_JS} #2`]: "type-checked with #3 and #4; imported in next build's phase",
  [`${NEXT_JS} #3`]: "type-checked with #2 and #4; imported in next build's phase",
  [`${NEXT_JS} #4`]: "type-checked with #2 and #3",
  [`${SESSIONS} #0`]: "run as a module",
  [`${SESSIONS} #1`]: "run as a module against a real Redis",
  [`${SESSIONS} #2`]: "run as a module with Deno KV",
  [`${SESSIONS} #3`]:
    "type-checked (tests/docs_test.ts); tests/store/redis_test.ts and deno_kv_test.ts run two apps with their own prefixes",
  [`${SESSIONS} #4`]:
    "placeholder addresses, type-checked; tests/store/redis_cluster_test.ts runs createCluster + redisStore on a real three-node cluster",
  [`${SESSIONS} #5`]:
    "placeholder addresses, type-checked; tests/store/redis_cluster_test.ts runs ioredis Cluster + redisStore on a real three-node cluster",
};

Deno.test("every code block of the runtime and session guides is a guide server or covered here", () => {
  const covered = new Set([
    ...SERVERS.map((server) => `${server.heading} #${server.index}`),
    ...Object.keys(OTHER_BLOCKS),
  ]);
  const found = GUIDES.map((block) => `${block.heading} #${block.index}`);
  assert.deepEqual(found.sort(), [...covered].sort());
});

Deno.test("each guide server in docs/ is byte-identical to its file in examples/guides/", async () => {
  for (const server of SERVERS) {
    const block = guide(server.heading, server.index);
    assert.equal(block.code, await Deno.readTextFile(`${REPO_ROOT}/${server.file}`), server.file);
  }
});

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts `command` with `PORT` set, waits until `GET /auth/session` answers, checks that it is
 * 200 `null`, and stops the process (its whole group).
 */
async function checkServer(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<void> {
  const port = freePort();
  const child = new Deno.Command("setsid", {
    args: [command, ...args],
    cwd: options.cwd,
    env: { ...GUIDE_ENV, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", PORT: String(port) },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const collect = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(new WritableStream({ write: (bytes) => void (output += decoder.decode(bytes)) }))
      .catch(() => {});
  const streams = Promise.all([collect(child.stdout), collect(child.stderr)]);
  let exited = false;
  child.status.then(() => exited = true);
  try {
    const deadline = Date.now() + 60_000;
    let response: Response | undefined;
    while (response === undefined) {
      if (exited) throw new Error(`${args.join(" ")} exited before answering:\n${output}`);
      if (Date.now() > deadline) throw new Error(`${args.join(" ")} never answered:\n${output}`);
      try {
        response = await fetch(`http://127.0.0.1:${port}/auth/session`);
      } catch {
        await sleep(100);
      }
    }
    assert.equal(response.status, 200, output);
    assert.equal(await response.text(), "null");
  } finally {
    try {
      Deno.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    await child.status;
    await streams;
  }
}

for (const server of SERVERS) {
  const ignore = server.runtime !== "deno" && missingTool(server.runtime);
  Deno.test({
    name: `the ${server.file} guide server starts and answers GET /auth/session with 200 null`,
    ignore,
    async fn() {
      if (server.runtime === "deno") {
        // In place: deno.json maps the package's own name to the source.
        await checkServer(Deno.execPath(), ["run", "--allow-net", "--allow-env", server.file], {
          cwd: REPO_ROOT,
        });
        return;
      }
      const folder = server.file.slice(0, server.file.lastIndexOf("/"));
      const entry = server.file.slice(folder.length + 1);
      await using app = await stageApp(folder, { packages: server.packages });
      await checkServer(toolPath(server.runtime)!, [entry], { cwd: app.dir });
    },
  });
}

/** Writes files into a temporary Deno app whose import map points at this repository. */
async function denoApp(
  files: Record<string, string>,
  extraImports: Record<string, string> = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "readme_app_" });
  const imports: Record<string, string> = { ...extraImports };
  for (const [subpath, target] of Object.entries(denoJson.exports)) {
    imports[`${denoJson.name}${subpath.slice(1)}`] = `${REPO_ROOT}/${target.slice(2)}`;
  }
  const config = {
    imports,
    compilerOptions: { strict: true, lib: ["deno.ns", "dom", "dom.iterable", "esnext"] },
  };
  await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify(config, null, 2));
  for (const [path, text] of Object.entries(files)) {
    const file = `${dir}/${path}`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(file, text);
  }
  return dir;
}

async function deno(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ success: boolean; output: string }> {
  const kept: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) kept[name] = value;
  }
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    // Only what is given here: other test files run in this process and may set variables.
    clearEnv: true,
    env: { ...kept, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { success, output: `${decoder.decode(stdout)}${decoder.decode(stderr)}` };
}

/** The Next.js blocks as files, each at the path its first line names. */
function nextFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const index of [2, 3, 4]) {
    const block = guide(NEXT_JS, index);
    assert.equal(block.info, "ts");
    const path = /^\/\/ ([\w./[\]-]+\.ts)\b/.exec(block.code)?.[1];
    assert.ok(path, `Next.js block #${index} starts with a comment naming its file`);
    files[path] = block.code;
  }
  assert.deepEqual(Object.keys(files).sort(), [
    "app/auth/[...path]/route.ts",
    "lib/auth.ts",
    "lib/session.ts",
  ]);
  return files;
}

// Next.js's own declaration: `headers()` resolves the request's (read-only) headers.
const NEXT_HEADERS_STUB = "export declare function headers(): Promise<Headers>;\n";
// Next.js resolves \`@/lib/auth\` through tsconfig's paths and the extension itself.
const NEXT_IMPORTS = { "@/lib/auth": "./lib/auth.ts", "next/headers": "./next_headers.d.ts" };

Deno.test("the Next.js guide's files type-check (next/headers stood in for)", async () => {
  const dir = await denoApp(
    { ...nextFiles(), "next_headers.d.ts": NEXT_HEADERS_STUB },
    NEXT_IMPORTS,
  );
  try {
    const { success, output } = await deno(
      ["check", "--quiet", ...Object.keys(nextFiles())],
      dir,
    );
    assert.ok(success, output);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the Next.js guide's route module imports without secrets in next build's phase only", async () => {
  const files = nextFiles();
  const dir = await denoApp({
    "lib/auth.ts": files["lib/auth.ts"],
    "app/auth/[...path]/route.ts": files["app/auth/[...path]/route.ts"],
    "collect.ts": 'const route = await import("./app/auth/[...path]/route.ts");\n' +
      'console.log(Object.keys(route).sort().join(" "));\n',
  }, NEXT_IMPORTS);
  try {
    // --allow-env for the variables createAuth reads, none of which is set here.
    const args = ["run", "--no-check", "--allow-env", "--allow-read", "collect.ts"];
    const build = await deno(args, dir, { NEXT_PHASE: "phase-production-build" });
    assert.ok(build.success, build.output);
    // Every method a feature needs: DELETE for passkeys.
    assert.match(build.output, /^DELETE GET OPTIONS PATCH POST$/m);
    const start = await deno(args, dir, { NEXT_PHASE: "phase-production-server" });
    assert.equal(start.success, false);
    assert.match(start.output, /no secret was found/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs a guide's block as a module (imported by a wrapper that then exits) with Deno. */
async function runBlock(
  block: Block,
  options: { args?: string[]; env?: Record<string, string>; imports?: Record<string, string> },
): Promise<void> {
  const dir = await denoApp({
    "block.ts": block.code,
    "run.ts": 'await import("./block.ts");\nconsole.log("block ran");\nDeno.exit(0);\n',
  }, options.imports);
  try {
    const { success, output } = await deno(
      ["run", "--no-check", "-A", ...options.args ?? [], "run.ts"],
      dir,
      { ...GUIDE_ENV, ...options.env },
    );
    assert.ok(success, output);
    assert.match(output, /block ran/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the memory store block of the sessions guide runs", async () => {
  const block = guide(SESSIONS, 0);
  assert.match(block.code, /memoryStore\(\)/);
  await runBlock(block, {});
});

Deno.test("the Deno KV store block of the sessions guide runs with --unstable-kv", async () => {
  const block = guide(SESSIONS, 2);
  assert.match(block.code, /denoKvStore\(await Deno\.openKv\(\)\)/);
  // A fixed location keeps Deno.openKv() at one database instead of one per temporary folder.
  await runBlock(block, { args: ["--unstable-kv", "--location=https://readme-test.invalid/"] });
});

Deno.test({
  name: "the Redis store block of the sessions guide runs against a real Redis",
  ignore: missingTool("redis-server"),
  async fn() {
    const block = guide(SESSIONS, 1);
    assert.match(block.code, /redisStore\(client\)/);
    await using redis = await startRedisServer();
    await runBlock(block, { env: { REDIS_URL: redis.url }, imports: { redis: "npm:redis@6" } });
  },
});

// ---- Install, before the first release ----

/** The repository as a fresh clone has it: tracked and new, not ignored, files. */
async function cloneInto(dir: string): Promise<void> {
  const { stdout } = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: REPO_ROOT,
    stdout: "piped",
  }).output();
  for (const path of new TextDecoder().decode(stdout).split("\0").filter(Boolean)) {
    if (path.startsWith(".readme_examples_")) continue;
    const target = `${dir}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    // A file deleted in the working tree is not in the clone either.
    await Deno.copyFile(`${REPO_ROOT}/${path}`, target).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
}

const INSTALL = blocksOf(section("Install"), "Install");

/** Imports every entry point by its package name and prints each one's export count. */
function importEveryEntry(): string {
  const names = Object.keys(denoJson.exports).map((subpath) =>
    `${denoJson.name}${subpath.slice(1)}`
  );
  return `for (const name of ${JSON.stringify(names)}) {\n` +
    "  console.log(`${name}: ${Object.keys(await import(name)).length}`);\n}\n";
}

Deno.test("install before the first release, Deno: the README's import map serves every entry point", async () => {
  const map = INSTALL.find((block) => block.info === "json");
  assert.ok(map, "the Install section has a deno.json block");
  const root = await Deno.makeTempDir({ prefix: "readme_install_deno_" });
  try {
    await cloneInto(`${root}/service-stack-auth`);
    await Deno.mkdir(`${root}/my-app`);
    await Deno.writeTextFile(`${root}/my-app/deno.json`, map.code);
    await Deno.writeTextFile(`${root}/my-app/main.ts`, importEveryEntry());
    const quickStart = blocksOf(section("Quick start"), "Quick start")[0];
    await Deno.writeTextFile(`${root}/my-app/quick_start.ts`, quickStart.code);
    const checked = await deno(["check", "--quiet", "main.ts", "quick_start.ts"], `${root}/my-app`);
    assert.ok(checked.success, checked.output);
    const ran = await deno(["run", "--allow-read", "main.ts"], `${root}/my-app`);
    assert.ok(ran.success, ran.output);
    for (const subpath of Object.keys(denoJson.exports)) {
      assert.match(ran.output, new RegExp(`^${denoJson.name}${subpath.slice(1)}: [1-9]`, "m"));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Runs one line of the README with bash in `cwd`; `tools` are put on `PATH` under their names. */
async function bash(line: string, cwd: string, tools: Record<string, string> = {}): Promise<void> {
  // Tools found through the environment (e.g. BUN_BIN, a file named bun.exe) become commands.
  const bin = await Deno.makeTempDir({ prefix: "readme_bin_" });
  for (const [name, binary] of Object.entries(tools)) await Deno.symlink(binary, `${bin}/${name}`);
  const { success, stdout, stderr } = await new Deno.Command("bash", {
    args: ["-euo", "pipefail", "-c", line],
    cwd,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", PATH: `${bin}:${Deno.env.get("PATH")}` },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(bin, { recursive: true });
  const decoder = new TextDecoder();
  assert.ok(success, `${line}\n${decoder.decode(stdout)}${decoder.decode(stderr)}`);
}

Deno.test({
  name: "install before the first release, Node: the README's tarball steps work verbatim",
  ignore: missingTool("node"),
  async fn() {
    const steps = INSTALL.find((block) => block.info === "sh" && block.code.includes("npm pack"));
    assert.ok(steps, "the Install section has the tarball steps");
    const lines = steps.code.split("\n").filter((line) => line.trim() !== "");
    const build = lines.filter((line) => line.includes("build:npm"));
    const npm = lines.filter((line) => line.includes("npm install"));
    const bun = lines.filter((line) => line.includes("bun add"));
    assert.deepEqual([build.length, npm.length, bun.length, lines.length], [1, 1, 1, 3]);
    // The tarball's name follows the version in deno.json.
    assert.ok(npm[0].includes(`service-stack-auth-${denoJson.version}.tgz`), npm[0]);

    const root = await Deno.makeTempDir({ prefix: "readme_install_npm_" });
    try {
      await cloneInto(`${root}/service-stack-auth`);
      await bash(build[0], root);
      const apps: [string, string, string][] = [["node", npm[0], toolPath("node")!]];
      const bunPath = toolPath("bun");
      if (bunPath !== undefined) apps.push(["bun", bun[0], bunPath]);
      for (const [runtime, line, binary] of apps) {
        await Deno.remove(`${root}/my-app`, { recursive: true }).catch(() => {});
        await Deno.mkdir(`${root}/my-app`);
        await bash(line, root, { [runtime]: binary });
        // A copy of the package, not a link into the clone.
        const installed = await Deno.lstat(`${root}/my-app/node_modules/@service-stack/auth`);
        assert.ok(installed.isDirectory && !installed.isSymlink, runtime);
        await Deno.writeTextFile(`${root}/my-app/check.mjs`, importEveryEntry());
        const { success, stdout, stderr } = await new Deno.Command(binary, {
          args: ["check.mjs"],
          cwd: `${root}/my-app`,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).output();
        const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
        assert.ok(success, `${runtime}: ${output}`);
        for (const subpath of Object.keys(denoJson.exports)) {
          assert.match(output, new RegExp(`^${denoJson.name}${subpath.slice(1)}: [1-9]`, "m"));
        }
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
