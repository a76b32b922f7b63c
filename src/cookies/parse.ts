/**
 * The `Cookie` request header, read tolerantly and in bounded time.
 *
 * @module
 */

/** Most cookies kept from one `Cookie` header. */
export const MAX_REQUEST_COOKIES = 200;

/**
 * Parses a `Cookie` request header into a map. Tolerant and never throws:
 * pairs without `=` or with an empty name are skipped, surrounding
 * whitespace and one pair of double quotes around a value are removed,
 * values are kept as sent (no percent-decoding). A name sent more than once
 * is left out entirely: a sibling subdomain can plant a second cookie of the
 * same name (cookie tossing), and neither copy can be told apart, so neither
 * is used. At most {@link MAX_REQUEST_COOKIES} distinct names are read.
 *
 * @example
 * ```ts
 * import { parseCookies } from "./parse.ts";
 * parseCookies("a=1; b=\"2\"").get("b"); // "2"
 * parseCookies("a=1; b=2; a=3").has("a"); // false
 * ```
 */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (typeof header !== "string") return cookies;
  let repeated: Set<string> | undefined;
  const length = header.length;
  // Bound the work on hostile headers: empty segments count too.
  let segments = 0;
  let start = 0;
  // Next "=" at or after start, searched again only once passed, so no tail is rescanned.
  let eq = -1;
  while (start < length && segments < 4 * MAX_REQUEST_COOKIES) {
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
      if (name !== "") {
        if (cookies.has(name) || repeated?.has(name)) {
          cookies.delete(name);
          (repeated ??= new Set()).add(name);
        } else if (cookies.size < MAX_REQUEST_COOKIES) {
          cookies.set(name, unquote(header.slice(eq + 1, end).trim()));
        }
      }
    }
    start = end + 1;
  }
  return cookies;
}

function unquote(value: string): string {
  return value.length >= 2 && value.charCodeAt(0) === 34 &&
      value.charCodeAt(value.length - 1) === 34
    ? value.slice(1, -1)
    : value;
}
