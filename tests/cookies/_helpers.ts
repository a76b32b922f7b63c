/**
 * Shared values and helpers of the cookie tests.
 *
 * @module
 */

import type { CookieSpec } from "../../src/cookies/jar.ts";
import { serializeCookie } from "../../src/cookies/serialize.ts";

/** A fixed "now" for every cookie test. */
export const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
/** NOW plus ten minutes, as an HTTP date. */
export const IN_10_MIN = "Wed, 01 Jan 2025 12:10:00 GMT";
/** The epoch as an HTTP date. */
export const EPOCH = "Thu, 01 Jan 1970 00:00:00 GMT";

/** The Set-Cookie line of a spec with a value, at NOW. */
export function line(spec: CookieSpec, value = "v"): string {
  return serializeCookie({ name: spec.name, value, attributes: spec.attributes }, NOW);
}

/** The cookie name of a Set-Cookie line. */
export function setCookieName(setCookie: string): string {
  return setCookie.slice(0, setCookie.indexOf("="));
}
