/**
 * The `redirect` / `redirectTo` query parameters and how a successful action
 * ends: JSON by default, a 302 when `redirect=true`.
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { jsonResponse, redirectResponse, singleParam } from "../http.ts";
import type { HttpContext } from "../http_context.ts";
import { refererTarget, safeRedirectTarget } from "../origins/redirect_target.ts";

/** What the query asked for. */
export interface RedirectIntent {
  /** `redirect=true` was given. */
  redirect: boolean;
  /** A validated `redirectTo`, when given. */
  redirectTo: string | null;
}

/**
 * Reads `redirect` (`true`/`false` only) and `redirectTo` (same-origin
 * relative path or trusted absolute URL) from the query. A bad target is
 * refused with 400 `invalid_redirect_to` and never redirected to.
 */
export async function redirectIntent(http: HttpContext): Promise<RedirectIntent> {
  const redirect = singleParam(http.url.searchParams, "redirect");
  if (redirect !== null && redirect !== "true" && redirect !== "false") {
    throw new AuthError(
      "invalid_request",
      'The query parameter "redirect" is invalid; expected "true" or "false".',
    );
  }
  const raw = singleParam(http.url.searchParams, "redirectTo");
  const redirectTo = raw === null ? null : await checkedRedirectTarget(http, raw);
  return { redirect: redirect === "true", redirectTo };
}

/**
 * A `redirectTo` made safe for `Location`: a path on this site or a URL on a
 * trusted origin. Anything else is refused with 400 `invalid_redirect_to`.
 */
export async function checkedRedirectTarget(http: HttpContext, raw: string): Promise<string> {
  const target = safeRedirectTarget(raw, http.origin, await http.trustedOrigins());
  if (target === null) {
    throw new AuthError(
      "invalid_redirect_to",
      "redirectTo is not allowed; expected a path on this site or a URL on a trusted origin.",
    );
  }
  return target;
}

/** Where to go after success: `redirectTo`, else a same-origin or trusted Referer, else `/`. */
export async function defaultTarget(http: HttpContext, redirectTo: string | null): Promise<string> {
  if (redirectTo !== null) return redirectTo;
  const referer = http.request.headers.get("Referer");
  return refererTarget(referer, http.origin, await http.trustedOrigins()) ?? "/";
}

/** What a successful action answers. */
export interface Outcome {
  /** The JSON body when not redirecting. */
  body: unknown;
  /** The status when not redirecting. */
  status: number;
}

/** Ends a successful action: a 302 when `redirect=true`, else JSON. */
export async function finish(
  http: HttpContext,
  intent: RedirectIntent,
  outcome: Outcome,
): Promise<Response> {
  if (intent.redirect) {
    return redirectResponse(http, await defaultTarget(http, intent.redirectTo));
  }
  return jsonResponse(http, outcome.body, outcome.status);
}
