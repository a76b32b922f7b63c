/**
 * The documentation holds: README.md and every page under docs/. Every
 * ```ts block is a complete module that type-checks, or is byte for byte a
 * TypeScript file under examples/ (which `deno check examples/` checks and a
 * test runs); the testing guide's tests pass when run; every relative link
 * points to a file that exists (and is published with the package) and to a
 * heading of it; the README stays short.
 *
 * @module
 */

import assert from "node:assert/strict";
import { REPO_ROOT } from "./support/server.ts";

/** A fenced code block of a Markdown file. */
export interface DocBlock {
  /** The file, relative to the repository root (`docs/email.md`). */
  file: string;
  /** Its line number in the file (of the opening fence). */
  line: number;
  /** The info string after the opening fence (`ts`, `sh`, ...). */
  info: string;
  code: string;
}

/** README.md and every Markdown file under docs/, relative to the repository root, sorted. */
export async function docFiles(): Promise<string[]> {
  const files = ["README.md"];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".md")) files.push(path);
    }
  }
  await walk("docs");
  return files.sort();
}

/** The fenced code blocks of a Markdown text. */
export function blocksOf(file: string, markdown: string): DocBlock[] {
  return [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    file,
    line: markdown.slice(0, match.index).split("\n").length,
    info: match[1].trim(),
    code: match[2],
  }));
}

/** The blocks of one documentation file. */
export async function docBlocks(file: string): Promise<DocBlock[]> {
  return blocksOf(file, await Deno.readTextFile(`${REPO_ROOT}/${file}`));
}

/** Every text file under examples/ (not node_modules), by path relative to the repository root. */
async function exampleFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory && entry.name !== "node_modules") await walk(path);
      else if (entry.isFile && /\.(?:ts|mjs|js)$/.test(entry.name)) {
        files.set(path, await Deno.readTextFile(`${REPO_ROOT}/${path}`));
      }
    }
  }
  await walk("examples");
  return files;
}

/** Modules a documentation example may import; the type check resolves each. */
const CHECKABLE_IMPORT =
  /^(?:@service-stack\/auth(?:\/[\w-]+)?|hono|express|redis|ioredis|pg|postgres|node:[\w/]+)$/;

/** npm packages the repository's deno.json does not map, as the type check resolves them. */
const NPM_SPECIFIERS: Record<string, string> = {
  redis: "npm:redis@4",
  ioredis: "npm:ioredis@5",
};

/** The Next.js guide's files: type-checked against a stand-in for `next/headers` by readme_test.ts. */
const NEXT_JS_GUIDE = "docs/nextjs.md";

/** The names an example declares at its top level. */
function topLevelNames(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/^(?:const|let|function|async function|class) (\w+)/gm)) {
    names.add(match[1]);
  }
  for (const match of code.matchAll(/^(?:const|let) \{([^}]*)\}/gm)) {
    for (const part of match[1].split(",")) {
      const name = part.split(":").at(-1)!.split("=")[0].trim().replace(/^\.\.\./, "");
      if (name !== "") names.add(name);
    }
  }
  return [...names];
}

/** Every TypeScript block of the documentation. */
async function typeScriptBlocks(): Promise<DocBlock[]> {
  const blocks: DocBlock[] = [];
  for (const file of await docFiles()) {
    blocks.push(...(await docBlocks(file)).filter((block) => /^ts\b/.test(block.info)));
  }
  return blocks;
}

/** The examples/ file a block is, byte for byte, if any. */
function exampleOf(block: DocBlock, examples: Map<string, string>): string | undefined {
  for (const [path, text] of examples) if (text === block.code) return path;
  return undefined;
}

/**
 * Writes blocks as modules inside the repository (so that deno.json maps the package name to
 * the source), runs `deno <args> <files>` on them, and returns whether it succeeded.
 */
