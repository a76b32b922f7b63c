/**
 * Route declarations and matching. A route is declared once (method, path,
 * when it is enabled, what runs); paths are matched segment by segment on the
 * raw pathname, so extra or doubled slashes, trailing slashes and dot
 * segments never match and no check bound to a canonical path can be skipped.
 *
 * @module
 */

import type { AuthContext } from "./config.ts";
import type { HttpContext } from "./http_context.ts";

/** The methods routes answer (`OPTIONS` is answered for every path by the handler). */
export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** The path parameters a pattern such as `"signIn/:provider"` declares. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { readonly [K in Name]: string } & PathParams<Rest>
  : P extends `${string}:${infer Name}` ? { readonly [K in Name]: string }
  : Record<never, never>;

/** What runs for a matched route; it may answer synchronously (a cached session read). */
export type RouteHandler<P = Readonly<Record<string, string>>> = (
  ctx: AuthContext,
  http: HttpContext,
  params: P,
) => Response | Promise<Response>;

/** A declared route. */
export interface Route {
  /** The method it answers. */
  readonly method: Method;
  /** Path segments after `basePath`; `:name` captures one decoded segment. */
  readonly segments: readonly string[];
  /** Whether every segment is literal (such routes win over parameter routes). */
  readonly literal: boolean;
  /** Whether the instance serves it; a route that is off is a 404. */
  readonly enabled: (ctx: AuthContext) => boolean;
  /** Whether it takes requests from any `Origin` (see {@link RouteOptions.anyOrigin}). */
  readonly anyOrigin: boolean;
  /** The route's handler. */
  readonly handle: RouteHandler;
  /** The config option that turns the route on, named by its 404 while it is off. */
  readonly needs?: string;
}

/** Options of {@link route}. */
export interface RouteOptions {
  /** Whether the configuration enables the route; default always. */
  enabled?: (ctx: AuthContext) => boolean;
  /**
   * The handler's `Origin` check is skipped: the route answers a provider's
   * cross-site request (a `form_post` callback from the provider's page)
   * and carries its own proof that the request belongs to a flow started
   * here (the OAuth `state`, bound to the sealed flow cookies). Default
   * `false`.
   */
  anyOrigin?: boolean;
  /**
   * The config option that turns the route on (`"credentials.authorize"`),
   * named in the 404 a request gets while it is off; a feature's routes
   * default to the feature's config key.
   */
  needs?: string;
}

const always = () => true;

/** Declares a route; the handler's params are typed by the path pattern. */
export function route<P extends string>(
  method: Method,
  path: P,
  handle: RouteHandler<PathParams<P>>,
  options: RouteOptions = {},
): Route {
  const segments = Object.freeze(path.split("/"));
  return Object.freeze({
    method,
    segments,
    literal: segments.every((segment) => !segment.startsWith(":")),
    enabled: options.enabled ?? always,
    anyOrigin: options.anyOrigin === true,
    ...(options.needs === undefined ? {} : { needs: options.needs }),
    // The pattern fills exactly the params PathParams<P> names.
    handle: handle as RouteHandler,
  });
}

/** The outcome of matching a request against the route table. */
export type RouteMatch =
  | {
    readonly kind: "match";
    readonly route: Route;
    readonly params: Readonly<Record<string, string>>;
    readonly allow: readonly Method[];
  }
  | { readonly kind: "method_not_allowed"; readonly allow: readonly Method[] }
  | {
    readonly kind: "not_found";
    /** A route at this path that the configuration turned off, when there is one. */
    readonly off?: Route;
  };

const NOT_FOUND: RouteMatch = Object.freeze({ kind: "not_found" });

/** A route table indexed for matching: literal paths by text, parameter routes by first segment. */
interface CompiledTable {
  readonly literal: ReadonlyMap<string, readonly Route[]>;
  readonly byHead: ReadonlyMap<string, readonly Route[]>;
}

const compiled = new WeakMap<readonly Route[], CompiledTable>();

function compile(table: readonly Route[]): CompiledTable {
  let index = compiled.get(table);
  if (index === undefined) {
    const literal = new Map<string, Route[]>();
    const byHead = new Map<string, Route[]>();
    for (const candidate of table) {
      const map = candidate.literal ? literal : byHead;
      const key = candidate.literal ? candidate.segments.join("/") : candidate.segments[0];
      map.set(key, [...(map.get(key) ?? []), candidate]);
    }
    index = { literal, byHead };
    compiled.set(table, index);
  }
  return index;
}

/**
 * Matches a pathname and method. Routes whose path is all literal win over
 * routes with parameters for the same path (`signIn/credentials` is never
 * read as provider `credentials`); routes the configuration turns off count
 * as absent. `method` may be `OPTIONS`: it never matches, but gives `allow`.
 */
export function matchRoute(
  table: readonly Route[],
  request: { ctx: AuthContext; pathname: string; method: string },
): RouteMatch {
  const { ctx, pathname, method } = request;
  const base = ctx.basePath;
  if (!pathname.startsWith(base) || pathname.charCodeAt(base.length) !== 47 /* / */) {
    return NOT_FOUND;
  }
  const rest = pathname.slice(base.length + 1);
  const index = compile(table);
  const literal = index.literal.get(rest);
  if (literal !== undefined) return pick(ctx, literal, method, EMPTY_PARAMS);
  const segments = rest.split("/");
  const candidates = index.byHead.get(segments[0]);
  if (candidates === undefined) return NOT_FOUND;
  const matched: Route[] = [];
  let params: Record<string, string> | null = null;
  for (const candidate of candidates) {
    const found = matchSegments(candidate.segments, segments);
    if (found !== null) {
      matched.push(candidate);
      params = found;
    }
  }
  return params === null ? NOT_FOUND : pick(ctx, matched, method, params);
}

const EMPTY_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function pick(
  ctx: AuthContext,
  candidates: readonly Route[],
  method: string,
  params: Readonly<Record<string, string>>,
): RouteMatch {
  let found: Route | undefined;
  const allow: Method[] = [];
  for (const candidate of candidates) {
    if (!candidate.enabled(ctx)) continue;
    allow.push(candidate.method);
    if (candidate.method === method) found = candidate;
  }
  if (allow.length === 0) {
    return candidates.length === 0 ? NOT_FOUND : { kind: "not_found", off: candidates[0] };
  }
  return found
    ? { kind: "match", route: found, params, allow }
    : { kind: "method_not_allowed", allow };
}
function matchSegments(
  pattern: readonly string[],
  segments: readonly string[],
): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i];
    if (!expected.startsWith(":")) {
      if (segments[i] !== expected) return null;
      continue;
    }
    const value = decodeSegment(segments[i]);
    if (value === null) return null;
    params[expected.slice(1)] = value;
  }
  return params;
}

function decodeSegment(raw: string): string | null {
  if (raw === "") return null;
  try {
    const value = decodeURIComponent(raw);
    return value === "" || value.includes("/") ? null : value;
  } catch {
    return null;
  }
}
