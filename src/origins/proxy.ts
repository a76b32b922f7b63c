/**
 * The service's origin as the request, or a trusted proxy, reports it, and
 * the client address a trusted proxy reports.
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

// RFC 3986 reg-name restricted to DNS labels, or IPv4, or a bracketed IPv6 literal; optional port.
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;
// RFC 7239 forwarded-pair: token "=" ( token / quoted-string ).
const FORWARDED_PAIR =
  /^[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)=([!#$%&'*+\-.^_`|~0-9A-Za-z]+|"(?:[^"\\]|\\.)*")[ \t]*$/;
/**
 * Which forwarding headers a trusted proxy sets, so which ones are read:
 * - `false`: none (every forwarding header is ignored);
 * - `"forwarded"`: RFC 7239 `Forwarded` alone (`proto`, `host`, `for` of
 *   its last element); `X-Forwarded-*` are ignored;
 * - `"x-forwarded"`: `X-Forwarded-Proto` and `X-Forwarded-Host` (and
 *   `X-Forwarded-For`); `Forwarded` is ignored. The proxy must set (or
 *   append to) both on every request, or a client's own value is read;
 * - `"x-forwarded-proto"`: `X-Forwarded-Proto` alone (and
 *   `X-Forwarded-For`), for proxies that pass `Host` through and set no
 *   `X-Forwarded-Host` (AWS ALB, Heroku, most nginx setups);
 * - `true`: `Forwarded`, or else `X-Forwarded-Proto` (never
 *   `X-Forwarded-Host`, which a client can send past a proxy that does not
 *   set it); when both families are present neither is read.
 */
export type ProxyHeaders = boolean | "forwarded" | "x-forwarded" | "x-forwarded-proto";

/** Why forwarding headers that were present were not read (see {@link ProxyOptions.onIgnored}). */
export type IgnoredProxyHeaders = "both-families" | "x-forwarded-host";

/** Options of {@link requestOrigin} and {@link forwardedClientAddress}. */
export interface ProxyOptions {
  /** The forwarding headers a trusted proxy sets; see {@link ProxyHeaders}. */
  trustProxyHeaders: ProxyHeaders;
  /**
   * Told when forwarding headers were present but not read with
   * `trustProxyHeaders: true`: both families at once (`both-families`), or
   * an `X-Forwarded-Host` (`x-forwarded-host`). For a warning.
   */
  onIgnored?: (reason: IgnoredProxyHeaders) => void;
}

/** The family of forwarding headers one request is read from, if any. */
type Family = "forwarded" | "x-forwarded" | undefined;

function hasXForwarded(headers: Headers): boolean {
  return headers.has("x-forwarded-proto") || headers.has("x-forwarded-host") ||
    headers.has("x-forwarded-for");
}

/** The one family this request's forwarding headers are read from; never both. */
function familyOf(headers: Headers, options: ProxyOptions): Family {
  const mode = options.trustProxyHeaders;
  if (mode === false) return undefined;
  if (mode === "forwarded") return "forwarded";
  if (mode !== true) return "x-forwarded";
  const forwarded = headers.has("forwarded");
  const xForwarded = hasXForwarded(headers);
  // One family is the proxy's and the other the client's, and nothing says which.
  if (forwarded && xForwarded) {
    options.onIgnored?.("both-families");
    return undefined;
  }
  return forwarded ? "forwarded" : xForwarded ? "x-forwarded" : undefined;
}

/**
 * Decides the origin and scheme of a request. With `trustProxyHeaders`
 * false only `url` counts and every forwarding header is ignored; otherwise
 * the one family of headers {@link ProxyHeaders} names is read, and protocol
 * and host always come from that family (never one from each). A proxy
 * appends to these headers, so only the LAST element or value (the one the
 * nearest, trusted proxy added) counts: earlier ones are whatever the client
 * sent. Protocol and host each fall back to `url` when absent or invalid.
 * The protocol must be `http` or `https`; the host must be
 * `hostname[:port]` with an IPv6 address in brackets.
 *
 * @example
 * ```ts
 * import { requestOrigin } from "./proxy.ts";
 * const request = new Request("http://internal:8080/auth/session", {
 *   headers: { "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com" },
 * });
 * requestOrigin(request, { url: new URL(request.url), trustProxyHeaders: "x-forwarded" });
 * // { origin: "https://app.example.com", secure: true }
 * ```
 */
