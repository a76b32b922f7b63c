/**
 * Cookie configuration resolved into jars: names, strategies and attributes,
 * decided once at config time into two frozen jars, one for HTTP and one for
 * HTTPS requests; each request picks one and nothing is decided by shared
 * mutable state.
 *
 * @module
 */

import { isRecord as isObject } from "../is_record.ts";
import {
  checkDomain,
  checkNamePart,
  checkPath,
  CHUNK_SUFFIX,
  priorityValue,
  sameSiteValue,
} from "./_syntax.ts";

/** Internal cookie keys (SPEC "Cookies"). */
export type CookieKey =
  | "sessionToken"
  | "csrfToken"
  | "state"
  | "codeVerifier"
  | "redirectTo"
  | "redirectURI"
  | "emailFlow"
  | "passkeyChallenge"
  | "twoFactor";

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

/** All cookie keys, in a fixed order. */
export const COOKIE_KEYS: readonly CookieKey[] = Object.freeze([
  "sessionToken",
  "csrfToken",
  "state",
  "codeVerifier",
  "redirectTo",
  "redirectURI",
  "emailFlow",
  "passkeyChallenge",
  "twoFactor",
]);

const DEFAULT_NAMES: Readonly<Record<CookieKey, string>> = {
  sessionToken: "session_token",
  csrfToken: "csrf_token",
  state: "state",
  codeVerifier: "code_verifier",
  redirectTo: "redirect_to",
  redirectURI: "redirect_uri",
  emailFlow: "email_flow",
  passkeyChallenge: "passkey_challenge",
  twoFactor: "two_factor",
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

/**
 * Resolves the cookie config into two frozen jars, one used for requests
 * served over HTTP, the other over HTTPS. Call once at config time.
 *
 * Defaults: names `{prefix}.{session_token|csrf_token|state|code_verifier|
 * redirect_to|redirect_uri}`; all `HttpOnly`, `Path=/` and the `host`
 * strategy (`__Host-` over HTTPS, so no sibling subdomain can plant or
 * shadow them); an override with a `Domain` or another `Path` and no
 * explicit strategy falls back to `secure` (`__Secure-`). The CSRF cookie is
 * `SameSite=Strict`, all others `SameSite=Lax`; flow cookies live {@link FLOW_COOKIE_MAX_AGE}
 * seconds. Over HTTP no name prefix, no `Secure`, no `Partitioned`, and
 * `SameSite=None` becomes `Lax` (browsers reject the others without HTTPS).
 *
 * @throws {TypeError} when the prefix, an override name or an attribute is invalid.
 *
 * @example
 * ```ts
 * import { resolveCookieJars } from "./jar.ts";
 * const jars = resolveCookieJars({ prefix: "app" });
 * jars.https.sessionToken.name; // "__Host-app.session_token"
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

function mergeAttributes(key: CookieKey, given: unknown): CookieAttributes {
  const where = `cookies.overrides.${key}.attributes`;
  const merged: CookieAttributes = {
    strategy: "host",
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
  // __Host- forbids Domain and any Path but "/": such an override falls back to __Secure-.
  const explicit = (given as CookieAttributes).strategy !== undefined;
  if (!explicit && (merged.domain !== undefined || merged.path !== "/")) merged.strategy = "secure";
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
