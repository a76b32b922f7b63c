/**
 * Cookie names, strategies, serialization, parsing and chunking.
 *
 * Names and attributes are resolved once at config time into two frozen
 * jars, one for HTTP and one for HTTPS requests; each request picks one and
 * nothing is decided by shared mutable state.
 *
 * @module
 */

import { isRecord as isObject } from "./is_record.ts";

/** Internal cookie keys (SPEC "Cookies"). */
export type CookieKey =
  | "sessionToken"
  | "csrfToken"
  | "state"
  | "codeVerifier"
  | "redirectTo"
  | "redirectURI";

/**
 * How a cookie is protected over HTTPS: `standard` (no name prefix),
 * `secure` (`__Secure-` prefix, `Secure`), `host` (`__Host-` prefix,
 * `Secure`, `Path=/`, no `Domain`). Over plain HTTP every strategy behaves as
 * `standard` without `Secure`.
 */
export type CookieStrategy = "standard" | "secure" | "host";

/**
 * Cookie attributes. `sameSite: true` means `Strict`, `false` omits the
 * attribute. `maxAge` is in seconds.
 */
export interface CookieAttributes {
  /** Protection strategy; decides the name prefix over HTTPS. */
  strategy?: CookieStrategy;
  /** `Secure` attribute; only meaningful for the `standard` strategy. */
  secure?: boolean;
  /** Lifetime in seconds; `Expires` is derived from it per response. */
  maxAge?: number;
  /** Fixed expiry, used only when `maxAge` is not set. */
  expires?: Date;
  /** `Domain` attribute; not allowed with the `host` strategy. */
  domain?: string;
  /** `Path` attribute; must be `/` with the `host` strategy. */
  path?: string;
  /** `HttpOnly` attribute; on by default. */
  httpOnly?: boolean;
  /** `Partitioned` attribute (CHIPS); dropped over plain HTTP. */
  partitioned?: boolean;
  /** `Priority` attribute. */
  priority?: "low" | "medium" | "high";
  /** `SameSite` attribute; `none` becomes `lax` over plain HTTP. */
  sameSite?: boolean | "lax" | "strict" | "none";
}

/** Per-cookie override of the default name (after the prefix) and attributes. */
export interface CookieOverride {
  /** Replaces the default name after `{prefix}.`, e.g. `sid` gives `service-stack.sid`. */
  name?: string;
  /** Attributes merged over the defaults. */
  attributes?: CookieAttributes;
}

/** The `cookies` option of `createAuth`. */
export interface CookieConfig {
  /** Prefix of every cookie name; default `service-stack`. */
  prefix?: string;
  /** Per-cookie overrides. */
  overrides?: Partial<Record<CookieKey, CookieOverride>>;
}

/** A resolved cookie: its full name (with any `__Secure-`/`__Host-` prefix) and attributes. */
export interface CookieSpec {
  /** Full cookie name as sent in `Set-Cookie`. */
  readonly name: string;
  /** Attributes to serialize with, already adjusted for HTTP or HTTPS. */
  readonly attributes: Readonly<CookieAttributes>;
}

/** Every internal cookie, resolved for one scheme. */
export type CookieJar = Readonly<Record<CookieKey, CookieSpec>>;

/** Default cookie name prefix. */
export const DEFAULT_COOKIE_PREFIX = "service-stack";

/** Lifetime in seconds of the OAuth flow cookies (`state`, `codeVerifier`, ...). */
export const FLOW_COOKIE_MAX_AGE = 600;

/** A `Set-Cookie` line must stay below this many bytes, else it is chunked. */
export const MAX_SET_COOKIE_BYTES = 4096;

/** Most chunks a chunked cookie may have (about 60 KiB of value). */
export const MAX_COOKIE_CHUNKS = 16;

/** Most cookies kept from one `Cookie` header. */
export const MAX_REQUEST_COOKIES = 200;

