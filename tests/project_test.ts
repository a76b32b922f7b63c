// The README as the JSR page: install and quick start first, then what the library does (each
// capability linked to its guide under docs/) and the reference; the repository's commands in a
// "Develop" section near the end, and docs/develop.md's steps, each working verbatim on a fresh
// copy; the tasks and CI behind them; the publish workflow. tests/docs_test.ts checks the blocks
// and links of every page.
import assert from "node:assert/strict";
import { REPO_ROOT } from "./support/server.ts";
import { missingTool } from "./support/tools.ts";

const TEST_COMMAND = "npx -y deno@2 task test";
const DEMO_COMMAND = "npx -y deno@2 task demo";
const INSTALL_COMMANDS = [
  "deno add jsr:@service-stack/auth",
  "npx jsr add @service-stack/auth",
  "bunx jsr add @service-stack/auth",
];

interface CodeBlock {
  /** The info string after the opening fence, e.g. `ts` or `ts ignore`. */
  info: string;
  code: string;
  /** Offset of the opening fence in the README. */
  at: number;
}

const readme = await Deno.readTextFile(`${REPO_ROOT}/README.md`);
const develop = await Deno.readTextFile(`${REPO_ROOT}/docs/develop.md`);

function codeBlocks(markdown: string): CodeBlock[] {
  return [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    info: match[1].trim(),
    code: match[2],
    at: match.index!,
  }));
}

/** The text of the `## title` section, up to the next `## ` heading. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.notEqual(start, -1, `README has a "## ${title}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function topHeadings(): string[] {
  return [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
}

Deno.test("the README opens with the install, whose JSR commands are labelled for after the first release", async () => {
  const { name } = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`));
  assert.equal(name, "@service-stack/auth");
  assert.equal(topHeadings()[0], "Install");
  // The clone and tarball steps before the release are run by tests/readme_test.ts.
  const install = section("Install");
  const jsr = codeBlocks(install).at(-1)!;
  assert.equal(jsr.info, "sh");
  const commands = jsr.code.split("\n").map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line !== "");
  assert.deepEqual(commands, INSTALL_COMMANDS);
  assert.match(install.slice(0, jsr.at), /\*\*From the first release on\*\*[^\n]*\n*$/);
  assert.match(install, /\*\*Until the first release\*\*/);
});

Deno.test("the README's quick start follows the install: five lines of TypeScript", () => {
  assert.equal(topHeadings()[1], "Quick start");
  const quickStart = codeBlocks(section("Quick start"))[0];
  assert.equal(quickStart.info, "ts");
  const lines = quickStart.code.split("\n").filter((line) => line.trim() !== "");
  assert.equal(lines.length, 5, quickStart.code);
  assert.match(quickStart.code, /from "@service-stack\/auth"/);
});

Deno.test("what it does comes before the reference, and the runtime guides in the order of issue 11", async () => {
  const headings = topHeadings();
  assert.ok(headings.indexOf("What it does") > headings.indexOf("Quick start"));
  assert.ok(headings.indexOf("What it does") < headings.indexOf("Reference"));
  const order = ["docs/deno.md", "docs/bun.md", "docs/node.md", "docs/nextjs.md"].map((file) =>
    readme.indexOf(`](${file})`)
  );
  assert.ok(order.every((at) => at !== -1), "every runtime guide is linked");
  assert.deepEqual([...order].sort((a, b) => a - b), order);
  assert.match(await Deno.readTextFile(`${REPO_ROOT}/docs/node.md`), /toNodeHandler/);
  const testing = await Deno.readTextFile(`${REPO_ROOT}/docs/testing.md`);
  for (const helper of [/signInAs/, /createMockProvider/, /createTestFetch/]) {
    assert.match(testing, helper);
  }
});

Deno.test("the README says what mod.ts is against core.ts in three sentences", () => {
  const text = section("The main entry and `/core`").split("\n").slice(2).join(" ").trim();
  const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z`])/);
  assert.equal(sentences.length, 3, text);
  assert.match(text, /@service-stack\/auth\/core/);
  assert.match(text, /features/);
});

Deno.test("the Develop section, near the end, holds the demo and test commands", () => {
  const headings = topHeadings();
  assert.deepEqual(headings.slice(-2), ["Develop", "License"]);
  const [first] = codeBlocks(section("Develop"));
  assert.equal(first.info, "sh");
  assert.ok(first.code.includes(DEMO_COMMAND), "demo command in the Develop section's first block");
  assert.ok(first.code.includes(TEST_COMMAND), "test command in the Develop section's first block");
  // Nothing before Develop tells a JSR reader to run repository tasks.
  const before = readme.slice(0, readme.indexOf("\n## Develop\n"));
  assert.equal(before.includes(DEMO_COMMAND), false);
  assert.equal(before.includes(TEST_COMMAND), false);
});

Deno.test("the README links only to https pages, its own headings and published docs", () => {
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
  assert.ok(links.length > 0);
  for (const target of links) {
    assert.ok(
      target.startsWith("#") || /^https:\/\//.test(target) ||
        /^(?:docs\/[\w/-]+\.md|CHANGELOG\.md)(?:#[\w-]+)?$/.test(target),
      `link to ${target}`,
    );
  }
});

Deno.test("each mention of an example in the README and docs/ says it lives in the repository", async () => {
  for (const file of ["README.md", ...await markdownUnder("docs")]) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
    for (const mention of prose.matchAll(/examples\/[\w./-]+/g)) {
      const paragraph = prose.slice(
        prose.lastIndexOf("\n\n", mention.index!),
        prose.indexOf("\n\n", mention.index!),
      );
      assert.match(paragraph, /repository/, `${file}: the paragraph naming ${mention[0]}`);
    }
  }
});

async function markdownUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await markdownUnder(path));
    else if (entry.name.endsWith(".md")) files.push(path);
  }
  return files;
}

Deno.test("every anchor link of the README names one of its headings", () => {
  const slugs = new Set(
    [...readme.matchAll(/^#{2,3} (.+)$/gm)].map((match) =>
      match[1].toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-")
    ),
  );
  for (const match of readme.matchAll(/\]\(#([^)]+)\)/g)) {
    assert.ok(slugs.has(match[1]), `#${match[1]} is a heading`);
  }
});

