/**
 * The request's own origin (optionally from proxy headers), trusted-origin
 * patterns, and validation of redirect targets.
 *
 * Every comparison parses with `URL` and compares scheme, host and port;
 * nothing is decided by string prefix or suffix. Nothing here throws on
 * request input.
 *
 * @module
 */

/** The origin a request was made to, and whether it was made over HTTPS. */
export interface RequestOrigin {
  /** Serialized origin, e.g. `https://example.com` (default port omitted). */
  readonly origin: string;
  /** Whether the client connection is HTTPS. */
  readonly secure: boolean;
}

/** Tells whether an origin matches the configured trusted-origin patterns. */
export type OriginMatcher = (origin: string) => boolean;

// RFC 3986 reg-name restricted to DNS labels, or IPv4, or a bracketed IPv6 literal; optional port.
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;
// RFC 7239 forwarded-pair: token "=" ( token / quoted-string ).
const FORWARDED_PAIR =
  /^[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)=([!#$%&'*+\-.^_`|~0-9A-Za-z]+|"(?:[^"\\]|\\.)*")[ \t]*$/;
// C0 controls, DEL and backslash: browsers strip or reinterpret them inside URLs.
// deno-lint-ignore no-control-regex
const UNSAFE_CHARS = /[\x00-\x1f\x7f\\]/;
const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/**
 * Decides the origin and scheme of a request. With `trustProxyHeaders`
 * false only `url` counts and every forwarding header is ignored. With true,
 * `Forwarded` (RFC 7239, its first element) is read first, then
 * `X-Forwarded-Proto` / `X-Forwarded-Host` (their first value) only when
 * no `Forwarded` header is present; protocol and host each fall back to
 * `url` when absent or invalid. The protocol
 * must be `http` or `https`; the host must be `hostname[:port]` with an IPv6
 * address in brackets.
 *
 * @example
 * ```ts
 * import { requestOrigin } from "./origins.ts";
 * const request = new Request("http://internal:8080/auth/session", {
 *   headers: { "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com" },
 * });
 * requestOrigin(request, new URL(request.url), true);
 * // { origin: "https://app.example.com", secure: true }
 * ```
 */
export function requestOrigin(
  request: Request,
  url: URL,
  trustProxyHeaders: boolean,
): RequestOrigin {
  const own = { origin: url.origin, secure: url.protocol === "https:" };
  if (!trustProxyHeaders) return Object.freeze(own);
  try {
    const headers = request.headers;
    const forwarded = headers.get("forwarded");
    let proto: string | undefined;
    let host: string | undefined;
    // Forwarded wins as a whole: never mix its fields with X-Forwarded-* ones.
    if (forwarded !== null) {
      const element = firstForwardedElement(forwarded);
      proto = validProto(element?.proto);
      host = validHost(element?.host);
    } else {
      proto = validProto(firstValue(headers.get("x-forwarded-proto")));
      host = validHost(firstValue(headers.get("x-forwarded-host")));
    }
    if (proto === undefined && host === undefined) return Object.freeze(own);
    proto ??= url.protocol.slice(0, -1);
    host ??= url.host;
    if (proto !== "http" && proto !== "https") return Object.freeze(own);
    const origin = new URL(`${proto}://${host}`).origin;
    return Object.freeze({ origin, secure: proto === "https" });
  } catch {
    return Object.freeze(own);
  }
}

/**
 * The client's IP address as reported by a trusted proxy: the `for`
 * parameter of the first `Forwarded` element, else the first
 * `X-Forwarded-For` value (only when no `Forwarded` header is present).
 * A port and IPv6 brackets are removed. `undefined` when `trustProxyHeaders`
 * is false, the header is absent, or the value is not an IP address
 * (obfuscated identifiers and `unknown` included). For logs only: a client
 * can forge it unless the proxy overwrites these headers.
 *
 * @example
 * ```ts
 * import { forwardedClientAddress } from "./origins.ts";
 * const request = new Request("http://internal/", { headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.1" } });
 * forwardedClientAddress(request, true); // "203.0.113.7"
 * ```
 */
export function forwardedClientAddress(
  request: Request,
  trustProxyHeaders: boolean,
): string | undefined {
  if (!trustProxyHeaders) return undefined;
  try {
    const forwarded = request.headers.get("forwarded");
    const raw = forwarded !== null
      ? firstForwardedElement(forwarded)?.for
      : firstValue(request.headers.get("x-forwarded-for"));
    return raw === undefined ? undefined : ipAddress(raw);
  } catch {
    return undefined;
  }
}

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
 * import { compileOriginPatterns } from "./origins.ts";
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
 * import { compileOriginPatterns, isTrustedOrigin } from "./origins.ts";
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

/**
 * Longest redirect target accepted, in characters: it travels in a sealed
 * flow cookie whose `Set-Cookie` line must stay under 4096 bytes.
 */
export const MAX_REDIRECT_TARGET_LENGTH = 1500;

/**
 * Validates a redirect target (`redirectTo`). Accepted: a relative path
 * starting with exactly one `/`, or an absolute `http(s)://` URL without
 * userinfo whose origin is `own` or trusted. Refused anywhere in the target:
 * control characters, DEL, backslashes, leading or trailing spaces. For a
 * relative path, its path, once percent-decoded (repeatedly), must still not
 * start with `//` or `/\` and must contain no control character or
 * backslash, so that no later decoding step can turn it into a
 * scheme-relative URL. Returns what to put in `Location`: a relative target
 * stays relative (normalized and percent-encoded by `URL`), an absolute one
 * is normalized by `URL`; `null` when refused, also when longer than
 * {@link MAX_REDIRECT_TARGET_LENGTH} before or after normalization. Never throws.
 *
 * @example
 * ```ts
 * import { compileOriginPatterns, safeRedirectTarget } from "./origins.ts";
 * const none = compileOriginPatterns([]);
 * safeRedirectTarget("/dashboard?tab=1", "https://app.example.com", none); // "/dashboard?tab=1"
 * safeRedirectTarget("//evil.com", "https://app.example.com", none); // null
 * ```
 */
export function safeRedirectTarget(
  target: string,
  own: string,
  matcher: OriginMatcher,
): string | null {
  try {
    if (typeof target !== "string" || target === "" || UNSAFE_CHARS.test(target)) return null;
    if (target !== target.trim() || target.length > MAX_REDIRECT_TARGET_LENGTH) return null;
    const self = parseOrigin(own);
    if (target.charCodeAt(0) === 47 /* / */) {
      if (self === null || target.charCodeAt(1) === 47) return null;
      const resolved = new URL(target, self.origin);
      if (resolved.origin !== self.origin) return null;
      if (!safeDecodedPath(resolved.pathname)) return null;
      const relative = resolved.pathname + resolved.search + resolved.hash;
      // Dot segments can collapse "/.//x" into "//x"; checked after normalization too.
      if (relative.length > MAX_REDIRECT_TARGET_LENGTH) return null;
      return relative.startsWith("//") ? null : relative;
    }
    // Demand "scheme://" literally: URL would also accept "https:evil.com" and "https:///evil.com".
    const match = /^(https?):\/\/([^/])/i.exec(target);
    if (match === null) return null;
    const url = new URL(target);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username !== "" || url.password !== "" || url.host === "") return null;
    // url is already checked: compare its origin without parsing it again.
    if (url.origin !== self?.origin && matcher(url.origin) !== true) return null;
    return url.href.length > MAX_REDIRECT_TARGET_LENGTH ? null : url.href;
  } catch {
    return null;
  }
}

/**
 * Applies {@link safeRedirectTarget} to a `Referer` header, which is always
 * absolute: returns the normalized URL when it is on the own or a trusted
 * origin, else `null`.
 *
 * @example
 * ```ts
 * import { compileOriginPatterns, refererTarget } from "./origins.ts";
 * const none = compileOriginPatterns([]);
 * refererTarget("https://app.example.com/settings", "https://app.example.com", none);
 * // "https://app.example.com/settings"
 * ```
 */
export function refererTarget(
  referer: string | null,
  own: string,
  matcher: OriginMatcher,
): string | null {
  if (typeof referer !== "string" || !/^https?:\/\//i.test(referer)) return null;
  return safeRedirectTarget(referer, own, matcher);
}

/** Parses a bare http(s) origin; `null` for userinfo, a path, a query or a fragment. */
function parseOrigin(value: string): URL | null {
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

/**
 * Decodes ASCII percent-escapes of the path until stable and refuses any
 * form that starts with "//" (also after dot-segment removal) or holds a
 * control character or backslash, whatever decoder runs later.
 */
function safeDecodedPath(path: string): boolean {
  let current = path;
  for (let i = 0; i < 4; i++) {
    // Overlong UTF-8 lead bytes: old decoders turned %C0%AF into "/".
    if (/%c[01]/i.test(current)) return false;
    const next = current.replace(
      /%([0-7][0-9A-Fa-f])/g,
      (_, hex: string) => String.fromCharCode(parseInt(hex, 16)),
    );
    if (UNSAFE_CHARS.test(next) || next.startsWith("//")) return false;
    if (new URL(next, "http://h").pathname.startsWith("//")) return false;
    if (next === current) return true;
    current = next;
  }
  return false;
}

interface ForwardedElement {
  proto?: string;
  host?: string;
  for?: string;
}

/** First element of an RFC 7239 `Forwarded` header; `undefined` when absent or malformed. */
function firstForwardedElement(header: string | null): ForwardedElement | undefined {
  if (header === null || header.length > 4096) return undefined;
  // The first element ends at the first comma outside a quoted string.
  let end = header.length;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (quoted && c === "\\") i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === ",") {
      end = i;
      break;
    }
  }
  if (quoted) return undefined;
  const element: ForwardedElement = {};
  const seen = new Set<string>();
  for (const pair of splitUnquoted(header.slice(0, end), ";")) {
    if (pair.trim() === "") continue;
    const m = FORWARDED_PAIR.exec(pair);
    if (m === null) return undefined;
    const name = m[1].toLowerCase();
    // A repeated parameter makes the element ambiguous (RFC 7239 section 4).
    if (seen.has(name)) return undefined;
    seen.add(name);
    const value = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, "$1") : m[2];
    if (name === "proto") element.proto = value;
    if (name === "host") element.host = value;
    if (name === "for") element.for = value;
  }
  return element;
}