/** All cookie keys, in a fixed order. */
export const COOKIE_KEYS: readonly CookieKey[] = Object.freeze([
  "sessionToken",
  "csrfToken",
  "state",
  "codeVerifier",
  "redirectTo",
  "redirectURI",
]);

const DEFAULT_NAMES: Readonly<Record<CookieKey, string>> = {
  sessionToken: "session_token",
  csrfToken: "csrf_token",
  state: "state",
  codeVerifier: "code_verifier",
  redirectTo: "redirect_to",
  redirectURI: "redirect_uri",
};

const ATTRIBUTE_NAMES: ReadonlySet<string> = new Set([
  "strategy",
  "secure",
  "maxAge",
  "expires",
  "domain",
  "path",
  "httpOnly",
  "partitioned",
  "priority",
  "sameSite",
]);

// RFC 9110 token characters, the grammar of a cookie name.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 6265 cookie-octet: visible ASCII except DQUOTE, comma, semicolon, backslash.
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const DOMAIN =
  /^\.?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// Path attribute value: starts with "/", no control characters, no ";".
const PATH = /^\/[\x20-\x3A\x3C-\x7E]*$/;
const NAME_PREFIX = /^__(?:secure|host)-/i;
const CHUNK_SUFFIX = /^(?:0|[1-9][0-9]{0,3})$/;
const EPOCH = "Thu, 01 Jan 1970 00:00:00 GMT";

/**
 * Resolves the cookie config into two frozen jars, one used for requests
 * served over HTTP, the other over HTTPS. Call once at config time.
 *
 * Defaults: names `{prefix}.{session_token|csrf_token|state|code_verifier|
 * redirect_to|redirect_uri}`; all `HttpOnly`, `Path=/`; the CSRF cookie
 * `SameSite=Strict` with the `host` strategy, all others `SameSite=Lax` with
 * the `secure` strategy; flow cookies live {@link FLOW_COOKIE_MAX_AGE}
 * seconds. Over HTTP no name prefix, no `Secure`, no `Partitioned`, and
 * `SameSite=None` becomes `Lax` (browsers reject the others without HTTPS).
 *
 * @throws {TypeError} when the prefix, an override name or an attribute is invalid.
 *
 * @example
 * ```ts
 * import { resolveCookieJars } from "./cookies.ts";
 * const jars = resolveCookieJars({ prefix: "app" });
 * jars.https.sessionToken.name; // "__Secure-app.session_token"
 * jars.http.csrfToken.name; // "app.csrf_token"
 * ```
 */
