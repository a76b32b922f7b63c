/**
 * Audit events: called after the fact; an event handler's error is logged
 * and never changes the response, and a handler that hangs holds the
 * response for {@link AuthContext.eventTimeoutMs} at most.
 *
 * @module
 */

import type { AuthEventName, AuthEvents } from "../config/hooks.ts";
import type { AuthContext } from "../config.ts";
import { errorName } from "../errors.ts";

const LATE = Symbol("late");

/**
 * Calls the event handler for `name`, if any, and waits for it, but never
 * longer than the instance's event timeout: a late handler is logged by the
 * event's name (never its payload) and left running. Errors, also late
 * ones, are only logged.
 */
export async function emit<N extends AuthEventName>(
  ctx: AuthContext,
  name: N,
  event: Parameters<NonNullable<AuthEvents[N]>>[0],
): Promise<void> {
  const handler = ctx.events[name] as ((event: unknown) => unknown) | undefined;
  if (handler === undefined) return;
  const threw = (error: unknown) =>
    ctx.logger.log("error", `events.${name} threw`, { error: errorName(error) });
  let result: unknown;
  try {
    result = handler(event);
  } catch (error) {
    return threw(error);
  }
  if (!isThenable(result)) return;
  // A timer only for handlers that return a promise: the synchronous ones cost nothing.
  const settled = Promise.resolve(result).then(() => undefined, threw);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ctx.eventTimeoutMs);
  });
  try {
    if (await Promise.race([settled, late]) === LATE) {
      ctx.logger.log("warn", `events.${name} did not finish in time; the response went on`, {
        event: name,
        timeoutMs: ctx.eventTimeoutMs,
      });
    }
  } finally {
    clearTimeout(timer);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (typeof value === "object" || typeof value === "function") && value !== null &&
      typeof (value as { then?: unknown }).then === "function";
  } catch {
    return false;
  }
}
