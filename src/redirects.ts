/**
 * The `redirect` / `redirectTo` query parameters and how a successful action
 * ends: JSON by default, a 302 when `redirect=true`.
 *
 * @module
 */

import { AuthError } from "./errors.ts";
import { jsonResponse, redirectResponse, type ResponseParts } from "./http.ts";
import { refererTarget, safeRedirectTarget } from "./origins.ts";
import type { RequestState } from "./request.ts";

/** What the query asked for. */
export interface RedirectIntent {
  /** `redirect=true` was given. */
  redirect: boolean;
  /** A validated `redirectTo`, when given. */
  redirectTo: string | null;
}

/** A single query parameter; a repeated one is refused. */
export function singleParam(url: URL, name: string): string | null {
  const values = url.searchParams.getAll(name);
  if (values.length > 1) {
    throw new AuthError("invalid_request", `The query parameter "${name}" is repeated.`);
  }
  return values.length === 1 ? values[0] : null;
}

/**
 * Reads `redirect` (`true`/`false` only) and `redirectTo` (same-origin
 * relative path or trusted absolute URL) from the query. A bad target is
 * refused with 400 `invalid_redirect_to` and never redirected to.
 */
export async function redirectIntent(state: RequestState): Promise<RedirectIntent> {
  const redirect = singleParam(state.url, "redirect");
  if (redirect !== null && redirect !== "true" && redirect !== "false") {
    throw new AuthError(
      "invalid_request",
      'The query parameter "redirect" must be "true" or "false".',
    );
  }
  const raw = singleParam(state.url, "redirectTo");
  const redirectTo = raw === null ? null : await checkedRedirectTarget(state, raw);
  return { redirect: redirect === "true", redirectTo };
}

/**
 * A `redirectTo` made safe for `Location`: a path on this site or a URL on a
 * trusted origin. Anything else is refused with 400 `invalid_redirect_to`.
 */
export async function checkedRedirectTarget(state: RequestState, raw: string): Promise<string> {
  const target = safeRedirectTarget(raw, state.origin, await state.matcher());
  if (target === null) {
    throw new AuthError(
      "invalid_redirect_to",
      "redirectTo must be a path on this site or a URL on a trusted origin.",
    );
  }
  return target;
}

/** Where to go after success: `redirectTo`, else a same-origin or trusted Referer, else `/`. */
export async function defaultTarget(
  state: RequestState,
  redirectTo: string | null,
): Promise<string> {
  if (redirectTo !== null) return redirectTo;
  return refererTarget(state.request.headers.get("Referer"), state.origin, await state.matcher()) ??
    "/";
}

/** Ends a successful action: a 302 when `redirect=true`, else JSON with `status`. */
export async function finish(
  state: RequestState,
  intent: RedirectIntent,
  body: unknown,
  status: number,
  parts: ResponseParts,
): Promise<Response> {
  if (intent.redirect) {
    return redirectResponse(await defaultTarget(state, intent.redirectTo), parts);
  }
  return jsonResponse(body, status, parts);
}
