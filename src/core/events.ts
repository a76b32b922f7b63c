/**
 * Audit events: called after the fact; an event handler's error is logged
 * and never changes the response.
 *
 * @module
 */

import type { AuthEventName, AuthEvents } from "../config/hooks.ts";
import type { AuthContext } from "../config.ts";
import { errorName } from "../errors.ts";

/** Calls the event handler for `name`, if any, and waits for it; its errors are only logged. */
export async function emit<N extends AuthEventName>(
  ctx: AuthContext,
  name: N,
  event: Parameters<NonNullable<AuthEvents[N]>>[0],
): Promise<void> {
  const handler = ctx.events[name] as ((event: unknown) => unknown) | undefined;
  if (handler === undefined) return;
  try {
    await handler(event);
  } catch (error) {
    ctx.logger.log("error", `events.${name} threw`, { error: errorName(error) });
  }
}
