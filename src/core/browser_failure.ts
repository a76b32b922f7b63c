/**
 * How a browser-facing route (`GET /signIn/:oauth`, `GET|POST
 * /callback/:oauth`) answers a failure it cannot send back to a trusted
 * target: a 302 to `pages.error` with `error` and `error_description` when
 * configured, else an HTML page for a browser, else the JSON error.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { toAuthError } from "../errors.ts";
import { acceptsHtml, errorPageResponse } from "../error_page.ts";
import { errorResponse, redirectResponse } from "../http.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";

/** Appends `error` and `error_description` to a target, keeping it relative when it was. */
export function withError(target: string, error: { code: string; description: string }): string {
  const relative = target.startsWith("/");
  const url = new URL(target, "http://relative.invalid");
  url.searchParams.set("error", error.code);
  url.searchParams.set("error_description", error.description);
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

/** Answers a failure of a browser-facing route, and logs it. */
export function browserFailure(
  ctx: AuthContext,
  http: HttpContext,
  failure: { error: unknown; route: string; provider?: string },
): Response {
  const error = toAuthError(failure.error, ctx.logger, failure.route);
  const details: Record<string, string> = { route: failure.route, error: error.code };
  if (failure.provider !== undefined) details.provider = failure.provider;
  ctx.logger.log("warn", "browser sign-in failed", clientDetails(ctx, http, details));
  if (ctx.errorPage !== undefined) return redirectResponse(http, withError(ctx.errorPage, error));
  if (acceptsHtml(http.request)) return errorPageResponse(http, error, "/");
  return errorResponse(http, error);
}
