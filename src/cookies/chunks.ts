/**
 * Cookies too large for one `Set-Cookie` line: written as numbered chunks
 * (`{name}.0`, `{name}.1`, ...), read back joined, cleared together.
 *
 * @module
 */

import { CHUNK_SUFFIX } from "./_syntax.ts";
import type { CookieAttributes, CookieSpec } from "./jar.ts";
import { clearCookieLine, serializeCookie } from "./serialize.ts";

/** A `Set-Cookie` line must stay below this many bytes, else it is chunked. */
export const MAX_SET_COOKIE_BYTES = 4096;

/** Most chunks a chunked cookie may have (about 60 KiB of value). */
export const MAX_COOKIE_CHUNKS = 16;

/** Options of {@link chunkedCookieLines}. */
export interface ChunkedCookieOptions {
  /** Lifetime in seconds. */
  maxAge: number;
  /** The request's cookies, to clear chunks an earlier write left behind. */
  requestCookies: ReadonlyMap<string, string>;
  /** Now, in milliseconds, for `Expires`. */
  nowMs: number;
}

/**
 * The `Set-Cookie` lines that store `value` under `spec`: one line when it
 * fits below {@link MAX_SET_COOKIE_BYTES}, else chunks `{name}.0`,
 * `{name}.1`, ... each line below that size. Also clears what the request
 * still holds from an earlier write: chunks beyond the new count, or the
 * unchunked cookie when chunking (exact names only).
 *
 * @throws {RangeError} when the value needs more than {@link MAX_COOKIE_CHUNKS} chunks.
 *
 * @example
 * ```ts
 * import { chunkedCookieLines } from "./chunks.ts";
 * import { resolveCookieJars } from "./jar.ts";
 * const spec = resolveCookieJars(undefined).https.sessionToken;
 * const lines = chunkedCookieLines(spec, "a".repeat(10_000), {
 *   maxAge: 3600,
 *   requestCookies: new Map(),
 *   nowMs: Date.now(),
 * });
 * lines.length; // 3
 * ```
 */
export function chunkedCookieLines(
  spec: CookieSpec,
  value: string,
  options: ChunkedCookieOptions,
): string[] {
  const { requestCookies, nowMs } = options;
  const attributes: CookieAttributes = { ...spec.attributes, maxAge: options.maxAge };
  const whole = serializeCookie({ name: spec.name, value, attributes }, nowMs);
  const present = presentChunks(spec.name, requestCookies);
  if (whole.length < MAX_SET_COOKIE_BYTES) {
    return [whole, ...present.map((i) => clearCookieLine(chunk(spec, i)))];
  }
  const lines: string[] = [];
  let offset = 0;
  while (offset < value.length) {
    if (lines.length === MAX_COOKIE_CHUNKS) {
      throw new RangeError(
        `Cookie "${spec.name}" needs more than ${MAX_COOKIE_CHUNKS} chunks; expected a smaller value.`,
      );
    }
    const name = `${spec.name}.${lines.length}`;
    // Every character is one byte: names, values and attributes are validated ASCII.
    const room = MAX_SET_COOKIE_BYTES - 1 -
      serializeCookie({ name, value: "", attributes }, nowMs).length;
    if (room <= 0) {
      throw new RangeError(
        `Cookie "${spec.name}" attributes leave no room for a value; expected shorter attributes.`,
      );
    }
    lines.push(
      serializeCookie({ name, value: value.slice(offset, offset + room), attributes }, nowMs),
    );
    offset += room;
  }
  const count = lines.length;
  if (requestCookies.has(spec.name)) lines.push(clearCookieLine(spec));
  for (const i of present) {
    if (i >= count) lines.push(clearCookieLine(chunk(spec, i)));
  }
  return lines;
}

/** `name.0` to `name.{MAX_COOKIE_CHUNKS}`, made once per cookie name (the jar's few). */
const chunkNameLists = new Map<string, readonly string[]>();

function chunkNames(name: string): readonly string[] {
  let names = chunkNameLists.get(name);
  if (names === undefined) {
    names = Array.from({ length: MAX_COOKIE_CHUNKS + 1 }, (_, i) => `${name}.${i}`);
    if (chunkNameLists.size >= 64) chunkNameLists.clear();
    chunkNameLists.set(name, names);
  }
  return names;
}

/**
 * Reads a cookie that may have been chunked: the unchunked cookie, else the
 * chunks `{name}.0`, `{name}.1`, ... joined, contiguous from 0 with exact
 * names. The unchunked cookie beside a chunk `.0` is ambiguous (one of them
 * was planted), so it gives no value; so do more than
 * {@link MAX_COOKIE_CHUNKS} chunks.
 *
 * @example
 * ```ts
 * import { readChunkedCookie } from "./chunks.ts";
 * import { parseCookies } from "./parse.ts";
 * readChunkedCookie("s", parseCookies("s.1=cd; s.0=ab; s.evil=x")); // "abcd"
 * readChunkedCookie("s", parseCookies("s=whole; s.0=ab")); // undefined
 * ```
 */
export function readChunkedCookie(
  name: string,
  cookies: ReadonlyMap<string, string>,
): string | undefined {
  const names = chunkNames(name);
  const whole = cookies.get(name);
  const first = cookies.get(names[0]);
  if (whole !== undefined && whole !== "") return first === undefined ? whole : undefined;
  let joined = "";
  let count = 0;
  for (; count < MAX_COOKIE_CHUNKS; count++) {
    const part = cookies.get(names[count]);
    if (part === undefined || part === "") break;
    joined += part;
  }
  if (count === 0) return undefined;
  if (count === MAX_COOKIE_CHUNKS && cookies.has(names[MAX_COOKIE_CHUNKS])) return undefined;
  return joined;
}

/**
 * The `Set-Cookie` lines that delete a cookie: always the cookie itself, plus
 * every chunk of it present in the request.
 *
 * @example
 * ```ts
 * import { clearCookieLines } from "./chunks.ts";
 * import { resolveCookieJars } from "./jar.ts";
 * import { parseCookies } from "./parse.ts";
 * const spec = resolveCookieJars(undefined).http.sessionToken;
 * clearCookieLines(spec, parseCookies("service-stack.session_token.0=x")).length; // 2
 * ```
 */
export function clearCookieLines(
  spec: CookieSpec,
  requestCookies: ReadonlyMap<string, string>,
): string[] {
  return [
    clearCookieLine(spec),
    ...presentChunks(spec.name, requestCookies).map((i) => clearCookieLine(chunk(spec, i))),
  ];
}

function chunk(spec: CookieSpec, index: number): CookieSpec {
  return { name: `${spec.name}.${index}`, attributes: spec.attributes };
}

/** Indexes of `{name}.{n}` cookies in the request, ascending, exact names only. */
function presentChunks(name: string, cookies: ReadonlyMap<string, string>): number[] {
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
