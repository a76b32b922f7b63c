import assert from "node:assert/strict";

const ENTRY_POINTS = ["mod.ts", "client.ts", "jose.ts", "testing.ts"];
const IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s+\*\s+from\s*)["']([^"']+)["']/g;

/** Source text without comments, so that JSDoc `@example` imports are not counted. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

async function libraryFiles(): Promise<string[]> {
  const files = [...ENTRY_POINTS];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".ts")) files.push(path);
    }
  }
  await walk("src");
  return files;
}

Deno.test("library code imports only relative files", async () => {
  const offenders: string[] = [];
  for (const file of await libraryFiles()) {
    const text = stripComments(await Deno.readTextFile(file));
    for (const m of text.matchAll(IMPORT)) {
      if (!m[1].startsWith("./") && !m[1].startsWith("../")) offenders.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("the import check catches non-relative specifiers in code but not in doc comments", () => {
  const sample =
    `/**\n * import { y } from "@service-stack/auth";\n */\nimport { x } from "npm:jose";\n` +
    `export * from "jsr:@std/assert";\nconst m = await import("node:fs");`;
  const found = [...stripComments(sample).matchAll(IMPORT)].map((m) => m[1]);
  assert.deepEqual(found, ["npm:jose", "jsr:@std/assert", "node:fs"]);
});
