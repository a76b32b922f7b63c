/**
 * The request pipeline: route (404/405), CORS preflight, the rate limit of
 * a limited route (429), `Origin` (403; not for a route that takes any
 * origin, the `form_post` callback), then the route. Every failure becomes
 * an RFC 6749 error body through the one error wrapper (an HTML page for a
 * browser's plain form post); nothing unexpected escapes as anything but a
 * logged 500.
 *
 * @module
 */

import type { AuthContext } from "./config.ts";
import type { FeatureDefinition } from "./config/feature.ts";
import { failureResponse } from "./core/browser_failure.ts";
import { AuthError, toAuthError } from "./errors.ts";
import { emptyResponse, errorResponse } from "./http.ts";
import { createHttpContext, type HttpContext } from "./http_context.ts";
import { requestTarget } from "./request_target.ts";
import { matchRoute, type Method, type Route } from "./router.ts";
import type { ClientInfo } from "./rate_limit/address.ts";
import { countRequest, type NamedRule } from "./rate_limit/limit.ts";
import { routeKey } from "./rate_limit/rules.ts";
import { BASE_ROUTES } from "./routes/table.ts";

/**
 * A request handler. The optional second argument carries the client's
 * address for rate limits: `Deno.serve`'s `info` as it is, or
 * `{ remoteAddr: { hostname } }` from another runtime.
 *
 * @example
 * ```ts
 * import { createAuth, type Handler } from "@service-stack/auth";
 *
 * const auth = createAuth({ oauth: [], secret: "a-test-secret-of-at-least-32-bytes!!" });
 * const handler: Handler = auth.handlers.ALL;
 * Deno.serve((request, info) => handler(request, info));
 * ```
 */
export interface Handler {
  /** Answers `request`; `info` gives the client's address (see {@link ClientInfo}). */
  (request: Request, info?: ClientInfo): Promise<Response>;
  // Last, so that frameworks that read the last signature for their own second argument (a
  // Next.js route's `{ params }`) see a one-argument handler and accept it.
  /** Answers `request` without a client address (per-address rate limits are skipped). */
  (request: Request): Promise<Response>;
}

const ALLOWED_HEADERS = "Content-Type, X-CSRF-Token, Authorization";

// One table per feature list, so an instance's handlers share it (the router compiles it once).
const tables = new WeakMap<readonly FeatureDefinition<unknown, AuthContext>[], readonly Route[]>();

/** The base routes followed by those of the instance's features. */
function routeTable(
  features: readonly FeatureDefinition<unknown, AuthContext>[],
): readonly Route[] {
  let table = tables.get(features);
  if (table === undefined) {
    // Every feature is one the library defined with its routes (config/feature.ts checks the shape).
    const extra = features.flatMap((feature) => feature.routes as readonly Route[]);
    table = Object.freeze([...BASE_ROUTES, ...extra]);
    tables.set(features, table);
  }
  return table;
}

/** Builds the handler; `only` restricts it to one method (the per-method handlers). */
export function createHandler(ctx: AuthContext, only?: Method): Handler {
  const routes = routeTable(ctx.features);
  const limits = limitsOf(ctx, routes);
  return async function handle(request: Request, info?: ClientInfo): Promise<Response> {
    const target = requestTarget(request.url);
    if (target === null) {
      return errorResponse(
        undefined,
        new AuthError("invalid_request", "The request URL is malformed; expected an absolute URL."),
      );
    }
    const http = createHttpContext(ctx, request, target);
    try {
      // A route that answered synchronously (a cached session read) is not awaited: no extra tick.
      const response = dispatch(ctx, { routes, limits, info }, http, only);
      return response instanceof Promise ? await response : response;
    } catch (error) {
      return await failureResponse(http, toAuthError(error, ctx.logger, "request handler"));
    }
  };
}

/** The rule of each limited route of the table, found by its method and path. */
function limitsOf(ctx: AuthContext, routes: readonly Route[]): ReadonlyMap<Route, NamedRule> {
  const limits = new Map<Route, NamedRule>();
  const rules = ctx.rateLimit?.byRoute;
  for (const route of rules === undefined ? [] : routes) {
    const rule = rules!.get(routeKey(route.method, route.segments));
    if (rule !== undefined) limits.set(route, rule);
  }
  return limits;
}

/** What the handler passes down besides the request: its tables and the runtime's info. */
interface Dispatch {
  readonly routes: readonly Route[];
  readonly limits: ReadonlyMap<Route, NamedRule>;
  readonly info: ClientInfo | undefined;
}

