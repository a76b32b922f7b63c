/**
 * The request pipeline: route (404/405), CORS preflight, `Origin` (403),
 * then the route; every failure becomes an RFC 6749 error body and nothing
 * unexpected escapes as anything but a logged 500.
 *
 * @module
 */

import type { AuthContext } from "./config.ts";
import { AuthError } from "./errors.ts";
import { emptyResponse, errorResponse, type ResponseParts, responseParts } from "./http.ts";
import { type RequestState, requestState } from "./request.ts";
import { route, type RouteMatch } from "./router.ts";
import { credentialsRoute } from "./routes/credentials.ts";
import { csrfTokenRoute } from "./routes/csrf_token.ts";
import { getSessionRoute, updateSessionRoute } from "./routes/session.ts";
import { signOutRoute } from "./routes/sign_out.ts";
import { signUpRoute } from "./routes/sign_up.ts";
import { signInRoute } from "./routes/sign_in.ts";
import { callbackRoute } from "./routes/callback.ts";

/** A request handler. */
export type Handler = (request: Request) => Promise<Response>;

const ALLOWED_HEADERS = "Content-Type, X-CSRF-Token, Authorization";

/** Whether a configured feature serves the route; an unconfigured one is a 404. */
function available(ctx: AuthContext, match: RouteMatch): boolean {
  if (match.name === "credentials") return ctx.authorize !== undefined;
  if (match.name === "signUp") return ctx.onCreateUser !== undefined;
  return true;
}

function dispatch(
  ctx: AuthContext,
  match: RouteMatch,
  method: string,
  state: RequestState,
  parts: ResponseParts,
): Promise<Response> {
  switch (match.name) {
    case "session":
      return method === "GET"
        ? getSessionRoute(ctx, state, parts)
        : updateSessionRoute(ctx, state, parts);
    case "csrfToken":
      return csrfTokenRoute(ctx, state, parts);
    case "credentials":
      return credentialsRoute(ctx, state, parts);
    case "signUp":
      return signUpRoute(ctx, state, parts);
    case "signOut":
      return signOutRoute(ctx, state, parts);
    case "signIn":
      return signInRoute(ctx, state, parts, match.provider!);
    case "callback":
      return callbackRoute(ctx, state, parts, match.provider!);
  }
}

/** Builds the handler. `only` restricts it to one method (the per-method handlers). */
export function createHandler(ctx: AuthContext, only?: string): Handler {
  return async function handle(request: Request): Promise<Response> {
    const parts = responseParts();
    try {
      return await handleRequest(ctx, request, parts, only);
    } catch (error) {
      if (error instanceof AuthError) return errorResponse(error, parts);
      ctx.logger.error("unexpected error", error);
      const internal = new AuthError("server_error", "The server could not complete the request.");
      return errorResponse(internal, { cookies: parts.cookies, headers: parts.headers });
    }
  };
}

async function handleRequest(
  ctx: AuthContext,
  request: Request,
  parts: ResponseParts,
  only?: string,
): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new AuthError("invalid_request", "The request URL is malformed.");
  }
  const method = request.method.toUpperCase();
  const routed = route(ctx.basePath, url.pathname, method === "OPTIONS" ? "GET" : method);
  const unconfigured = routed.kind === "match"
    ? !available(ctx, routed.route)
    : routed.kind === "method_not_allowed" && !routed.routes.some((match) => available(ctx, match));
  if (routed.kind === "not_found" || unconfigured) {
    throw new AuthError("invalid_request", "Not found.", { status: 404 });
  }
  const methods = routed.methods;
  if (
    method !== "OPTIONS" &&
    (routed.kind === "method_not_allowed" || (only !== undefined && method !== only))
  ) {
    parts.headers.push(["Allow", methods.join(", ")]);
    throw new AuthError("invalid_request", `Method ${safeMethod(method)} is not allowed here.`, {
      status: 405,
    });
  }
  const state = requestState(ctx, request, url);
  const origin = request.headers.get("Origin");
  const crossOrigin = origin !== null && origin !== state.origin;
  if (crossOrigin) {
    parts.headers.push(["Vary", "Origin"]);
    if (!(await state.isTrusted(origin))) {
      throw new AuthError(
        "access_denied",
        "Cross-origin requests from this origin are not allowed.",
        { status: 403 },
      );
    }
    parts.headers.push(["Access-Control-Allow-Origin", new URL(origin).origin], [
      "Access-Control-Allow-Credentials",
      "true",
    ]);
  }
  if (method === "OPTIONS") {
    if (crossOrigin) {
      parts.headers.push(
        ["Access-Control-Allow-Methods", methods.join(", ")],
        ["Access-Control-Allow-Headers", ALLOWED_HEADERS],
        ["Access-Control-Max-Age", "600"],
      );
    } else {
      parts.headers.push(["Allow", [...methods, "OPTIONS"].join(", ")]);
    }
    return emptyResponse(204, parts);
  }
  if (routed.kind !== "match") throw new Error("unreachable: method checked above");
  return await dispatch(ctx, routed.route, method, state, parts);
}

function safeMethod(method: string): string {
  return /^[A-Z]{1,10}$/.test(method) ? method : "(method)";
}
