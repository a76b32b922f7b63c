/**
 * The request pipeline: route (404/405), CORS preflight, `Origin` (403;
 * not for a route that takes any origin, the `form_post` callback), then the
 * route. Every failure becomes an RFC 6749 error body through the
 * one error wrapper (an HTML page for a browser's plain form post); nothing
 * unexpected escapes as anything but a logged 500.
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
import { BASE_ROUTES } from "./routes/table.ts";

/** A request handler. */
export type Handler = (request: Request) => Promise<Response>;

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
  return async function handle(request: Request): Promise<Response> {
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
      const response = dispatch(ctx, routes, http, only);
      return response instanceof Promise ? await response : response;
    } catch (error) {
      return await failureResponse(http, toAuthError(error, ctx.logger, "request handler"));
    }
  };
}

/** Routes the request; synchronous up to the route, which may answer without a promise. */
function dispatch(
  ctx: AuthContext,
  routes: readonly Route[],
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
  if (origin !== null && !matched.route.anyOrigin) {
    return handleChecked(ctx, http, origin, matched.route, matched.params);
  }
  return matched.route.handle(ctx, http, matched.params);
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
