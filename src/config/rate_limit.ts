/**
 * `rateLimit`: the per-address limits of the routes that sign in, send a
 * message or create something (on by default), merged by rule name.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import type { NamedRule, RateLimitKey, RateLimits } from "../rate_limit/limit.ts";
import { DEFAULT_RULES, type RateLimitRule, routeKey } from "../rate_limit/rules.ts";
import { fail, knownKeys } from "./_check.ts";

/**
 * The `rateLimit` option: `false`, or rules merged over the defaults by
 * name and a key function.
 *
 * @example
 * ```ts
 * import { createAuth, type RateLimitConfig } from "@service-stack/auth";
 *
 * const rateLimit: RateLimitConfig = {
 *   rules: { "/signUp": { max: 3 }, "/signIn/:oauth": false },
 * };
 * const auth = createAuth({ oauth: [], secret: "a-test-secret-of-at-least-32-bytes!!", rateLimit });
 * ```
 */
export type RateLimitConfig = false | {
  /**
   * Rules by name (`"/signIn/credentials"`, `"/signIn/:oauth"`, ...): `{ max, window }`
   * (either may be left out to keep the default; `window` in seconds) or `false` for no limit.
   */
  rules?: Readonly<Record<string, Partial<RateLimitRule> | false>>;
  /**
   * The string to count a request by (`route` is the rule's name); `null` or
   * `undefined` counts by the client's address.
   */
  key?: RateLimitKey;
};

/** The resolved `rateLimit` option. */
export interface RateLimitSettings {
  /** The limits, or `undefined` with `rateLimit: false`. */
  readonly rateLimit?: RateLimits;
}

const LIMIT = 1_000_000_000;
// At most a year: a longer window is a ban, not a rate.
const MAX_WINDOW = 365 * 24 * 3600;

function whole(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    fail(`${name} is invalid; expected a whole number from 1 to ${max}.`);
  }
  return value;
}

/** Resolves `rateLimit`; throws a `TypeError` naming the known rules for an unknown one. */
export function resolveRateLimit(value: unknown): RateLimitSettings {
  if (value === false) return {};
  if (value !== undefined && !isRecord(value)) {
    fail('rateLimit is not an object; expected false or { rules: { "/signUp": { max: 5 } } }.');
  }
  knownKeys(value, "rateLimit", ["rules", "key"]);
  const { rules, key } = (value ?? {}) as { rules?: unknown; key?: unknown };
  if (key !== undefined && typeof key !== "function") {
    fail("rateLimit.key is not a function; expected (request, route) => string | null.");
  }
  if (rules !== undefined && !isRecord(rules)) {
    fail('rateLimit.rules is not an object; expected { "/signUp": { max: 5, window: 3600 } }.');
  }
  const given = (rules ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(DEFAULT_RULES, name)) {
      fail(
        `rateLimit.rules has no rule "${name}"; expected one of ${
          Object.keys(DEFAULT_RULES).join(", ")
        }.`,
      );
    }
  }
  const byRoute = new Map<string, NamedRule>();
  for (const [name, [method, max, window]] of Object.entries(DEFAULT_RULES)) {
    const rule = given[name];
    if (rule === false) continue;
    if (rule !== undefined && !isRecord(rule)) {
      fail(`rateLimit.rules["${name}"] is invalid; expected { max, window } or false.`);
    }
    knownKeys(rule, `rateLimit.rules["${name}"]`, ["max", "window"]);
    const q = whole(rule?.max, `rateLimit.rules["${name}"].max`, LIMIT) ?? max;
    const w = whole(rule?.window, `rateLimit.rules["${name}"].window`, MAX_WINDOW) ?? window;
    const policy = `"${name}";q=${q};w=${w}`;
    byRoute.set(
      routeKey(method, name.slice(1).split("/")),
      Object.freeze({ name, max: q, window: w, policy }),
    );
  }
  return {
    rateLimit: Object.freeze({
      byRoute,
      key: key as RateLimitKey | undefined,
      warned: { value: false },
    }),
  };
}