Deno.test("the demo task runs the Deno example and the test task runs the test script", async () => {
  const { tasks } = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`));
  assert.match(tasks.demo, /\bexamples\/deno\/main\.ts\b/);
  assert.match(tasks.test, /\bscripts\/test\.ts\b/);
});

Deno.test(".ci/run runs exactly the README's test command", async () => {
  const script = await Deno.readTextFile(`${REPO_ROOT}/.ci/run`);
  const commands = script.split("\n").map((line) => line.trim()).filter((line) =>
    line !== "" && !line.startsWith("#") && !line.startsWith("set ") && !line.startsWith("cd ") &&
    !line.startsWith("export ")
  );
  assert.deepEqual(commands.filter((line) => !line.startsWith("#!")), [TEST_COMMAND]);
  assert.match(script, /DENO_NO_UPDATE_CHECK=1/);
});

Deno.test("the publish workflow publishes to JSR with provenance on v* tags", async () => {
  const workflow = await Deno.readTextFile(`${REPO_ROOT}/.github/workflows/publish.yml`);
  assert.match(workflow, /^on:\n\s+push:\n\s+tags:\n\s+- "v\*"$/m);
  assert.match(workflow, /^permissions:\n\s+contents: read\n\s+id-token: write$/m);
  assert.match(workflow, /^\s+- run: npx jsr publish$/m);
});

/** The repository as a fresh clone has it: tracked and new, not ignored, files. */
async function copyOfRepository(): Promise<string> {
  const { stdout } = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: REPO_ROOT,
    stdout: "piped",
  }).output();
  const dir = await Deno.makeTempDir({ prefix: "fresh_clone_" });
  for (const path of new TextDecoder().decode(stdout).split("\0").filter(Boolean)) {
    if (path.startsWith(".readme_examples_")) continue;
    const target = `${dir}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    // A file deleted in the working tree is not in the clone either.
    await Deno.copyFile(`${REPO_ROOT}/${path}`, target).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
  return dir;
}

/** Runs one documented command line with bash in `cwd`, in its own process group. */
function spawnLine(line: string, cwd: string, env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command("setsid", {
    args: ["bash", "-c", `exec ${line}`],
    cwd,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Reads a server's output until it announces its URL; throws with the output after `ms`. */
async function listeningURL(child: Deno.ChildProcess, ms: number): Promise<string> {
  let output = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  const errors = child.stderr.pipeTo(
    new WritableStream({ write: (bytes) => void (output += decoder.decode(bytes)) }),
  ).catch(() => {});
  const timer = setTimeout(() => reader.cancel(), ms);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value, { stream: true });
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) return match[1];
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
    void errors;
  }
  throw new Error(`The server printed no "listening on" line; its output:\n${output}`);
}

Deno.test({
  name: "docs/develop.md's steps for Node, Express, Hono and Bun work verbatim on a fresh clone",
  ignore: missingTool("node"),
  async fn() {
    const steps = codeBlocks(develop)[1];
    assert.equal(steps.info, "sh");
    const lines = steps.code.split("\n").filter((line) => line.trim() !== "");
    const isServer = (line: string) => /^(?:node|npx -y bun@1) examples\//.test(line);
    const setup = lines.filter((line) => !isServer(line));
    const servers = lines.filter(isServer);
    assert.deepEqual(servers.map((line) => line.split(" ").at(-1)), [
      "examples/node/server.mjs",
      "examples/express/server.mjs",
      "examples/hono-node/server.mjs",
      "examples/bun/server.ts",
    ]);
    const dir = await copyOfRepository();
    try {
      const prepared = await new Deno.Command("bash", {
        args: ["-euo", "pipefail", "-c", setup.join("\n")],
        cwd: dir,
        env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const decoder = new TextDecoder();
      assert.ok(
        prepared.success,
        `${decoder.decode(prepared.stdout)}${decoder.decode(prepared.stderr)}`,
      );
      for (const line of servers) {
        // A secret from the developer's shell must not leak into the servers.
        const child = spawnLine(line, dir, { PORT: "0", AUTH_SECRET: "", SECRET: "" });
        try {
          const url = await listeningURL(child, 60_000);
          const session = await fetch(`${url}/auth/session`);
          assert.equal(session.status, 200, line);
          assert.equal(await session.text(), "null", line);
          const page = await fetch(`${url}/`);
          assert.match(await page.text(), /Running on <strong id="runtime">/, line);
        } finally {
          try {
            Deno.kill(-child.pid, "SIGTERM");
          } catch {
            // Already gone.
          }
          await child.status;
          await child.stdout.cancel().catch(() => {});
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
