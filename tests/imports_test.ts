import assert from "node:assert/strict";

const ENTRY_POINTS = ["mod.ts", "client.ts", "jose.ts", "testing.ts"];
const IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s+\*\s+from\s*)["']([^"']+)["']/g;

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
    const text = await Deno.readTextFile(file);
    for (const m of text.matchAll(IMPORT)) {
      if (!m[1].startsWith("./") && !m[1].startsWith("../")) offenders.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("the import check catches a non-relative specifier", () => {
  const sample = `import { x } from "npm:jose";\nexport * from "jsr:@std/assert";`;
  const found = [...sample.matchAll(IMPORT)].map((m) => m[1]);
  assert.deepEqual(found, ["npm:jose", "jsr:@std/assert"]);
});
