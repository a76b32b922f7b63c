/**
 * Calling application code (hooks, schemas, profile mappers) safely.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { markChosenByApp, toAuthError } from "../errors.ts";

/**
 * Calls application code: an `AuthError` passes through (marked as the
 * app's, so pages show its description to people), anything else is
 * logged by name and becomes a 500 `server_error` with no detail.
 */
export async function callApp<T>(
  ctx: AuthContext,
  what: string,
  fn: () => T | Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    markChosenByApp(error);
    throw toAuthError(error, ctx.logger, what);
  }
}
