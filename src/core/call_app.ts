/**
 * Calling application code (hooks, schemas, profile mappers) safely.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { toAuthError } from "../errors.ts";

/**
 * Calls application code: an `AuthError` passes through, anything else is
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
    throw toAuthError(error, ctx.logger, what);
  }
}
