/**
 * Optional tools for end-to-end tests, found through the environment that
 * `scripts/setup.ts` prepares (`BUN_BIN`, `CHROMIUM_BIN`, `NODE_BIN`, `REDIS_SERVER_BIN`,
 * `POSTGRES_BIN`).
 *
 * @module
 */

/** A tool that some end-to-end tests need and the environment may lack. */
export type Tool = "bun" | "chromium" | "node" | "redis-server" | "postgres";

const VARIABLES: Record<Tool, string> = {
  bun: "BUN_BIN",
  chromium: "CHROMIUM_BIN",
  node: "NODE_BIN",
  "redis-server": "REDIS_SERVER_BIN",
  postgres: "POSTGRES_BIN",
};

const reported = new Set<Tool>();

/**
 * Returns the path of `tool` from its environment variable, or `undefined` when unset.
 *
 * @example
 * ```ts ignore
 * const bun = toolPath("bun"); // "/repo/.tools/bun/node_modules/bun/bin/bun.exe"
 * ```
 */
export function toolPath(tool: Tool): string | undefined {
  const value = Deno.env.get(VARIABLES[tool]);
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Says whether tests needing `tool` must be ignored, printing one
 * `skipped: no <tool>` line the first time it is missing.
 *
 * @example
 * ```ts ignore
 * Deno.test({ name: "bun serves GET", ignore: missingTool("bun"), fn: async () => {} });
 * ```
 */
export function missingTool(tool: Tool): boolean {
  if (toolPath(tool) !== undefined) return false;
  if (!reported.has(tool)) {
    reported.add(tool);
    console.log(
      `skipped: no ${tool} (${
        VARIABLES[tool]
      } is unset; run \`deno task setup\` or \`deno task test\`)`,
    );
  }
  return true;
}
