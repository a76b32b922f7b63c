/**
 * Builds the module as JSR serves it to npm users: ES modules plus `.d.ts`
 * files in `dist/npm/`, with a `package.json` whose `exports` mirror the ones
 * in `deno.json`. Run with `deno task build:npm`; Node, Bun and browsers can
 * then import `dist/npm/` as the package `@service-stack/auth`.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only tool; deno.json has no import map.
import ts from "npm:typescript@5";

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
const EXTRA_FILES = ["README.md", "CHANGELOG.md", "LICENSE"];
// The README links into it: the guides and the reference travel with the package.
const DOCS_DIR = "docs";

/** Options for {@linkcode buildNpm}. */
export interface BuildNpmOptions {
  /** Repository root holding `deno.json`; defaults to this script's parent folder. */
  root?: string;
  /** Output folder, emptied first; defaults to `dist/npm` under the root. */
  outDir?: string;
  /** Receives one line per notice; defaults to `console.log`. */
  log?: (line: string) => void;
}

/** What {@linkcode buildNpm} produced. */
export interface BuildNpmResult {
  /** Absolute path of the output folder. */
  outDir: string;
  /** Files written, relative to `outDir`, sorted. */
  files: string[];
  /** TypeScript diagnostics, one line each; the build still emits when there are some. */
  diagnostics: string[];
}

interface DenoConfig {
  name: string;
  version: string;
  license?: string;
  exports: Record<string, string>;
}

/** The entry points (one per export in `deno.json`) and every module under `src/`. */
async function sourceFiles(root: string, config: DenoConfig): Promise<string[]> {
  const files = Object.values(config.exports).map((target) => `${root}/${target.slice(2)}`);
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.push(path);
    }
  }
  await walk(`${root}/src`);
  return files;
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const relative = prefix + entry.name;
    if (entry.isDirectory) files.push(...await listFiles(`${dir}/${entry.name}`, `${relative}/`));
    else files.push(relative);
  }
  return files.sort();
}

/** Maps `./mod.ts` to `./mod`, the output path without its extension. */
function withoutTsExtension(path: string): string {
  if (!path.endsWith(".ts")) {
    throw new Error(
      `Export "${path}" in deno.json is not a .ts file; expected every export to end in .ts.`,
    );
  }
  return path.slice(0, -3);
}

/**
 * The npm `package.json` for the built module, derived from `deno.json`. The
 * package is ESM only: `import` works on every Node 20, `require()` only
 * where Node can require ES modules (20.19 and 22.12 on), hence `engines`.
 * The top-level `main` and `types` serve tools that ignore `exports`, such as
 * TypeScript's `node10` resolution; subpaths resolve there as `client.d.ts`
 * and so on at the package root.
 */
function packageJson(config: DenoConfig): Record<string, unknown> {
  const exports: Record<string, { types: string; import: string; default: string }> = {};
  for (const [subpath, target] of Object.entries(config.exports)) {
    const base = withoutTsExtension(target);
    exports[subpath] = { types: `${base}.d.ts`, import: `${base}.js`, default: `${base}.js` };
  }
  const main = exports["."];
  return {
    name: config.name,
    version: config.version,
    ...(config.license ? { license: config.license } : {}),
    type: "module",
    sideEffects: false,
    engines: { node: ">=20.19" },
    ...(main ? { main: main.import, types: main.types } : {}),
    exports,
  };
}

// Relative `.ts` specifiers in declarations, which TypeScript leaves as written; statements
// start at column 0 in emitted declarations, so JSDoc examples stay untouched.
const DECLARATION_IMPORTS = [
  /^((?:import|export|\})[^\n]*?\bfrom\s*["']\.{1,2}\/[^"'\n]*?)(?<!\.d)\.ts(["'])/gm,
  /(\bimport\(\s*["']\.{1,2}\/[^"'\n]*?)(?<!\.d)\.ts(["']\s*\))/g,
];