/** Routes the request; synchronous up to the route, which may answer without a promise. */
function dispatch(
  ctx: AuthContext,
  { routes, limits, info }: Dispatch,
  http: HttpContext,
  only?: Method,
): Response | Promise<Response> {
  const method = http.request.method.toUpperCase();
  const matched = matchRoute(routes, { ctx, pathname: http.pathname, method });
  if (matched.kind === "not_found") {
    throw new AuthError("invalid_request", "The route is unknown; expected an auth route.", {
      status: 404,
    });
  }
  const origin = crossOrigin(http);
  if (method === "OPTIONS") return preflightChecked(http, matched.allow, origin);
  if (matched.kind !== "match" || (only !== undefined && method !== only)) {
    http.headers.push(["Allow", matched.allow.join(", ")]);
    throw new AuthError(
      "invalid_request",
      `The method ${safeMethod(method)}is not allowed here; expected ${
        matched.allow.join(" or ")
      }.`,
      { status: 405 },
    );
  }
  const rule = limits.get(matched.route);
  if (rule !== undefined) {
    return handleLimited(ctx, http, { rule, info, origin, matched });
  }
  if (origin !== null && !matched.route.anyOrigin) {
    return handleChecked(ctx, http, origin, matched.route, matched.params);
  }
  return matched.route.handle(ctx, http, matched.params);
}

/** Counts the request against its route's rule (429 over it), then goes on as any route. */
async function handleLimited(
  ctx: AuthContext,
  http: HttpContext,
  request: {
    rule: NamedRule;
    info: ClientInfo | undefined;
    origin: string | null;
    matched: { route: Route; params: Readonly<Record<string, string>> };
  },
): Promise<Response> {
  const { rule, origin, matched } = request;
  await countRequest(ctx.rateLimit!, rule, {
    request: http.request,
    info: request.info,
    proxy: ctx.trustProxyHeaders,
    store: ctx.throttleStore,
    logger: ctx.logger,
    out: http,
  });
  if (origin !== null && !matched.route.anyOrigin) {
    // A trusted page's script may read the limits (and a 429's wait).
    http.headers.push([
      "Access-Control-Expose-Headers",
      "RateLimit, RateLimit-Policy, Retry-After",
    ]);
    return await handleChecked(ctx, http, origin, matched.route, matched.params);
  }
  return await matched.route.handle(ctx, http, matched.params);
}

/** The request's `Origin` when it is cross-origin, else `null` (absent or same-origin). */
function crossOrigin(http: HttpContext): string | null {
  const origin = http.request.headers.get("Origin");
  if (origin === null || origin === http.origin) return null;
  // A form on one of our no-referrer pages posts with `Origin: null`; the browser's own
  // Sec-Fetch-Site (which no page can set) still tells a same-origin post from a cross-site one.
  if (origin === "null" && http.request.headers.get("Sec-Fetch-Site") === "same-origin") {
    return null;
  }
  return origin;
}

async function handleChecked(
  ctx: AuthContext,
  http: HttpContext,
  origin: string,
  route: Route,
  params: Readonly<Record<string, string>>,
): Promise<Response> {
  await checkOrigin(http, origin);
  return await route.handle(ctx, http, params);
}

async function preflightChecked(
  http: HttpContext,
  allow: readonly Method[],
  origin: string | null,
): Promise<Response> {
  if (origin !== null) await checkOrigin(http, origin);
  return preflight(http, allow, origin !== null);
}

/** Refuses an untrusted cross-origin `Origin` (403); allows a trusted one with CORS headers. */
async function checkOrigin(http: HttpContext, origin: string): Promise<void> {
  http.headers.push(["Vary", "Origin"]);
  if (!(await http.isTrusted(origin))) {
    throw new AuthError(
      "access_denied",
      "Cross-origin requests from this origin are not allowed; expected a trusted origin.",
      { status: 403 },
    );
  }
  http.headers.push(
    ["Access-Control-Allow-Origin", new URL(origin).origin],
    ["Access-Control-Allow-Credentials", "true"],
  );
}

function preflight(http: HttpContext, allow: readonly Method[], crossOrigin: boolean): Response {
  if (crossOrigin) {
    http.headers.push(
      ["Access-Control-Allow-Methods", allow.join(", ")],
      ["Access-Control-Allow-Headers", ALLOWED_HEADERS],
      ["Access-Control-Max-Age", "600"],
    );
  } else {
    http.headers.push(["Allow", [...allow, "OPTIONS"].join(", ")]);
  }
  return emptyResponse(http, 204);
}

function safeMethod(method: string): string {
  return /^[A-Z]{1,10}$/.test(method) ? `${method} ` : "";
}
