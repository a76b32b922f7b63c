/**
 * The client address a rate limit counts by: the runtime's (the handler's
 * second argument), or, with `trustedProxyHeaders`, the nearest proxy's
 * entry of the family in use; a header the configuration does not trust
 * never changes it. IPv6 addresses count per /64 (one host's whole
 * allocation), and an IPv4-mapped IPv6 address as its IPv4 address.
 *
 * @module
 */

import { forwardedClientAddress, type ProxyHeaders } from "../origins/proxy.ts";

/**
 * What the runtime knows about the connection, as the handlers' optional
 * second argument: `Deno.serve` passes it as is, `toNodeHandler` passes the
 * socket's address, and a Bun server passes
 * `{ remoteAddr: { hostname: server.requestIP(request)?.address } }`.
 *
 * @example
 * ```ts
 * import { type ClientInfo, createAuth } from "@service-stack/auth";
 *
 * const auth = createAuth({ oauth: [], secret: "a-test-secret-of-at-least-32-bytes!!" });
 * const info: ClientInfo = { remoteAddr: { hostname: "203.0.113.7" } };
 * await auth.handlers.ALL(new Request("http://localhost/auth/session"), info);
 * ```
 */
export interface ClientInfo {
  /** The peer of the connection (`Deno.NetAddr` and its siblings fit). */
  readonly remoteAddr?: {
    /** The peer's IP address. */
    readonly hostname?: string | null;
    /** The transport (`"tcp"`, `"unix"`, ...); not read. */
    readonly transport?: string;
  };
}

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9A-Fa-f]{1,4}$/;

/** The eight 16-bit groups of an IPv6 address (an IPv4 tail allowed), else `undefined`. */
function ipv6Groups(text: string): number[] | undefined {
  const colon = text.lastIndexOf(":");
  const tail = text.slice(colon + 1);
  if (tail.includes(".")) {
    if (!IPV4.test(tail)) return undefined;
    const [a, b, c, d] = tail.split(".").map(Number);
    text = `${text.slice(0, colon + 1)}${((a << 8) | b).toString(16)}:${
      ((c << 8) | d).toString(16)
    }`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] === "" ? [] : halves[0].split(":");
  const rest = halves.length === 1 || halves[1] === "" ? [] : halves[1].split(":");
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const parts = [...head, ...Array(8 - given).fill("0"), ...rest];
  return parts.every((part) => HEXTET.test(part)) ? parts.map((p) => parseInt(p, 16)) : undefined;
}

/**
 * The counting key of an address: an IPv4 address as it is, an IPv4-mapped
 * IPv6 address as its IPv4 address, any other IPv6 address as its /64
 * (`"2001:db8:1:2::/64"`); brackets, a port after brackets and a zone are
 * dropped. Another name the runtime reports counts as itself (lower case);
 * an empty or oversized value gives `undefined`.
 *
 * @example
 * ```ts
 * import { addressKey } from "./address.ts";
 *
 * addressKey("2001:db8:1:2:aaaa::1"); // "2001:db8:1:2::/64"
 * addressKey("::ffff:203.0.113.7"); // "203.0.113.7"
 * ```
 */
export function addressKey(address: string): string | undefined {
  let text = address.trim();
  if (text === "" || text.length > 253) return undefined;
  if (IPV4.test(text)) return text;
  if (text.startsWith("[")) text = text.slice(1, text.indexOf("]") >>> 0);
  const zone = text.indexOf("%");
  if (zone !== -1) text = text.slice(0, zone);
  const groups = text.includes(":") ? ipv6Groups(text) : undefined;
  if (groups === undefined) return /^[\x21-\x7e]+$/.test(text) ? text.toLowerCase() : undefined;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/**
 * The key of the client's address for one request: with `proxy` headers
 * trusted, the nearest proxy's entry of the family in use, else (or when
 * that entry is missing) the runtime's address; `undefined` when neither
 * is known.
 *
 * @example
 * ```ts
 * import { clientAddress } from "./address.ts";
 *
 * const request = new Request("http://localhost/", { headers: { "X-Forwarded-For": "198.51.100.1" } });
 * clientAddress(request, { remoteAddr: { hostname: "127.0.0.1" } }, false); // "127.0.0.1"
 * ```
 */
export function clientAddress(
  request: Request,
  info: ClientInfo | undefined,
  proxy: ProxyHeaders,
): string | undefined {
  const forwarded = proxy === false
    ? undefined
    : forwardedClientAddress(request, { trustProxyHeaders: proxy });
  const raw = forwarded ?? info?.remoteAddr?.hostname;
  return typeof raw === "string" ? addressKey(raw) : undefined;
}