export function resolveCookieJars(
  config: CookieConfig | undefined,
): { readonly http: CookieJar; readonly https: CookieJar } {
  if (config !== undefined && !isObject(config)) {
    throw new TypeError("Invalid cookies option: expected an object with prefix and overrides.");
  }
  const prefix = config?.prefix ?? DEFAULT_COOKIE_PREFIX;
  checkNamePart(prefix, "cookies.prefix");
  const overrides = config?.overrides;
  if (overrides !== undefined && !isObject(overrides)) {
    throw new TypeError("Invalid cookies.overrides: expected an object keyed by cookie key.");
  }
  for (const key of Object.keys(overrides ?? {})) {
    if (!(COOKIE_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(
        `Unknown cookie key "${key}" in cookies.overrides: expected one of ${
          COOKIE_KEYS.join(", ")
        }.`,
      );
    }
  }
  const http = {} as Record<CookieKey, CookieSpec>;
  const https = {} as Record<CookieKey, CookieSpec>;
  for (const key of COOKIE_KEYS) {
    const override = overrides?.[key];
    if (override !== undefined && !isObject(override)) {
      throw new TypeError(`Invalid cookies.overrides.${key}: expected { name?, attributes? }.`);
    }
    const name = override?.name ?? DEFAULT_NAMES[key];
    checkNamePart(name, `cookies.overrides.${key}.name`);
    const attributes = mergeAttributes(key, override?.attributes);
    const base = `${prefix}.${name}`;
    http[key] = resolveSpec(base, attributes, false);
    https[key] = resolveSpec(base, attributes, true);
  }
  checkDistinct(http);
  checkDistinct(https);
  return Object.freeze({ http: Object.freeze(http), https: Object.freeze(https) });
}

/**
 * Serializes one `Set-Cookie` line. Attribute order is fixed:
 * `Path`, `Domain`, `Max-Age`, `Expires`, `Secure`, `HttpOnly`, `SameSite`,
 * `Partitioned`, `Priority`. When `maxAge` is set, `Expires` is computed
 * from `now` (milliseconds since the epoch) and a `maxAge` of zero or less
 * gives `Max-Age=0` with the epoch as `Expires`. `strategy` is not
 * serialized: pass attributes already resolved by {@link resolveCookieJars}.
 *
 * @throws {TypeError} when the name is not a token, the value is not made
 * of cookie octets (base64url and `.` always are), or an attribute is invalid.
 *
 * @example
 * ```ts
 * import { serializeCookie } from "./cookies.ts";
 * serializeCookie("sid", "abc", { path: "/", maxAge: 60, httpOnly: true }, 0);
 * // "sid=abc; Path=/; Max-Age=60; Expires=Thu, 01 Jan 1970 00:01:00 GMT; HttpOnly"
 * ```
 */
export function serializeCookie(
  name: string,
  value: string,
  attributes: CookieAttributes,
  now: number,
): string {
  if (typeof name !== "string" || !TOKEN.test(name)) {
    throw new TypeError("Invalid cookie name: expected an RFC 9110 token.");
  }
  if (typeof value !== "string" || !COOKIE_OCTETS.test(value)) {
    throw new TypeError(
      `Invalid value for cookie "${name}": expected only cookie octets (visible ASCII except '"', ',', ';', '\\').`,
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
      throw new TypeError(`Invalid maxAge for cookie "${name}": expected a finite number.`);
    }
    const seconds = Math.max(0, Math.floor(maxAge));
    line += `; Max-Age=${seconds}`;
    line += `; Expires=${seconds === 0 ? EPOCH : httpDate(now + seconds * 1000, name)}`;
  } else if (expires !== undefined) {
    if (!(expires instanceof Date)) {
      throw new TypeError(`Invalid expires for cookie "${name}": expected a Date.`);
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
 * Parses a `Cookie` request header into a map. Tolerant and never throws:
 * pairs without `=` or with an empty name are skipped, surrounding
 * whitespace and one pair of double quotes around a value are removed,
 * values are kept as sent (no percent-decoding). The first occurrence of a
 * name wins; at most {@link MAX_REQUEST_COOKIES} cookies are kept.
 *
 * @example
 * ```ts
 * import { parseCookies } from "./cookies.ts";
 * parseCookies("a=1; b=\"2\"; a=3").get("a"); // "1"
 * ```
 */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (typeof header !== "string") return cookies;
  const length = header.length;
  // Bound the work on hostile headers: empty segments count too.
  let segments = 0;
  let start = 0;
  // Next "=" at or after start, searched again only once passed, so no tail is rescanned.
  let eq = -1;
  while (
    start < length && cookies.size < MAX_REQUEST_COOKIES && segments < 4 * MAX_REQUEST_COOKIES
  ) {
    let end = header.indexOf(";", start);
    if (end === -1) end = length;
    segments++;
    if (eq < start) {
      eq = header.indexOf("=", start);
      // No "=" left means no pair left.
      if (eq === -1) break;
    }
    if (eq < end) {
      const name = header.slice(start, eq).trim();
      let value = header.slice(eq + 1, end).trim();
      if (
        value.length >= 2 && value.charCodeAt(0) === 34 && value.charCodeAt(value.length - 1) === 34
      ) {
        value = value.slice(1, -1);
      }
      if (name !== "" && !cookies.has(name)) cookies.set(name, value);
    }
    start = end + 1;
  }
  return cookies;
}

/**
 * The `Set-Cookie` lines that store `value` under `spec`: one line when it
 * fits below {@link MAX_SET_COOKIE_BYTES}, else chunks `{name}.0`,
 * `{name}.1`, ... each line below that size. Also clears what the request
 * still holds from an earlier write: chunks beyond the new count, or the
 * unchunked cookie when chunking (exact names only).
 *
 * @throws {RangeError} when the value needs more than {@link MAX_COOKIE_CHUNKS} chunks.
 * @throws {TypeError} as {@link serializeCookie}.
 *
 * @example
 * ```ts
 * import { parseCookies, resolveCookieJars, sessionCookieLines } from "./cookies.ts";
 * const spec = resolveCookieJars(undefined).https.sessionToken;
 * const lines = sessionCookieLines(spec, "a".repeat(10_000), 3600, parseCookies(null), Date.now());
 * lines.length; // 3
 * ```
 */
export function sessionCookieLines(
  spec: CookieSpec,
  value: string,
  maxAge: number,
  requestCookies: Map<string, string>,
  now: number,
): string[] {
  const attributes: CookieAttributes = { ...spec.attributes, maxAge };
  const whole = serializeCookie(spec.name, value, attributes, now);
  const present = presentChunks(spec.name, requestCookies);
  if (whole.length < MAX_SET_COOKIE_BYTES) {
    return [whole, ...present.map((i) => clearLine(`${spec.name}.${i}`, spec.attributes))];
  }
  const lines: string[] = [];
  let offset = 0;
  while (offset < value.length) {
    if (lines.length === MAX_COOKIE_CHUNKS) {
      throw new RangeError(
        `Cookie "${spec.name}" needs more than ${MAX_COOKIE_CHUNKS} chunks: expected a smaller value.`,
      );
    }
    const chunkName = `${spec.name}.${lines.length}`;
    // Every character is one byte: names, values and attributes are validated ASCII.
    const room = MAX_SET_COOKIE_BYTES - 1 -
      serializeCookie(chunkName, "", attributes, now).length;
    if (room <= 0) {
      throw new RangeError(`Cookie "${spec.name}" attributes leave no room for a value.`);
    }
    lines.push(serializeCookie(chunkName, value.slice(offset, offset + room), attributes, now));
    offset += room;
  }
  const count = lines.length;
  if (requestCookies.has(spec.name)) lines.push(clearLine(spec.name, spec.attributes));
  for (const i of present) {
    if (i >= count) lines.push(clearLine(`${spec.name}.${i}`, spec.attributes));
  }
  return lines;
}

/**
 * Reads a cookie that may have been chunked: the unchunked cookie when it is
 * present and non-empty, else the chunks `{name}.0`, `{name}.1`, ...
 * joined, contiguous from 0 with exact names. More than
 * {@link MAX_COOKIE_CHUNKS} chunks means no value.
 *
 * @example
 * ```ts
 * import { parseCookies, readChunkedCookie } from "./cookies.ts";
 * readChunkedCookie("s", parseCookies("s.1=cd; s.0=ab; s.evil=x")); // "abcd"
 * ```
 */
export function readChunkedCookie(name: string, cookies: Map<string, string>): string | undefined {
  const whole = cookies.get(name);
  if (whole !== undefined && whole !== "") return whole;
  let joined = "";
  let count = 0;
  for (; count < MAX_COOKIE_CHUNKS; count++) {
    const part = cookies.get(`${name}.${count}`);
    if (part === undefined || part === "") break;
    joined += part;
  }
  if (count === 0) return undefined;
  if (count === MAX_COOKIE_CHUNKS && cookies.has(`${name}.${MAX_COOKIE_CHUNKS}`)) return undefined;
  return joined;
}

/**
 * The `Set-Cookie` lines that delete a cookie: always the cookie itself, plus
 * every chunk of it present in the request (`Max-Age=0`, `Expires` at the
 * epoch, same `Path`/`Domain`/`Secure` so the browser matches it).
 *
 * @example
 * ```ts
 * import { clearCookieLines, parseCookies, resolveCookieJars } from "./cookies.ts";
 * const spec = resolveCookieJars(undefined).http.sessionToken;
 * clearCookieLines(spec, parseCookies("service-stack.session_token.0=x")).length; // 2
 * ```
 */
export function clearCookieLines(spec: CookieSpec, requestCookies: Map<string, string>): string[] {
  const lines = [clearLine(spec.name, spec.attributes)];
  for (const i of presentChunks(spec.name, requestCookies)) {
    lines.push(clearLine(`${spec.name}.${i}`, spec.attributes));
  }
  return lines;
}

function clearLine(name: string, attributes: Readonly<CookieAttributes>): string {
  return serializeCookie(name, "", { ...attributes, maxAge: 0, expires: undefined }, 0);
}

/** Indexes of `{name}.{n}` cookies in the request, ascending, exact names only. */
function presentChunks(name: string, cookies: Map<string, string>): number[] {
  const stem = `${name}.`;
  const found: number[] = [];
  for (const key of cookies.keys()) {
    if (key.length > stem.length && key.startsWith(stem)) {
      const suffix = key.slice(stem.length);
      if (CHUNK_SUFFIX.test(suffix)) found.push(Number(suffix));
    }
  }
  return found.sort((a, b) => a - b);
}

function mergeAttributes(key: CookieKey, given: unknown): CookieAttributes {
  const where = `cookies.overrides.${key}.attributes`;
  const merged: CookieAttributes = {
    strategy: key === "csrfToken" ? "host" : "secure",
    path: "/",
    httpOnly: true,
    sameSite: key === "csrfToken" ? "strict" : "lax",
  };
  if (key !== "sessionToken" && key !== "csrfToken") merged.maxAge = FLOW_COOKIE_MAX_AGE;
  if (given === undefined) return merged;
  if (!isObject(given)) throw new TypeError(`Invalid ${where}: expected an object.`);
  for (const [name, value] of Object.entries(given)) {
    if (!ATTRIBUTE_NAMES.has(name)) {
      throw new TypeError(`Unknown attribute "${name}" in ${where}: expected a cookie attribute.`);
    }
    // Explicit undefined keeps the default rather than erasing it.
    if (value !== undefined) (merged as Record<string, unknown>)[name] = value;
  }
  checkAttributes(merged, where);
  return merged;
}

function checkAttributes(a: CookieAttributes, where: string): void {
  const { strategy } = a;
  if (strategy !== "standard" && strategy !== "secure" && strategy !== "host") {
    throw new TypeError(`Invalid ${where}.strategy: expected "standard", "secure" or "host".`);
  }
  for (const flag of ["secure", "httpOnly", "partitioned"] as const) {
    if (a[flag] !== undefined && typeof a[flag] !== "boolean") {
      throw new TypeError(`Invalid ${where}.${flag}: expected a boolean.`);
    }
  }
  if (a.secure === false && strategy !== "standard") {
    throw new TypeError(
      `Invalid ${where}.secure: the ${strategy} strategy always sets Secure; use strategy "standard" to turn it off.`,
    );
  }
  if (
    a.maxAge !== undefined &&
    (typeof a.maxAge !== "number" || !Number.isSafeInteger(a.maxAge) || a.maxAge < 0)
  ) {
    throw new TypeError(`Invalid ${where}.maxAge: expected a whole number of seconds, 0 or more.`);
  }
  if (a.expires !== undefined && (!(a.expires instanceof Date) || isNaN(a.expires.getTime()))) {
    throw new TypeError(`Invalid ${where}.expires: expected a valid Date.`);
  }
  if (a.domain !== undefined) {
    if (strategy === "host") {
      throw new TypeError(
        `Invalid ${where}.domain: the host strategy forbids Domain; remove it or use strategy "secure".`,
      );
    }
    checkDomain(a.domain, where);
  }
  if (a.path !== undefined) {
    if (strategy === "host" && a.path !== "/") {
      throw new TypeError(
        `Invalid ${where}.path: the host strategy requires Path=/; remove it or use strategy "secure".`,
      );
    }
    checkPath(a.path, where);
  }
  if (a.priority !== undefined) priorityValue(a.priority, where);
  if (a.sameSite !== undefined && typeof a.sameSite !== "boolean") sameSiteValue(a.sameSite, where);
}

function resolveSpec(base: string, a: CookieAttributes, https: boolean): CookieSpec {
  const out: CookieAttributes = {};
  let name = base;
  if (https) {
    out.strategy = a.strategy;
    if (a.strategy === "secure") name = `__Secure-${base}`;
    if (a.strategy === "host") name = `__Host-${base}`;
    out.secure = a.strategy === "standard" ? a.secure ?? true : true;
  } else {
    out.strategy = "standard";
    out.secure = false;
  }
  if (a.maxAge !== undefined) out.maxAge = a.maxAge;
  if (a.expires !== undefined) out.expires = new Date(a.expires.getTime());
  if (a.domain !== undefined) out.domain = a.domain;
  out.path = a.strategy === "host" && https ? "/" : a.path;
  if (out.path === undefined) delete out.path;
  out.httpOnly = a.httpOnly;
  if (a.partitioned === true && https) out.partitioned = true;
  if (a.priority !== undefined) out.priority = a.priority;
  out.sameSite = !https && a.sameSite === "none" ? "lax" : a.sameSite;
  // The Date inside stays mutable by nature; it is a private copy.
  return Object.freeze({ name, attributes: Object.freeze(out) });
}

function checkDistinct(jar: Record<CookieKey, CookieSpec>): void {
  const names = COOKIE_KEYS.map((key) => jar[key].name);
  for (let i = 0; i < names.length; i++) {
    for (let j = 0; j < names.length; j++) {
      if (i === j) continue;
      const a = names[i];
      const b = names[j];
      const collides = a === b ||
        (b.startsWith(`${a}.`) && CHUNK_SUFFIX.test(b.slice(a.length + 1)));
      if (collides) {
        throw new TypeError(
          `Cookie names "${a}" and "${b}" collide: expected distinct names in cookies.overrides.`,
        );
      }
    }
  }
}

function checkNamePart(value: unknown, where: string): void {
  if (typeof value !== "string" || !TOKEN.test(value)) {
    throw new TypeError(
      `Invalid ${where}: expected a non-empty cookie name token (letters, digits, !#$%&'*+-.^_\`|~).`,
    );
  }
  if (NAME_PREFIX.test(value)) {
    throw new TypeError(
      `Invalid ${where}: "__Secure-" and "__Host-" are added by the strategy; remove them.`,
    );
  }
}

function checkDomain(domain: unknown, where: string): void {
  if (typeof domain !== "string" || domain.length > 253 || !DOMAIN.test(domain)) {
    throw new TypeError(`Invalid Domain for ${where}: expected a host name such as example.com.`);
  }
}

function checkPath(path: unknown, where: string): void {
  if (typeof path !== "string" || path.length > 1024 || !PATH.test(path)) {
    throw new TypeError(
      `Invalid Path for ${where}: expected "/" followed by visible ASCII without ";".`,
    );
  }
}

function sameSiteValue(value: unknown, where: string): string {
  switch (value) {
    case true:
    case "strict":
      return "Strict";
    case "lax":
      return "Lax";
    case "none":
      return "None";
  }
  throw new TypeError(
    `Invalid SameSite for ${where}: expected true, false, "lax", "strict" or "none".`,
  );
}

function priorityValue(value: unknown, where: string): string {
  switch (value) {
    case "low":
      return "Low";
    case "medium":
      return "Medium";
    case "high":
      return "High";
  }
  throw new TypeError(`Invalid Priority for ${where}: expected "low", "medium" or "high".`);
}

function httpDate(ms: number, name: string): string {
  const date = new Date(ms);
  if (isNaN(date.getTime())) {
    throw new TypeError(`Invalid expiry for cookie "${name}": expected a date within range.`);
  }
  return date.toUTCString();
}
