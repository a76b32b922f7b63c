/**
 * The package as it is published: `deno publish --dry-run` passes and ships the entry points,
 * `src/`, the README, the changelog, the docs tree and the license (nothing of tests/ or
 * examples/); the npm build (scripts/build_npm.ts) packs with `npm pack` into the tarball the
 * README's Install names, with the same documents. The version is 0.x and the changelog has an
 * entry for it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { buildNpm } from "../scripts/build_npm.ts";
import { REPO_ROOT } from "./support/server.ts";
import { missingTool, toolPath } from "./support/tools.ts";

const denoJson = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`)) as {
  name: string;
  version: string;
};

async function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ success: boolean; output: string }> {
  const { success, stdout, stderr } = await new Deno.Command(command, {
    args,
    cwd,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { success, output: `${decoder.decode(stdout)}${decoder.decode(stderr)}` };
}

/** The Markdown files of the docs tree, relative to the repository root. */
async function docsFiles(dir = "docs"): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await docsFiles(path));
    else if (entry.name.endsWith(".md")) files.push(path);
  }
  return files.sort();
}

Deno.test("the version is 0.x and the changelog has an entry for it", async () => {
  assert.match(denoJson.version, /^0\.\d+\.\d+$/);
  const changelog = await Deno.readTextFile(`${REPO_ROOT}/CHANGELOG.md`);
  assert.match(changelog, new RegExp(`^## ${denoJson.version.replaceAll(".", "\\.")}\\b`, "m"));
  const entry = changelog.slice(changelog.indexOf(`## ${denoJson.version}`));
  const section = entry.slice(0, entry.indexOf("\n## ", 1));
  assert.match(section, /^### Breaking$/m, "what breaks");
  assert.match(section, /signInCredentials/);
});

Deno.test("deno publish --dry-run passes and ships the docs, the changelog and no tests", async () => {
  const { success, output } = await run(
    Deno.execPath(),
    ["publish", "--dry-run", "--allow-dirty"],
    REPO_ROOT,
  );
  assert.ok(success, output);
  assert.match(output, new RegExp(`${denoJson.name}@${denoJson.version.replaceAll(".", "\\.")}`));
  const shipped = [...output.matchAll(/file:\/\/\S+?\/((?:[\w.-]+\/)*[\w.-]+) \(/g)]
    .map((match) => match[1]);
  const root = REPO_ROOT.replace(/^\//, "");
  const files = shipped.map((path) => path.startsWith(root) ? path.slice(root.length + 1) : path);
  for (const file of ["README.md", "CHANGELOG.md", "LICENSE", "mod.ts", ...await docsFiles()]) {
    assert.ok(
      output.includes(`${REPO_ROOT}/${file} (`),
      `${file} is published:\n${files.join("\n")}`,
    );
  }
  assert.doesNotMatch(output, /\/(?:tests|examples|bench|scripts)\//);
});

Deno.test({
  name: "npm pack of the npm build writes the tarball the README names, with the docs",
  ignore: missingTool("node"),
  async fn() {
    const npm = `${toolPath("node")!.replace(/\/node$/, "")}/npm`;
    const npmCommand = await Deno.stat(npm).then(() => npm, () => "npm");
    const dir = await Deno.makeTempDir({ prefix: "npm_pack_" });
    try {
      const { outDir } = await buildNpm({ outDir: `${dir}/package`, log: () => {} });
      const packed = await run(npmCommand, ["pack", outDir, "--json"], dir);
      if (!packed.success && /ENOENT|not found/.test(packed.output)) {
        console.log(`skipped: npm pack (npm not found): ${packed.output.slice(0, 200)}`);
        return;
      }
      assert.ok(packed.success, packed.output);
      const tarball = `service-stack-auth-${denoJson.version}.tgz`;
      assert.ok((await Deno.stat(`${dir}/${tarball}`)).isFile, tarball);
      const readme = await Deno.readTextFile(`${REPO_ROOT}/README.md`);
      assert.ok(readme.includes(`service-stack-auth/${tarball}`), "the README installs it");
      const listed = (JSON.parse(packed.output.slice(packed.output.indexOf("["))) as {
        files: { path: string }[];
      }[])[0].files.map((file) => file.path);
      for (const file of ["README.md", "CHANGELOG.md", "LICENSE", "mod.js", "mod.d.ts"]) {
        assert.ok(listed.includes(file), `${file} in the tarball`);
      }
      for (const file of await docsFiles()) {
        assert.ok(listed.includes(file), `${file} in the tarball`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
