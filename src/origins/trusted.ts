/**
 * Trusted-origin patterns (`https://*.example.com`, `http://localhost:*`)
 * and the origin checks built on them.
 *
 * Every comparison parses with `URL` and compares scheme, host and port;
 * nothing is decided by string prefix or suffix. Nothing here throws on
 * request input.
 *
 * @module
 */

/** Tells whether an origin matches the configured trusted-origin patterns. */
export type OriginMatcher = (origin: string) => boolean;

// C0 controls, DEL and backslash: browsers strip or reinterpret them inside URLs.
// deno-lint-ignore no-control-regex
export const UNSAFE_CHARS = /[\x00-\x1f\x7f\\]/;
const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

interface Pattern {
  readonly protocol: string;
  /** Exact host name, or the suffix after `*.` for a wildcard. */
  readonly hostname: string;
  readonly wildcardLabel: boolean;
  /** A port number as a string, `""` for the default port, or `*` for any. */
  readonly port: string;
}

/**
 * Compiles trusted-origin patterns once, at config time. Accepted forms:
 * an exact origin `https://example.com[:port]`; `https://*.example.com`,
 * where `*` stands for exactly one DNS label (not the bare domain, not two
 * labels); `https://example.com:*` for any port including the default one.
 * A pattern without a port matches only the scheme's default port. The
 * scheme must always match. A trailing `/` is allowed; a path, query,
 * fragment or userinfo is not.
 *
 * @throws {TypeError} naming the first invalid pattern.
 *
 * @example
 * ```ts
 * import { compileOriginPatterns } from "./trusted.ts";
 * const trusted = compileOriginPatterns(["https://*.example.com", "http://localhost:*"]);
 * trusted("https://app.example.com"); // true
 * trusted("https://example.com"); // false
 * trusted("https://a.b.example.com"); // false
 * trusted("http://localhost:5173"); // true
 * ```
 */
export function compileOriginPatterns(patterns: readonly string[]): OriginMatcher {
  if (!Array.isArray(patterns)) {
    throw new TypeError("Invalid trustedOrigins: expected an array of origin patterns.");
  }
  const exact = new Set<string>();
  const wildcards: Pattern[] = [];
  for (const raw of patterns) {
    const pattern = compilePattern(raw);
    if (!pattern.wildcardLabel && pattern.port !== "*") {
      exact.add(
        `${pattern.protocol}//${pattern.hostname}${pattern.port ? `:${pattern.port}` : ""}`,
      );
    } else {
      wildcards.push(pattern);
    }
  }
  const frozen = Object.freeze(wildcards);
  return function matchesTrustedOrigin(origin: string): boolean {
    // Callers mostly pass a serialized origin, which needs no parsing for an exact hit.
    if (exact.has(origin)) return true;
    const url = parseOrigin(origin);
    if (url === null) return false;
    if (exact.has(url.origin)) return true;
    for (const p of frozen) {
      if (matchesPattern(p, url)) return true;
    }
    return false;
  };
}

/**
 * Whether `origin` (such as an `Origin` header) is the request's own origin
 * or matches the trusted patterns. `null` (an opaque origin) and anything
 * that is not a bare http(s) origin are never trusted.
 *
 * @example
 * ```ts
 * import { compileOriginPatterns, isTrustedOrigin } from "./trusted.ts";
 * const none = compileOriginPatterns([]);
 * isTrustedOrigin("https://app.example.com", "https://app.example.com", none); // true
 * isTrustedOrigin("null", "https://app.example.com", none); // false
 * ```
 */
export function isTrustedOrigin(origin: string, own: string, matcher: OriginMatcher): boolean {
  try {
    if (typeof origin !== "string" || origin === "null") return false;
    const url = parseOrigin(origin);
    if (url === null) return false;
    const self = parseOrigin(own);
    if (self !== null && self.origin === url.origin) return true;
    return matcher(url.origin) === true;
  } catch {
    return false;
  }
}

/** Parses a bare http(s) origin; `null` for userinfo, a path, a query or a fragment. */
export function parseOrigin(value: string): URL | null {
  if (typeof value !== "string" || UNSAFE_CHARS.test(value) || value !== value.trim()) return null;
  if (!/^https?:\/\/[^/]/i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username !== "" || url.password !== "" || url.hostname === "") return null;
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "") return null;
  // "https://a.com/" parses to path "/" too, but "https://a.com?" and "#" leave a trace.
  if (/[?#]/.test(value)) return null;
  return url;
}

function compilePattern(raw: unknown): Pattern {
  const bad = (why: string) =>
    new TypeError(`Invalid trusted origin pattern ${JSON.stringify(raw)}: ${why}.`);
  if (typeof raw !== "string") throw bad("expected a string such as https://example.com");
  const text = raw.trim().replace(/\/$/, "");
  const m = /^(https?):\/\/(\*\.)?([^/:?#@\\\s[\]]+|\[[0-9A-Fa-f:.]+\])(?::(\*|[0-9]{1,5}))?$/i
    .exec(text);
  if (m === null) {
    throw bad("expected scheme://host[:port] with an optional leading *. label or :* port");
  }
  const protocol = `${m[1].toLowerCase()}:`;
  const wildcardLabel = m[2] !== undefined;
  // Canonical digits: URL reads "08443" as 8443, and origins are compared as URL serializes them.
  const portText = m[4] === undefined || m[4] === "*" ? m[4] ?? "" : String(Number(m[4]));
  if (portText !== "*" && portText !== "" && (Number(portText) < 1 || Number(portText) > 65535)) {
    throw bad("expected a port between 1 and 65535");
  }
  if (m[3].includes("*")) throw bad("a * may only replace the leftmost whole label");
  let url: URL;
  try {
    // A probe label makes the wildcard suffix parse as an ordinary host name.
    url = new URL(`${protocol}//${wildcardLabel ? "x." : ""}${m[3]}`);
  } catch {
    throw bad("the host is not a valid host name");
  }
  let hostname = url.hostname;
  if (wildcardLabel) {
    if (hostname.startsWith("[") || /^[0-9.]+$/.test(hostname.slice(2))) {
      throw bad("a wildcard needs a domain name, not an IP address");
    }
    hostname = hostname.slice(2);
    if (hostname === "" || hostname.startsWith(".")) {
      throw bad("a wildcard needs a domain after *.");
    }
  }
  const port = portText === "*" ? "*" : portText === DEFAULT_PORTS[protocol] ? "" : portText;
  return Object.freeze({ protocol, hostname, wildcardLabel, port });
}

function matchesPattern(p: Pattern, url: URL): boolean {
  if (url.protocol !== p.protocol) return false;
  if (p.port !== "*" && url.port !== p.port) return false;
  if (!p.wildcardLabel) return url.hostname === p.hostname;
  const host = url.hostname;
  const suffix = `.${p.hostname}`;
  if (host.length <= suffix.length || !host.endsWith(suffix)) return false;
  const label = host.slice(0, host.length - suffix.length);
  // Exactly one label: no dot, and not an IP literal that happens to end in the suffix.
  return label !== "" && !label.includes(".") && !host.startsWith("[");
}
