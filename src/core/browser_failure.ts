/**
 * How a browser-facing route (`GET /signIn/:oauth`, `GET|POST
 * /callback/:oauth`) answers a failure it cannot send back to a trusted
 * target: a 302 to `pages.error` with `error` and `error_description` when
 * configured, else an HTML page for a browser, else the JSON error. People
 * read a plain sentence there; the developer description goes to the log.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { type AuthError, toAuthError } from "../errors.ts";
import { acceptsHtml, errorPageResponse, plainMessage } from "../error_page.ts";
import { errorResponse, mediaType, redirectResponse } from "../http.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { refererTarget } from "../origins/redirect_target.ts";

/** Appends `error` and `error_description` to a target, keeping it relative when it was. */
export function withError(target: string, error: { code: string; description: string }): string {
  const relative = target.startsWith("/");
  const url = new URL(target, "http://relative.invalid");
  url.searchParams.set("error", error.code);
  url.searchParams.set("error_description", error.description);
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

/**
 * A target a person lands on with the error: its code, and a plain sentence
 * as `error_description` (the developer description is logged instead).
 */
export function withPlainError(target: string, error: AuthError, http: HttpContext): string {
  return withError(target, { code: error.code, description: plainMessage(error, http) });
}

/** Answers a failure of a browser-facing route, and logs it (with the developer description). */
export function browserFailure(
  ctx: AuthContext,
  http: HttpContext,
  failure: { error: unknown; route: string; provider?: string },
): Response {
  const error = toAuthError(failure.error, ctx.logger, failure.route);
  const details: Record<string, string> = {
    route: failure.route,
    error: error.code,
    description: error.description,
  };
  if (failure.provider !== undefined) details.provider = failure.provider;
  ctx.logger.log("warn", "browser sign-in failed", clientDetails(ctx, http, details));
  if (ctx.errorPage !== undefined) {
    return redirectResponse(http, withPlainError(ctx.errorPage, error, http));
  }
  if (acceptsHtml(http.request)) {
    // The app's name, when a feature with pages resolved one: every page a person sees shows it.
    const appName = ctx.email?.appName ?? ctx.twoFactor?.appName;
    return errorPageResponse(http, error, { home: "/", appName });
  }
  return errorResponse(http, error);
}

/**
 * The answer to any failed request: JSON, except that a plain HTML form
 * posted by a browser (a form body, `Accept: text/html`) gets the HTML error
 * page, with the same status and headers (`Retry-After`) and a link back to
 * the form's page when it is on a trusted origin; so does any request
 * refused by a rate limit (429) that accepts HTML.
 */
export async function failureResponse(http: HttpContext, error: AuthError): Promise<Response> {
  const request = http.request;
  const formPost = request.method.toUpperCase() === "POST" &&
    mediaType(request) === "application/x-www-form-urlencoded";
  // A browser held back by a rate limit reads how long to wait, whatever the route.
  if (error.status === 429 && !formPost && acceptsHtml(request)) {
    return errorPageResponse(http, error, { home: "/" });
  }
  if (!formPost || !acceptsHtml(request)) return errorResponse(http, error);
  let back: string | null = null;
  try {
    back = refererTarget(request.headers.get("Referer"), http.origin, await http.trustedOrigins());
  } catch {
    // An untrustable origin list: the link goes to the start instead.
  }
  return errorPageResponse(http, error, {
    home: back ?? "/",
    linkText: back === null ? "Back to the start" : "Go back",
  });
}
