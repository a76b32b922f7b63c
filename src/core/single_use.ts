/**
 * One-time values: each OAuth `state` completes one callback only, so a
 * callback replayed with captured flow cookies is refused even when the
 * provider does not enforce single-use codes. With a session store this
 * holds on every instance that shares it; without one, in this process
 * (several instances need a shared store).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import type { OpenedFlow } from "../oauth/flow_cookies.ts";

// Flow cookies are still read this long after their exp (the JOSE clock tolerance is 5 s).
const FLOW_EXPIRY_MARGIN_SECONDS = 60;

/**
 * Claims an OAuth flow's `state`; throws 400 `invalid_request` when it was
 * already used. The mark lives as long as the flow cookies can be read: the
 * flow's remaining lifetime, so that the mark of one flow always ends at the
 * same time (a bounded store refuses values older than the marks it dropped).
 */
export async function claimOAuthState(ctx: AuthContext, flow: OpenedFlow): Promise<void> {
  const remaining = flow.expiresAt + FLOW_EXPIRY_MARGIN_SECONDS - ctx.clock() / 1000;
  const ttl = Math.max(1, remaining);
  if (!(await ctx.oneTimeStore.consume(`oauth-state:${flow.state}`, ttl))) {
    throw new AuthError(
      "invalid_request",
      "This sign-in was already completed; expected a new sign-in: start again.",
    );
  }
}
