/**
 * A small cookie jar that behaves like a browser's for the cases the
 * end-to-end tests meet: host-only and Domain cookies, Path, Max-Age and
 * Expires (deletion included), and Secure (sent over HTTPS or to loopback).
 *
 * @module
 */

/** A cookie as stored by {@linkcode CookieJar}. */
export interface StoredCookie {
  /** Cookie name. */
  name: string;
  /** Cookie value, as sent by the server. */
  value: string;
  /** Host the cookie belongs to (lower case, no port). */
  domain: string;
  /** True unless a `Domain` attribute widened it to subdomains. */
  hostOnly: boolean;
  /** Path prefix the cookie is sent for. */
  path: string;
  /** Sent only over HTTPS (or to loopback, as browsers do). */
  secure: boolean;
  /** Hidden from scripts in a browser; recorded for assertions. */
  httpOnly: boolean;
  /** The `SameSite` attribute as written, lower case, if any. */
  sameSite?: string;
  /** Expiry time in ms since the epoch; `undefined` for a session cookie. */
  expires?: number;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** RFC 6265 section 5.1.4: the directory of the request path. */
function defaultPath(url: URL): string {
  const path = url.pathname;
  if (!path.startsWith("/")) return "/";
  const last = path.lastIndexOf("/");
  return last <= 0 ? "/" : path.slice(0, last);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

function domainMatches(host: string, cookie: StoredCookie): boolean {
  if (cookie.hostOnly) return host === cookie.domain;
  return host === cookie.domain || host.endsWith(`.${cookie.domain}`);
}

/**
 * Parses one `Set-Cookie` header received from `url`; returns `null` for a
 * header a browser would reject (no `=`, empty name, foreign `Domain`).
 *
 * @example
 * ```ts ignore
 * parseSetCookie("sid=abc; Path=/; HttpOnly", new URL("http://127.0.0.1:8000/auth/callback"));
 * ```
 */
export function parseSetCookie(
  header: string,
  url: URL,
  now: number = Date.now(),
): StoredCookie | null {
  const [pair, ...attributes] = header.split(";");
  const eq = pair.indexOf("=");
  if (eq < 0) return null;
  const name = pair.slice(0, eq).trim();
  if (name === "") return null;
  const host = url.hostname.toLowerCase();
  const cookie: StoredCookie = {
    name,
    value: pair.slice(eq + 1).trim(),
    domain: host,
    hostOnly: true,
    path: defaultPath(url),
    secure: false,
    httpOnly: false,
  };
  let maxAge: number | undefined;
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? "" : attribute.slice(at + 1).trim();
    if (key === "domain" && value !== "") {
      const domain = value.replace(/^\./, "").toLowerCase();
      if (host !== domain && !host.endsWith(`.${domain}`)) return null;
      cookie.domain = domain;
      cookie.hostOnly = false;
    } else if (key === "path") {
      cookie.path = value.startsWith("/") ? value : defaultPath(url);
    } else if (key === "max-age" && /^-?\d+$/.test(value)) {
      maxAge = Number(value);
    } else if (key === "expires") {
      const time = Date.parse(value);
      if (!Number.isNaN(time)) cookie.expires = time;
    } else if (key === "secure") {
      cookie.secure = true;
    } else if (key === "httponly") {
      cookie.httpOnly = true;
    } else if (key === "samesite") {
      cookie.sameSite = value.toLowerCase();
    }
  }
  // Max-Age wins over Expires (RFC 6265 section 5.3 step 3).
  if (maxAge !== undefined) cookie.expires = now + maxAge * 1000;
  return cookie;
}

/**
 * Stores cookies from responses and produces the `Cookie` header for
 * requests, like a browser without third-party-cookie rules.
 *
 * @example
 * ```ts ignore
 * const jar = new CookieJar();
 * const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header(url) } });
 * jar.store(response, url);
 * ```
 */
export class CookieJar {
  #cookies: StoredCookie[] = [];
  #now: () => number;

  /** `now` supplies the clock, for tests of expiry. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Stores every `Set-Cookie` of `response`, which answered a request to `url`. */
  store(response: Response, url: string | URL): void {
    for (const header of response.headers.getSetCookie()) this.storeHeader(header, url);
  }

  /** Stores one `Set-Cookie` header value received from `url`; an expired one deletes. */
  storeHeader(header: string, url: string | URL): void {
    const target = new URL(url);
    const cookie = parseSetCookie(header, target, this.#now());
    if (cookie === null) return;
    // Browsers refuse Secure cookies from insecure origins other than loopback.
    if (cookie.secure && target.protocol !== "https:" && !isLoopback(target.hostname)) return;
    this.#cookies = this.#cookies.filter((c) =>
      !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path)
    );
    if (cookie.expires === undefined || cookie.expires > this.#now()) this.#cookies.push(cookie);
  }

  /** The cookies a browser would send to `url`, longest path first. */
  matching(url: string | URL): StoredCookie[] {
    const target = new URL(url);
    const host = target.hostname.toLowerCase();
    const secureContext = target.protocol === "https:" || isLoopback(host);
    const now = this.#now();
    return this.#cookies
      .filter((c) =>
        (c.expires === undefined || c.expires > now) &&
        domainMatches(host, c) &&
        pathMatches(target.pathname, c.path) &&
        (!c.secure || secureContext)
      )
      .sort((a, b) => b.path.length - a.path.length);
  }

  /** The `Cookie` header value for `url`; empty when no cookie applies. */
  header(url: string | URL): string {
    return this.matching(url).map((c) => `${c.name}=${c.value}`).join("; ");
  }

  /** The value of the cookie `name` that would be sent to `url` (any URL when omitted). */
  get(name: string, url?: string | URL): string | undefined {
    const pool = url === undefined ? this.all() : this.matching(url);
    return pool.find((c) => c.name === name)?.value;
  }

  /** A copy of every unexpired cookie. */
  all(): StoredCookie[] {
    const now = this.#now();
    return this.#cookies.filter((c) => c.expires === undefined || c.expires > now)
      .map((c) => ({ ...c }));
  }
}
