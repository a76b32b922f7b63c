/**
 * One `Set-Cookie` line from a name, a value and resolved attributes.
 *
 * @module
 */

import type { CookieAttributes } from "./jar.ts";
import {
  checkDomain,
  checkPath,
  COOKIE_OCTETS,
  EPOCH,
  httpDate,
  priorityValue,
  sameSiteValue,
  TOKEN,
} from "./_syntax.ts";

/** A cookie to set. */
export interface SetCookie {
  /** Full cookie name, e.g. `__Host-service-stack.session_token`. */
  readonly name: string;
  /** The value; only cookie octets (base64url and `.` always are). */
  readonly value: string;
  /** Attributes already resolved for the request's scheme. */
  readonly attributes: Readonly<CookieAttributes>;
}

/**
 * Serializes one `Set-Cookie` line. Attribute order is fixed: `Path`,
 * `Domain`, `Max-Age`, `Expires`, `Secure`, `HttpOnly`, `SameSite`,
 * `Partitioned`, `Priority`. When `maxAge` is set, `Expires` is computed
 * from `nowMs` and a `maxAge` of zero or less gives `Max-Age=0` with the
 * epoch as `Expires`. `strategy` is not serialized: pass attributes already
 * resolved by `resolveCookieJars`.
 *
 * @throws {TypeError} when the name is not a token, the value is not made
 * of cookie octets, or an attribute is invalid.
 *
 * @example
 * ```ts
 * import { serializeCookie } from "./serialize.ts";
 * serializeCookie({ name: "sid", value: "abc", attributes: { path: "/", maxAge: 60, httpOnly: true } }, 0);
 * // "sid=abc; Path=/; Max-Age=60; Expires=Thu, 01 Jan 1970 00:01:00 GMT; HttpOnly"
 * ```
 */
export function serializeCookie(cookie: SetCookie, nowMs: number): string {
  const { name, value, attributes } = cookie;
  if (typeof name !== "string" || !TOKEN.test(name)) {
    throw new TypeError("The cookie name is invalid; expected an RFC 9110 token.");
  }
  if (typeof value !== "string" || !COOKIE_OCTETS.test(value)) {
    throw new TypeError(
      `The value of cookie "${name}" is invalid; expected only cookie octets (visible ASCII except '"', ',', ';', '\\').`,
    );
  }
  let line = `${name}=${value}`;
  const { path, domain, maxAge, expires, sameSite, priority } = attributes;
  if (path !== undefined) {
    checkPath(path, name);
    line += `; Path=${path}`;
  }
  if (domain !== undefined) {
    checkDomain(domain, name);
    line += `; Domain=${domain}`;
  }
  if (maxAge !== undefined) {
    if (typeof maxAge !== "number" || !Number.isFinite(maxAge)) {
      throw new TypeError(`The maxAge of cookie "${name}" is invalid; expected a finite number.`);
    }
    const seconds = Math.max(0, Math.floor(maxAge));
    line += `; Max-Age=${seconds}`;
    line += `; Expires=${seconds === 0 ? EPOCH : httpDate(nowMs + seconds * 1000, name)}`;
  } else if (expires !== undefined) {
    if (!(expires instanceof Date)) {
      throw new TypeError(`The expires of cookie "${name}" is invalid; expected a Date.`);
    }
    line += `; Expires=${httpDate(expires.getTime(), name)}`;
  }
  if (attributes.secure === true) line += "; Secure";
  if (attributes.httpOnly === true) line += "; HttpOnly";
  if (sameSite !== undefined && sameSite !== false) {
    line += `; SameSite=${sameSiteValue(sameSite, name)}`;
  }
  if (attributes.partitioned === true) line += "; Partitioned";
  if (priority !== undefined) line += `; Priority=${priorityValue(priority, name)}`;
  return line;
}

/**
 * The `Set-Cookie` line that deletes a cookie: empty value, `Max-Age=0`,
 * `Expires` at the epoch, same `Path`/`Domain`/`Secure` so the browser
 * matches it.
 *
 * @example
 * ```ts
 * import { clearCookieLine } from "./serialize.ts";
 * clearCookieLine({ name: "sid", attributes: { path: "/" } });
 * // "sid=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT"
 * ```
 */
export function clearCookieLine(
  cookie: { readonly name: string; readonly attributes: Readonly<CookieAttributes> },
): string {
  return serializeCookie({
    name: cookie.name,
    value: "",
    attributes: { ...cookie.attributes, maxAge: 0, expires: undefined },
  }, 0);
}