export function requestOrigin(
  request: Request,
  options: ProxyOptions & { url: Pick<URL, "origin" | "protocol" | "host"> },
): RequestOrigin {
  const { url, trustProxyHeaders } = options;
  const own = { origin: url.origin, secure: url.protocol === "https:" };
  if (trustProxyHeaders === false) return Object.freeze(own);
  try {
    const headers = request.headers;
    const family = familyOf(headers, options);
    let proto: string | undefined;
    let host: string | undefined;
    if (family === "forwarded") {
      const element = lastForwardedElement(headers.get("forwarded"));
      proto = validProto(element?.proto);
      host = validHost(element?.host);
    } else if (family === "x-forwarded") {
      proto = validProto(lastValue(headers.get("x-forwarded-proto")));
      if (trustProxyHeaders === "x-forwarded") {
        host = validHost(lastValue(headers.get("x-forwarded-host")));
      } else if (trustProxyHeaders === true && headers.has("x-forwarded-host")) {
        options.onIgnored?.("x-forwarded-host");
      }
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
 * The client's IP address as reported by the nearest trusted proxy, from
 * the family {@link requestOrigin} reads: the `for` parameter of the last
 * `Forwarded` element, or the last `X-Forwarded-For` value. A port and IPv6
 * brackets are removed. `undefined` when `trustProxyHeaders` is false, the
 * header is absent, both families are present under `true`, or the value is
 * not an IP address (obfuscated identifiers and `unknown` included). For
 * logs only: a client can forge it unless the proxy overwrites these headers.
 *
 * @example
 * ```ts
 * import { forwardedClientAddress } from "./proxy.ts";
 * const request = new Request("http://internal/", { headers: { "x-forwarded-for": "10.9.9.9, 203.0.113.7" } });
 * forwardedClientAddress(request, { trustProxyHeaders: "x-forwarded" }); // "203.0.113.7"
 * ```
 */
export function forwardedClientAddress(
  request: Request,
  options: ProxyOptions,
): string | undefined {
  if (options.trustProxyHeaders === false) return undefined;
  try {
    const family = familyOf(request.headers, { trustProxyHeaders: options.trustProxyHeaders });
    const raw = family === "forwarded"
      ? lastForwardedElement(request.headers.get("forwarded"))?.for
      : family === "x-forwarded"
      ? lastValue(request.headers.get("x-forwarded-for"))
      : undefined;
    return raw === undefined ? undefined : ipAddress(raw);
  } catch {
    return undefined;
  }
}

interface ForwardedElement {
  proto?: string;
  host?: string;
  for?: string;
}

/**
 * Last element of an RFC 7239 `Forwarded` header (the nearest proxy's);
 * `undefined` when absent or malformed.
 */
function lastForwardedElement(header: string | null): ForwardedElement | undefined {
  if (header === null || header.length > 4096) return undefined;
  const elements = splitUnquoted(header, ",");
  if (elements === undefined) return undefined;
  const last = elements[elements.length - 1];
  const element: ForwardedElement = {};
  const seen = new Set<string>();
  for (const pair of splitUnquoted(last, ";") ?? []) {
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

/** Splits on a separator outside quoted strings; `undefined` when a quote is left open. */
function splitUnquoted(text: string, separator: string): string[] | undefined {
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
  return quoted ? undefined : parts;
}

function lastValue(header: string | null): string | undefined {
  if (header === null) return undefined;
  return header.slice(header.lastIndexOf(",") + 1).trim();
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
