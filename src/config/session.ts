/**
 * `session`: lifetimes in whole seconds, bounded.
 *
 * @module
 */

import { fail, knownKeys, optionalObject } from "./_check.ts";

const DAY = 24 * 60 * 60;
/** Browsers cap a cookie's lifetime at 400 days (RFC 6265bis). */
export const MAX_SESSION_AGE = 400 * DAY;

/** The resolved `session` option. */
export interface SessionSettings {
  /** Absolute lifetime of a session, in seconds. */
  readonly maxAge: number;
  /** Age after which `GET /session` re-issues the token, in seconds. */
  readonly updateAge: number;
}

function seconds(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    fail(`${name} is invalid; expected a positive whole number of seconds.`);
  }
  return value;
}

/**
 * Resolves `session`: `maxAge` (default 30 days, at most 400), `updateAge`
 * (default 1 day, or half of a shorter `maxAge`; always below `maxAge`).
 */
export function resolveSession(value: unknown): SessionSettings {
  optionalObject(value, "session", "{ maxAge: 2592000, updateAge: 86400 }");
  knownKeys(value, "session", ["maxAge", "updateAge"]);
  const session = (value ?? {}) as { maxAge?: unknown; updateAge?: unknown };
  const maxAge = seconds(session.maxAge, "session.maxAge", 30 * DAY);
  if (maxAge > MAX_SESSION_AGE) {
    fail(
      `session.maxAge is ${maxAge}; expected at most ${MAX_SESSION_AGE} (400 days, the browsers' cookie cap).`,
    );
  }
  const updateAge = seconds(
    session.updateAge,
    "session.updateAge",
    Math.min(DAY, Math.ceil(maxAge / 2)),
  );
  if (updateAge >= maxAge) {
    fail("session.updateAge is not below session.maxAge; expected a smaller updateAge.");
  }
  return Object.freeze({ maxAge, updateAge });
}
