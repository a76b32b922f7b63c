/**
 * The module as npm users get it (built by `scripts/build_npm.ts`), and
 * throwaway app folders where `@service-stack/auth` resolves to that build,
 * for running examples under Node and Bun.
 *
 * @module
 */

import { REPO_ROOT } from "./server.ts";

/** The package name, as in `deno.json`. */
export const PACKAGE_NAME = "@service-stack/auth";

let build: Promise<string> | undefined;

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
    const outDir = await Deno.makeTempDir({ prefix: "npm_dist_" });
    const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${REPO_ROOT}/scripts/build_npm.ts`,
        "--no-verify",
        `--out-dir=${outDir}`,
      ],
      cwd: REPO_ROOT,
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!success) {
      const decoder = new TextDecoder();
      throw new Error(
        `scripts/build_npm.ts failed; expected it to build the npm package:\n${
          decoder.decode(stdout)
        }${decoder.decode(stderr)}`,
      );
    }
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
 * build, as `npm install` would; the app then runs with `cwd` set to it.
 *
 * @example Run the Node example against the npm build
 * ```ts ignore
 * await using app = await stageApp("examples/node");
 * await using server = await startServer("node", "server.mjs", { cwd: app.dir });
 * ```
 */
export async function stageApp(sourceDir: string): Promise<StagedApp> {
  const dist = await buildNpmPackage();
  const source = sourceDir.startsWith("/") ? sourceDir : `${REPO_ROOT}/${sourceDir}`;
  const dir = await Deno.makeTempDir({ prefix: "staged_app_" });
  await copyDir(source, dir);
  const scope = `${dir}/node_modules/${PACKAGE_NAME.split("/")[0]}`;
  await Deno.mkdir(scope, { recursive: true });
  await Deno.symlink(dist, `${dir}/node_modules/${PACKAGE_NAME}`, { type: "dir" });
  let removed: Promise<void> | undefined;
  function remove(): Promise<void> {
    removed ??= Deno.remove(dir, { recursive: true });
    return removed;
  }
  return { dir, remove, [Symbol.asyncDispose]: remove };
}