async function runOnBlocks(
  blocks: DocBlock[],
  args: string[],
): Promise<{ success: boolean; output: string }> {
  const dir = await Deno.makeTempDir({ dir: REPO_ROOT, prefix: ".readme_examples_" });
  try {
    const files: string[] = [];
    for (const block of blocks) {
      const name = block.file.replace(/[/.]/g, "_");
      const file = `${dir}/${name}_line_${block.line}_test.ts`;
      // Deno KV is typed by the unstable lib, which `--unstable-kv` (as the guides say) brings.
      let code = block.code.includes("Deno.openKv(")
        ? `/// <reference lib="deno.unstable" />\n${block.code}`
        : block.code;
      for (const [bare, specifier] of Object.entries(NPM_SPECIFIERS)) {
        code = code.replaceAll(`from "${bare}";`, `from "${specifier}";`);
      }
      // Exported, so that noUnusedLocals accepts an example's unused results.
      const names = topLevelNames(block.code).filter((name) =>
        !new RegExp(`^export (?:const|let|function|async function|class) ${name}\\b`, "m")
          .test(block.code)
      );
      await Deno.writeTextFile(
        file,
        names.length === 0 ? code : `${code}\nexport { ${names.join(", ")} };\n`,
      );
      files.push(file);
    }
    const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [...args, ...files],
      cwd: REPO_ROOT,
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return { success, output: `${decoder.decode(stdout)}${decoder.decode(stderr)}` };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("no documentation block is marked ignore: each is checked, run, or not TypeScript", async () => {
  for (const file of await docFiles()) {
    for (const block of await docBlocks(file)) {
      assert.doesNotMatch(block.info, /\bignore\b/, `${file}:${block.line}`);
    }
  }
});

Deno.test("every ts block of the README and docs/ type-checks or is a TypeScript file under examples/", async () => {
  const examples = await exampleFiles();
  const standalone: DocBlock[] = [];
  const fromExamples = new Set<string>();
  for (const block of await typeScriptBlocks()) {
    const where = `${block.file}:${block.line}`;
    const example = exampleOf(block, examples);
    if (example !== undefined) {
      assert.match(example, /\.ts$/, `${where} is ${example}, which deno check does not check`);
      fromExamples.add(example);
      continue;
    }
    if (block.file === NEXT_JS_GUIDE) continue;
    // A complete module: its imports are all at the top and each one resolves.
    assert.match(block.code, /^(?:\/\/[^\n]*\n)*import /, `${where} starts with its imports`);
    for (const match of block.code.matchAll(/^import [^"]*"([^"]+)";$/gm)) {
      assert.match(match[1], CHECKABLE_IMPORT, `${where} imports ${match[1]}`);
    }
    standalone.push(block);
  }
  assert.ok(standalone.length >= 25, `${standalone.length} standalone modules`);
  assert.ok(fromExamples.size >= 3, `${[...fromExamples]}`);
  const checked = await runOnBlocks(standalone, ["check", "--quiet", "--unstable-kv"]);
  assert.ok(checked.success, checked.output);
  const files = [...fromExamples].map((path) => `${REPO_ROOT}/${path}`);
  const examplesChecked = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--unstable-kv", ...files],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(examplesChecked.success, new TextDecoder().decode(examplesChecked.stderr));
});

Deno.test("the testing guide's tests pass when run", async () => {
  const tests = (await docBlocks("docs/testing.md")).filter((block) =>
    block.info === "ts" && block.code.includes("Deno.test(")
  );
  assert.equal(tests.length, 4, "signInAs, the mock provider, createTestFetch and checkStore");
  const { success, output } = await runOnBlocks(tests, ["test", "--no-check", "--quiet"]);
  assert.ok(success, output);
  assert.match(output, /\b4 passed\b/);
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
export function slugOf(heading: string): string {
  return heading.toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slugOf(match[1])));
}

/** The files the package publishes beside code (deno.json publish.include). */
async function published(): Promise<(path: string) => boolean> {
  const { publish } = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`)) as {
    publish: { include: string[] };
  };
  const patterns = publish.include.map((glob) =>
    new RegExp(
      `^${glob.replace(/[.]/g, "\\.").replace(/\*\*\//g, "(?:.*/)?").replace(/\*/g, "[^/]*")}$`,
    )
  );
  return (path) => patterns.some((pattern) => pattern.test(path));
}

Deno.test("every relative link of the README and docs/ reaches a published file and a heading of it", async () => {
  const isPublished = await published();
  let count = 0;
  for (const file of await docFiles()) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1];
      if (/^https:\/\//.test(target)) continue;
      assert.doesNotMatch(target, /^[a-z]+:/, `${file} links to ${target}: https or relative`);
      count++;
      const [path, anchor] = target.split("#");
      const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
      const resolved = path === ""
        ? file
        : new URL(path, `file:///${dir === "" ? "" : `${dir}/`}`).pathname.slice(1);
      const where = `${file}: (${target})`;
      let linked: string;
      try {
        linked = await Deno.readTextFile(`${REPO_ROOT}/${resolved}`);
      } catch {
        throw new assert.AssertionError({ message: `${where}: ${resolved} does not exist` });
      }
      assert.ok(isPublished(resolved), `${where}: ${resolved} is not in publish.include`);
      if (anchor !== undefined) {
        assert.ok(anchorsOf(linked).has(anchor), `${where}: no heading #${anchor} in ${resolved}`);
      }
    }
  }
  assert.ok(count >= 60, `${count} relative links`);
});

Deno.test("every page under docs/ is reached from the README or the docs index", async () => {
  const index = await Deno.readTextFile(`${REPO_ROOT}/docs/README.md`);
  const readme = await Deno.readTextFile(`${REPO_ROOT}/README.md`);
  for (const file of await docFiles()) {
    if (file === "README.md" || file === "docs/README.md") continue;
    const fromIndex = file.slice("docs/".length);
    assert.ok(
      index.includes(`](${fromIndex})`) || readme.includes(`](${file})`),
      `${file} is linked from docs/README.md or README.md`,
    );
  }
});

Deno.test("the README is short: at most 300 lines, its capabilities each linked to a guide", async () => {
  const readme = await Deno.readTextFile(`${REPO_ROOT}/README.md`);
  const lines = readme.split("\n").length - 1;
  assert.ok(lines <= 300, `${lines} lines`);
  for (
    const guide of [
      "docs/oauth-providers.md",
      "docs/sessions.md",
      "docs/email.md",
      "docs/passkeys.md",
      "docs/two-factor.md",
      "docs/testing.md",
      "docs/accounts.md",
      "docs/rate-limits.md",
      "docs/sso.md",
      "docs/service-tokens.md",
      "docs/sql-store.md",
      "docs/redis-cluster.md",
      "docs/reference/security.md",
    ]
  ) {
    assert.ok(readme.includes(`](${guide})`), `README links to ${guide}`);
  }
});