/** Writes one emitted file, pointing declaration imports at `.js` as npm consumers expect. */
function writeOutput(fileName: string, text: string): void {
  let content = text;
  if (fileName.endsWith(".d.ts")) {
    for (const pattern of DECLARATION_IMPORTS) content = content.replace(pattern, "$1.js$2");
  }
  Deno.mkdirSync(fileName.slice(0, fileName.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(fileName, content);
}

function formatDiagnostic(diagnostic: ts.Diagnostic, root: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const file = diagnostic.file.fileName.replace(`${root}/`, "");
  return `${file}:${line + 1}:${character + 1}: ${message}`;
}

/**
 * Transpiles the entry points and `src/**` to ES2022 modules with declarations,
 * rewriting relative `.ts` imports to `.js`, and writes `package.json`.
 * Type errors are reported but do not stop the emit: `deno check` owns them.
 *
 * @example Build and import with Node
 * ```ts ignore
 * import { buildNpm } from "./build_npm.ts";
 *
 * const { outDir, files } = await buildNpm();
 * console.log(`${files.length} files in ${outDir}`);
 * ```
 */
export async function buildNpm(options: BuildNpmOptions = {}): Promise<BuildNpmResult> {
  const root = options.root ?? ROOT;
  const outDir = options.outDir ?? `${root}/dist/npm`;
  const log = options.log ?? console.log;
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`)) as DenoConfig;
  if (`${root}/`.startsWith(`${outDir.replace(/\/$/, "")}/`)) {
    throw new Error(`Output folder ${outDir} contains the sources; expected a separate folder.`);
  }

  await Deno.remove(outDir, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.mkdir(outDir, { recursive: true });

  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    rewriteRelativeImportExtensions: true,
    declaration: true,
    strict: true,
    skipLibCheck: true,
    // Library code may use only Web-standard globals, so no Node or Deno types.
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    rootDir: root,
    outDir,
    newLine: ts.NewLineKind.LineFeed,
    noEmitOnError: false,
  };
  const program = ts.createProgram(await sourceFiles(root, config), compilerOptions);
  const emitted = program.emit(undefined, writeOutput);
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]
    .filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
    .map((diagnostic) => formatDiagnostic(diagnostic, root));
  if (emitted.emitSkipped) {
    throw new Error(`TypeScript emitted nothing; expected dist files. ${diagnostics.join("; ")}`);
  }
  for (const line of diagnostics.slice(0, 10)) log(`build_npm: warning: ${line}`);
  if (diagnostics.length > 10) log(`build_npm: ... ${diagnostics.length - 10} more warnings`);

  await Deno.writeTextFile(
    `${outDir}/package.json`,
    `${JSON.stringify(packageJson(config), null, 2)}\n`,
  );
  for (const file of EXTRA_FILES) {
    await Deno.copyFile(`${root}/${file}`, `${outDir}/${file}`).catch(() => {
      // Optional: README.md and LICENSE may not exist yet.
    });
  }
  for (const file of await listFiles(`${root}/${DOCS_DIR}`).catch(() => [] as string[])) {
    if (!file.endsWith(".md")) continue;
    const target = `${outDir}/${DOCS_DIR}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${root}/${DOCS_DIR}/${file}`, target);
  }
  const files = await listFiles(outDir);
  for (const target of Object.values(config.exports)) {
    const base = withoutTsExtension(target).replace(/^\.\//, "");
    for (const output of [`${base}.js`, `${base}.d.ts`]) {
      if (!files.includes(output)) {
        throw new Error(`The build did not write ${output}; expected one per export in deno.json.`);
      }
    }
  }
  return { outDir, files, diagnostics };
}

/** Imports every export of the built package with Node; throws when one fails. */
async function verifyWithNode(outDir: string, config: DenoConfig): Promise<void> {
  const specifiers = Object.keys(config.exports).map((subpath) =>
    subpath === "." ? config.name : `${config.name}/${subpath.slice(2)}`
  );
  // A package may import itself by name from inside its own folder.
  const script = `for (const s of ${JSON.stringify(specifiers)}) await import(s);`;
  const { success, stderr } = await new Deno.Command("node", {
    args: ["--input-type=module", "--eval", script],
    cwd: outDir,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) {
    throw new Error(
      `Node could not import the built package; expected every export to load: ${
        new TextDecoder().decode(stderr).trim()
      }`,
    );
  }
}

if (import.meta.main) {
  const started = performance.now();
  const outFlag = Deno.args.find((arg) => arg.startsWith("--out-dir="));
  const result = await buildNpm({ outDir: outFlag?.slice("--out-dir=".length) });
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)) as DenoConfig;
  if (!Deno.args.includes("--no-verify")) await verifyWithNode(result.outDir, config);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`build_npm: ${result.files.length} files in ${result.outDir} (${seconds} s)`);
}
