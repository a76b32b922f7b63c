/**
 * The rate-limit rules: one per route that signs in, sends a message or
 * creates something, named by its method-free path as the HTTP reference
 * writes it. A route is limited by being named here: the handler finds a
 * route's rule by its method and path (parameter names aside), so a route a
 * feature adds later only needs its line in {@link DEFAULT_RULES}.
 *
 * @module
 */

/**
 * A limit: at most `max` requests per client in a fixed window of `window`
 * seconds.
 *
 * @example
 * ```ts
 * import type { RateLimitRule } from "@service-stack/auth";
 *
 * const fivePerHour: RateLimitRule = { max: 5, window: 3600 };
 * ```
 */
export interface RateLimitRule {
  /** Requests allowed per window (a whole number from 1). */
  readonly max: number;
  /** The window, in whole seconds; it starts at the first request. */
  readonly window: number;
}

const MINUTE = 60;
const HOUR = 3600;

/**
 * Every rule by name: the method it limits, then the default `max` and
 * `window`. Rules of routes an instance does not serve wait unused.
 */
export const DEFAULT_RULES: Readonly<Record<string, readonly [string, number, number]>> = {
  // Sign-ins and the steps that finish them: 30 a minute.
  "/signIn/credentials": ["POST", 30, MINUTE],
  "/callback/email": ["POST", 30, MINUTE],
  "/passkey/signIn": ["POST", 30, MINUTE],
  "/twoFactor/verify": ["POST", 30, MINUTE],
  "/password/reset": ["POST", 30, MINUTE],
  // What creates something: 10 an hour.
  "/signUp": ["POST", 10, HOUR],
  "/link/:provider": ["POST", 10, HOUR],
  "/apiKeys": ["POST", 10, HOUR],
  // What sends a message: 10 an hour, each its own budget.
  "/signIn/email": ["POST", 10, HOUR],
  "/password/forgot": ["POST", 10, HOUR],
  "/email/verify": ["POST", 10, HOUR],
  "/email/change": ["POST", 10, HOUR],
  // Flow starts and ceremony options: 60 a minute.
  "/signIn/:oauth": ["GET", 60, MINUTE],
  "/signIn/sso": ["POST", 60, MINUTE],
  "/passkey/register/options": ["POST", 60, MINUTE],
  "/passkey/signIn/options": ["POST", 60, MINUTE],
};

/**
 * The key a route is found by: its method and its path segments, each
 * parameter reduced to `:` (`"GET signIn/:"` for `signIn/:provider`).
 *
 * @example
 * ```ts
 * import { routeKey } from "./rules.ts";
 *
 * routeKey("GET", ["signIn", ":provider"]); // "GET signIn/:"
 * ```
 */
export function routeKey(method: string, segments: readonly string[]): string {
  return `${method} ${segments.map((s) => (s.startsWith(":") ? ":" : s)).join("/")}`;
}
