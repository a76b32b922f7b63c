/**
 * `GET /callback/:oauth` (and `POST /callback/:oauth` for `form_post`
 * providers): completes the OAuth flow and lands on the stored target, with
 * the session or with the error in the query. Only a response that carries
 * the flow's `state` ends the flow (its cookies cleared, on every outcome
 * from there): a callback with another state, which any site can send a
 * browser to, leaves a sign-in in progress alone.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { browserFailure, withPlainError } from "../core/browser_failure.ts";
import { completeOAuthSignIn, readFlow, unknownProviderError } from "../core/oauth_sign_in.ts";
import { readSession } from "../core/session.ts";
import { claimOAuthState } from "../core/single_use.ts";
import { isTwoFactorRequired, twoFactorPageURL } from "../core/second_step.ts";
import { AuthError, toAuthError } from "../errors.ts";
import { mediaType, readBody, redirectResponse } from "../http.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { isRecord } from "../is_record.ts";
import { answersFlow, clearFlowCookieLines, type FlowValues } from "../oauth/flow_cookies.ts";
import type { ResolvedProvider } from "../oauth/resolved_provider.ts";

/**
 * `GET /callback/:oauth`: 302 to the stored target, with the session or with
 * an error, or to the second-step page when the user must give a code.
 * Without a trusted target (flow cookies missing, expired, forged or of
 * another provider) it is a browser failure: `pages.error`, an HTML page, or
 * JSON; except that a browser already signed in (Back to an old callback
 * URL) is sent on to `/`.
 */
export async function callbackRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { provider: string },
): Promise<Response> {
  const provider = ctx.providers.get(params.provider);
  const flow = provider ? await readFlow(ctx, http, provider) : null;
  if (provider === undefined || flow === null) {
    // No flow of this provider: any flow cookies belong to another sign-in and stay.
    if (provider !== undefined && await hasValidSession(ctx, http)) {
      ctx.logger.log("info", "callback without a flow for a signed-in browser", {
        provider: provider.id,
      });
      return redirectResponse(http, "/");
    }
    const error = provider === undefined ? unknownProviderError() : new AuthError(
      "invalid_request",
      "The sign-in flow is missing, expired or was started elsewhere; expected a sign-in started here: start again.",
    );
    return browserFailure(ctx, http, { error, route: "callback", provider: params.provider });
  }
  let response: Awaited<ReturnType<typeof authorizationResponse>>;
  try {
    response = await authorizationResponse(ctx, http);
  } catch (error) {
    return failed(ctx, http, { provider, flow, error });
  }
  if (!answersFlow(response.params, flow)) {
    // Not this flow's answer: the flow's cookies and its state stay usable by the real one.
    return failed(ctx, http, {
      provider,
      flow,
      error: new AuthError(
        "invalid_request",
        "The state parameter does not match this sign-in; expected the state it was sent.",
      ),
    });
  }
  http.setCookies.push(...clearFlowCookieLines(http));
  try {
    await claimOAuthState(ctx, flow);
    const done = await completeOAuthSignIn(ctx, http, { provider, flow, ...response });
    // An enrolled user goes to the second step; the target waits in the `two_factor` cookie.
    if (isTwoFactorRequired(done)) return redirectResponse(http, twoFactorPageURL(ctx));
    return redirectResponse(http, flow.redirectTo);
  } catch (error) {
    return failed(ctx, http, { provider, flow, error });
  }
}

/** Lands on the flow's target with the error (a plain sentence) in its query, and logs it. */
function failed(
  ctx: AuthContext,
  http: HttpContext,
  failure: { provider: ResolvedProvider; flow: FlowValues; error: unknown },
): Response {
  const error = toAuthError(failure.error, ctx.logger, "oauth callback");
  ctx.logger.log(
    "warn",
    "oauth callback failed",
    clientDetails(ctx, http, {
      provider: failure.provider.id,
      error: error.code,
      description: error.description,
    }),
  );
  return redirectResponse(http, withPlainError(failure.flow.redirectTo, error, http));
}

/** Whether the request carries a valid session; a failing store counts as none (fail closed). */
async function hasValidSession(ctx: AuthContext, http: HttpContext): Promise<boolean> {
  try {
    return (await readSession(ctx, http)) !== null;
  } catch {
    return false;
  }
}

/** The authorization response fields a `form_post` body may carry; others are ignored. */
const FORM_POST_FIELDS = ["code", "state", "error", "iss"] as const;

/** Apple's `user` field is a few hundred bytes; a larger one is ignored. */
const MAX_POSTED_USER_CHARS = 4096;

/**
 * The authorization response: the query of a `GET`, or the form body of a
 * `form_post` `POST` (size-limited; only `code`, `state`, `error` and `iss`
 * are read, each at most once, and the `user` object a provider may post,
 * when it is a JSON object of at most 4 KiB; anything else there is
 * ignored, never a failed sign-in).
 */
async function authorizationResponse(
  ctx: AuthContext,
  http: HttpContext,
): Promise<{ params: URLSearchParams; postedUser?: Record<string, unknown> }> {
  if (http.request.method !== "POST") return { params: http.url.searchParams };
  if (mediaType(http.request) !== "application/x-www-form-urlencoded") {
    throw new AuthError(
      "invalid_request",
      "The callback body is not a form; expected application/x-www-form-urlencoded.",
      { status: 415 },
    );
  }
  const body = await readBody(http.request, { optional: true, timeoutMs: ctx.bodyTimeoutMs });
  const params = new URLSearchParams();
  for (const name of FORM_POST_FIELDS) {
    if (typeof body[name] === "string") params.set(name, body[name] as string);
  }
  return { params, postedUser: postedUserOf(body.user) };
}

function postedUserOf(field: unknown): Record<string, unknown> | undefined {
  if (typeof field !== "string" || field.length > MAX_POSTED_USER_CHARS) return undefined;
  try {
    const value: unknown = JSON.parse(field);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `POST /callback/:oauth`: the `form_post` response of a provider that uses
 * it, handled as the `GET` callback is. It takes any `Origin` (the provider
 * posts from its own site): the `state`, bound to the sealed flow cookies,
 * proves the flow. For any other provider it is a 405 before anything is
 * read or cleared.
 */
export async function formPostCallbackRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { provider: string },
): Promise<Response> {
  const provider = ctx.providers.get(params.provider);
  if (provider === undefined) {
    return browserFailure(ctx, http, {
      error: unknownProviderError(),
      route: "callback",
      provider: params.provider,
    });
  }
  if (provider.responseMode !== "form_post") {
    http.headers.push(["Allow", "GET"]);
    throw new AuthError(
      "invalid_request",
      "This provider's callback is a GET; expected a POST only from a form_post provider.",
      { status: 405 },
    );
  }
  return await callbackRoute(ctx, http, params);
}
