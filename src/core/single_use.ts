/**
 * One-time values: with a session store, each OAuth `state` completes one
 * callback only, on every instance that shares the store, so a callback
 * replayed with captured flow cookies is refused even when the provider
 * does not enforce single-use codes.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { FLOW_COOKIE_MAX_AGE } from "../cookies/jar.ts";
import { AuthError } from "../errors.ts";

/** Claims an OAuth flow's `state`; throws 400 `invalid_request` when it was already used. */
export async function claimOAuthState(ctx: AuthContext, state: string): Promise<void> {
  if (!ctx.store) return;
  if (!(await ctx.store.consume(`oauth-state:${state}`, FLOW_COOKIE_MAX_AGE))) {
    throw new AuthError(
      "invalid_request",
      "This sign-in was already completed; expected a new sign-in: start again.",
    );
  }
}
