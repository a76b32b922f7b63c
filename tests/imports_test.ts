import assert from "node:assert/strict";

const ENTRY_POINTS = ["mod.ts", "client.ts", "core.ts", "jose.ts", "testing.ts", "node.ts"];
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

/**
 * The layers of `src/`, lowest first: a module may import its own layer or a
 * lower one, never a higher one. Data flows one way: Request -> route table
 * -> route -> core operations -> Response.
 */
const LAYERS: readonly [number, RegExp][] = [
  [
    0,
    /^(jose\.ts|src\/(types|errors|is_record|body|env|logger|standard_schema|session_cache|http|request_target|user_fields|error_page)\.ts|src\/(jose|crypto)\/.*)$/,
  ],
  [
    1,
    /^src\/(cookies|origins|oauth|store|email|webauthn|two_factor|accounts|rate_limit|sso|service_tokens)\/.*$/,
  ],
  [2, /^src\/(config\.ts|config\/.*)$/],
  [3, /^src\/http_context\.ts$/],
  [4, /^src\/core\/.*$/],
  [5, /^src\/(router|api)\.ts|src\/routes\/.*$/],
  [6, /^src\/(handler\.ts|features\/.*)$/],
  [7, /^src\/create_auth\.ts$/],
  [8, /^(mod|core|testing|node|redis|deno_kv|sql)\.ts|src\/(testing|node)\/.*$/],
];

function layerOf(file: string): number | undefined {
  return LAYERS.find(([, pattern]) => pattern.test(file))?.[0];
}

function resolveImport(from: string, specifier: string): string {
  return new URL(specifier, `file:///${from}`).pathname.slice(1);
}

Deno.test("no server module imports one above its layer, and only the handler and features import routes/", async () => {
  const offenders: string[] = [];
  for (const file of await libraryFiles()) {
    if (file === "client.ts" || file.startsWith("src/client/")) continue;
    const own = layerOf(file);
    if (own === undefined) {
      offenders.push(`${file}: in no layer`);
      continue;
    }
    const text = stripComments(await Deno.readTextFile(file));
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1]);
      const layer = layerOf(target);
      if (layer !== undefined && layer > own) offenders.push(`${file} -> ${target}`);
      const intoRoutes = target.startsWith("src/routes/") && !file.startsWith("src/routes/");
      // The handler joins the route table; a feature (src/features/) brings its own routes.
      const joinsRoutes = file === "src/handler.ts" || file.startsWith("src/features/");
      if (intoRoutes && !joinsRoutes) offenders.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

/** The relative imports of each file of `src/`, type imports and re-exports included. */
async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await libraryFiles()) {
    if (!file.startsWith("src/")) continue;
    const text = stripComments(await Deno.readTextFile(file));
    const targets = [...text.matchAll(IMPORT)]
      .filter((m) => m[1].startsWith("./") || m[1].startsWith("../"))
      .map((m) => resolveImport(file, m[1]));
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The import cycles of a graph, one per strongly connected component of more
 * than one file (or a file importing itself), each as its files sorted.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  function visit(file: string): void {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) cycles.push(component.sort());
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

Deno.test("no module of src/ is part of an import cycle, type imports included", async () => {
  assert.deepEqual(importCycles(await importGraph()), []);
});

Deno.test("the cycle check finds a circle through a type import and passes a chain", () => {
  const circle = new Map([
    ["src/a.ts", ["src/b.ts"]],
    ["src/b.ts", ["src/c.ts"]],
    ["src/c.ts", ["src/a.ts", "src/types.ts"]],
    ["src/types.ts", []],
  ]);
  assert.deepEqual(importCycles(circle), [["src/a.ts", "src/b.ts", "src/c.ts"]]);
  const chain = new Map([["src/a.ts", ["src/b.ts"]], ["src/b.ts", ["src/c.ts"]], ["src/c.ts", []]]);
  assert.deepEqual(importCycles(chain), []);
  // A type import is an import like any other for the check.
  const found = [...stripComments('import type { X } from "./x.ts";').matchAll(IMPORT)];
  assert.deepEqual(found.map((m) => m[1]), ["./x.ts"]);
});
