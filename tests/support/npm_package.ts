/**
 * The module as npm users get it (built by `scripts/build_npm.ts`), and
 * throwaway app folders where `@service-stack/auth` resolves to that build,
 * for running examples under Node and Bun. Other npm packages such apps
 * use (Express, Hono, TypeScript and type packages) come from the
 * repository's `node_modules/`, where Deno installs them at the versions
 * `deno.lock` pins.
 *
 * @module
 */

import { REPO_ROOT } from "./server.ts";

/** The package name, as in `deno.json`. */
export const PACKAGE_NAME = "@service-stack/auth";

/**
 * npm packages that apps run by Node use besides this one: Express and Hono
 * for the examples and the adapter tests (the same ranges as the import map
 * in `deno.json`), TypeScript and Node's and Bun's types for the check of the
 * published declarations. Installed by specifier, not imported from a module,
 * so that the type packages stay out of `deno check`.
 */
const NODE_PACKAGES = [
  "npm:express@5",
  "npm:hono@4",
  "npm:@hono/node-server@1",
  "npm:typescript@5",
  "npm:@types/node@20",
  "npm:@types/bun@1",
];

let build: Promise<string> | undefined;
let install: Promise<string> | undefined;

async function runDeno(args: string[], what: string): Promise<void> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    const decoder = new TextDecoder();
    throw new Error(
      `${what} failed; expected it to succeed:\n${decoder.decode(stdout)}${decoder.decode(stderr)}`,
    );
  }
}

/**
 * Builds the npm package once per test process into a temporary folder and
 * returns its path. A private folder keeps concurrent runs from replacing
 * each other's `dist/npm`.
 *
 * @example
 * ```ts ignore
 * const dist = await buildNpmPackage(); // "/tmp/npm_dist_xyz"
 * ```
 */
export function buildNpmPackage(): Promise<string> {
  build ??= (async () => {
    // The build imports TypeScript from node_modules/ (deno.json: nodeModulesDir "manual").
    await installNodePackages();
    const outDir = await Deno.makeTempDir({ prefix: "npm_dist_" });
    await runDeno(
      ["run", "-A", `${REPO_ROOT}/scripts/build_npm.ts`, "--no-verify", `--out-dir=${outDir}`],
      "scripts/build_npm.ts",
    );
    // Removes the build when the test process ends.
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(outDir, { recursive: true });
      } catch {
        // Already gone.
      }
    });
    return outDir;
  })();
  return build;
}

/**
 * Installs {@linkcode NODE_PACKAGES} into the repository's `node_modules/`
 * (`deno install --no-save`: `deno.json` stays as it is), once per test
 * process, and returns that folder.
 *
 * @example
 * ```ts ignore
 * const nodeModules = await installNodePackages(); // "/repo/node_modules"
 * ```
 */
export function installNodePackages(): Promise<string> {
  install ??= runDeno(
    ["install", "--quiet", "--no-save", ...NODE_PACKAGES],
    `deno install ${NODE_PACKAGES.join(" ")}`,
  ).then(() => `${REPO_ROOT}/node_modules`);
  return install;
}

/** Options for {@linkcode stageApp}. */
export interface StageAppOptions {
  /**
   * npm packages to link into the app's `node_modules/` from the repository's
   * (installed first), e.g. `["express", "@types/node"]`.
   */
  packages?: string[];
}

/** A temporary copy of an app folder with the built package installed. */
export interface StagedApp extends AsyncDisposable {
  /** Absolute path of the copy. */
  dir: string;
  /** Deletes the copy. */
  remove(): Promise<void>;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.name === "node_modules") continue;
    const source = `${from}/${entry.name}`;
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory) await copyDir(source, target);
    else await Deno.copyFile(source, target);
  }
}

/**
 * Copies `sourceDir` (relative to the repository root, or absolute) into a
 * temporary folder and links `node_modules/@service-stack/auth` to the npm
 * build, as `npm install` would, plus `options.packages` from the
 * repository's `node_modules/`; the app then runs with `cwd` set to it.
 *
 * @example Run the Node example against the npm build
 * ```ts ignore
 * await using app = await stageApp("examples/node");
 * await using server = await startServer("node", "server.mjs", { cwd: app.dir });
 * ```
 */
export async function stageApp(
  sourceDir: string,
  options: StageAppOptions = {},
): Promise<StagedApp> {
  const dist = await buildNpmPackage();
  const packages = options.packages ?? [];
  const nodeModules = packages.length > 0 ? await installNodePackages() : "";
  const source = sourceDir.startsWith("/") ? sourceDir : `${REPO_ROOT}/${sourceDir}`;
  const dir = await Deno.makeTempDir({ prefix: "staged_app_" });
  await copyDir(source, dir);
  const links: [string, string][] = [[PACKAGE_NAME, dist]];
  for (const name of packages) links.push([name, await Deno.realPath(`${nodeModules}/${name}`)]);
  for (const [name, target] of links) {
    const link = `${dir}/node_modules/${name}`;
    await Deno.mkdir(link.slice(0, link.lastIndexOf("/")), { recursive: true });
    await Deno.symlink(target, link, { type: "dir" });
  }
  let removed: Promise<void> | undefined;
  function remove(): Promise<void> {
    removed ??= Deno.remove(dir, { recursive: true });
    return removed;
  }
  return { dir, remove, [Symbol.asyncDispose]: remove };
}
