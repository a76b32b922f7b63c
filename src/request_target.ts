/**
 * What the handler needs of a request's URL before anything else: its
 * origin, scheme, host and path. `new URL()` stays the single authority on
 * what a URL means; this module only avoids asking it the same question on
 * every request. A request URL is `scheme://authority` followed by a path:
 * the authority part is parsed by `new URL()` once and remembered (a server
 * sees few distinct ones), and the rest is used as it is when it holds only
 * characters the URL parser leaves unchanged and no dot segment. Anything
 * else goes through `new URL()` whole.
 *
 * @module
 */

/** The parts of a request URL the request path reads first. */
export interface RequestTarget {
  /** `scheme://host[:port]`, as `URL.origin` gives it. */
  readonly origin: string;
  /** `"http:"` or `"https:"` (or another scheme, as `URL.protocol` gives it). */
  readonly protocol: string;
  /** `host[:port]`, as `URL.host` gives it. */
  readonly host: string;
  /** The path, as `URL.pathname` gives it. */
  readonly pathname: string;
}

type Authority = Omit<RequestTarget, "pathname">;

/** Most authorities remembered; past this the memo starts over. */
const MEMO_ENTRIES = 64;
/** `scheme://authority` strings the URL parser prints unchanged, with their parts. */
const authorities = new Map<string, Authority | null>();

// 1 for characters the URL parser keeps as they are in a path, 2 for those it also keeps in a
// query (of an http(s) URL). Not "%" in a path ("%2e" is a dot), nor "\", "'" in a query, or any
// space, quote, "<", ">", "^", "`", "{", "|", "}", "#" and non-ASCII.
const KEPT = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/") {
  KEPT[c.charCodeAt(0)] = 3;
}
KEPT["'".charCodeAt(0)] = 1;
KEPT["?".charCodeAt(0)] = 2;
KEPT["%".charCodeAt(0)] = 2;

/** The authority part, when `new URL()` prints it exactly as sent. */
function authorityOf(prefix: string): Authority | null {
  let known = authorities.get(prefix);
  if (known !== undefined) return known;
  known = null;
  try {
    const url = new URL(`${prefix}/`);
    if (url.href === `${prefix}/` && (url.protocol === "http:" || url.protocol === "https:")) {
      known = Object.freeze({ origin: url.origin, protocol: url.protocol, host: url.host });
    }
  } catch {
    // Not an authority the parser accepts: the caller falls back to the whole URL.
  }
  if (authorities.size >= MEMO_ENTRIES) authorities.clear();
  authorities.set(prefix, known);
  return known;
}

/** The last authority read (never a refused one). */
let last: { prefix: string; authority: Authority } = {
  prefix: "\u0000",
  authority: { origin: "", protocol: "", host: "" },
};

/** The fast reading, or `undefined` when the URL parser might print the URL differently. */
function fastTarget(href: string): RequestTarget | undefined {
  const scheme = href.startsWith("https://") ? 8 : href.startsWith("http://") ? 7 : 0;
  if (scheme === 0) return undefined;
  let pathStart: number;
  let authority: Authority | null;
  // Most requests repeat the last authority: compared in place, with no slice and no hashing.
  if (href.startsWith(last.prefix) && href.charCodeAt(last.prefix.length) === 47) {
    pathStart = last.prefix.length;
    authority = last.authority;
  } else {
    pathStart = href.indexOf("/", scheme);
    if (pathStart === -1) return undefined;
    const prefix = href.slice(0, pathStart);
    authority = authorityOf(prefix);
    if (authority === null) return undefined;
    last = { prefix, authority };
  }
  const length = href.length;
  let pathEnd = length;
  let previous = 0;
  for (let i = pathStart; i < length; i++) {
    const c = href.charCodeAt(i);
    if (c > 127) return undefined;
    if (pathEnd === length) {
      if (c === 63) { // "?"
        pathEnd = i;
      } else if ((KEPT[c] & 1) === 0 || (c === 46 && previous === 47)) { // "/." starts a dot segment
        return undefined;
      }
    } else if ((KEPT[c] & 2) === 0) {
      return undefined;
    }
    previous = c;
  }
  return {
    origin: authority.origin,
    protocol: authority.protocol,
    host: authority.host,
    pathname: href.slice(pathStart, pathEnd),
  };
}

/** The last URL the fast reading accepted, and its frozen reading. */
let lastHref: string | undefined;
let lastTarget: RequestTarget | null = null;

/**
 * Reads a request URL; `null` when it is no absolute URL. Equal to what
 * `new URL(href)` gives for every URL.
 *
 * @example
 * ```ts
 * import { requestTarget } from "./request_target.ts";
 * requestTarget("https://app.example.com/auth/session")?.pathname; // "/auth/session"
 * requestTarget("http://LOCALHOST:80/auth/../auth/session")?.origin; // "http://localhost"
 * requestTarget("not a url"); // null
 * ```
 */
export function requestTarget(href: string): RequestTarget | null {
  // A client polling one route repeats the same URL: its reading is kept, frozen.
  if (href === lastHref) return lastTarget;
  const fast = fastTarget(href);
  if (fast !== undefined) {
    lastHref = href;
    lastTarget = Object.freeze(fast);
    return lastTarget;
  }
  try {
    const { origin, protocol, host, pathname } = new URL(href);
    return Object.freeze({ origin, protocol, host, pathname });
  } catch {
    return null;
  }
}