function splitUnquoted(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === "\\") i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function firstValue(header: string | null): string | undefined {
  if (header === null) return undefined;
  const comma = header.indexOf(",");
  return (comma === -1 ? header : header.slice(0, comma)).trim();
}

function validProto(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const proto = value.toLowerCase();
  return proto === "http" || proto === "https" ? proto : undefined;
}

function validHost(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 300 || !HOST.test(value)) return undefined;
  const colon = value.lastIndexOf(":");
  if (colon > value.lastIndexOf("]")) {
    const port = Number(value.slice(colon + 1));
    if (!(port >= 1 && port <= 65535)) return undefined;
  }
  try {
    // The URL parser has the final word (IPv6 syntax, IPv4 ranges).
    const url = new URL(`http://${value}`);
    return url.host === "" ? undefined : value;
  } catch {
    return undefined;
  }
}

/** Normalizes an IPv4 or IPv6 address, optionally with a port or brackets; else `undefined`. */
function ipAddress(value: string): string | undefined {
  let text = value.trim();
  if (text.length > 64) return undefined;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close === -1 || !/^(?::[0-9]{1,5})?$/.test(text.slice(close + 1))) return undefined;
    text = text.slice(1, close);
  } else if (/^[0-9.]+:[0-9]{1,5}$/.test(text)) {
    text = text.slice(0, text.indexOf(":"));
  }
  if (
    /^(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$/
      .test(text)
  ) {
    return text;
  }
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || !text.includes(":")) return undefined;
  try {
    // The URL parser validates and compresses IPv6 literals.
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}
