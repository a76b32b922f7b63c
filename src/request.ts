/**
 * Per-request facts, computed once per request and passed down. Nothing here
 * is stored on the instance.
 *
 * @module
 */

import type { AuthContext } from "./config.ts";
import type { CookieJar } from "./cookies.ts";
import { parseCookies } from "./cookies.ts";
import {
  compileOriginPatterns,
  forwardedClientAddress,
  isTrustedOrigin,
  type OriginMatcher,
  requestOrigin,
} from "./origins.ts";
import { AuthError } from "./errors.ts";

/** What one request knows about itself. */
export interface RequestState {
  /** The request. */
  readonly request: Request;
  /** Its parsed URL. */
  readonly url: URL;
  /** The service's origin for this request (from the URL, or trusted proxy headers). */
  readonly origin: string;
  /** Whether the request reached us over HTTPS. */
  readonly secure: boolean;
  /** Cookie names and attributes for this request's scheme. */
  readonly jar: CookieJar;
  /** The request's cookies. */
  readonly cookies: Map<string, string>;
  /** Now, in whole seconds since the epoch. */
  readonly now: number;
  /** Now, in milliseconds. */
  readonly nowMs: number;
  /** Whether an origin is this service's own or trusted. */
  isTrusted(origin: string): Promise<boolean>;
  /** The trusted-origin matcher for this request. */
  matcher(): Promise<OriginMatcher>;
}

/** Builds the request state. Never throws. */
export function requestState(ctx: AuthContext, request: Request, url: URL): RequestState {
  const { origin, secure } = requestOrigin(request, url, ctx.trustProxyHeaders);
  const nowMs = ctx.clock();
  let matcherPromise: Promise<OriginMatcher> | undefined;

  function matcher(): Promise<OriginMatcher> {
    matcherPromise ??= buildMatcher(ctx, request);
    return matcherPromise;
  }

  return {
    request,
    url,
    origin,
    secure,
    jar: secure ? ctx.jars.https : ctx.jars.http,
    cookies: parseCookies(request.headers.get("Cookie")),
    now: Math.floor(nowMs / 1000),
    nowMs,
    matcher,
    async isTrusted(candidate: string): Promise<boolean> {
      if (candidate === origin) return true;
      return isTrustedOrigin(candidate, origin, await matcher());
    },
  };
}

async function buildMatcher(ctx: AuthContext, request: Request): Promise<OriginMatcher> {
  if (!ctx.originsFn) return ctx.staticMatcher;
  let dynamic: unknown;
  try {
    dynamic = await ctx.originsFn(request);
  } catch (error) {
    ctx.logger.error("trustedOrigins function failed", error);
    throw new AuthError("server_error", "The server could not decide which origins are trusted.");
  }
  if (!Array.isArray(dynamic) || !dynamic.every((item) => typeof item === "string")) {
    ctx.logger.log("error", "trustedOrigins function must return an array of strings");
    throw new AuthError("server_error", "The server could not decide which origins are trusted.");
  }
  try {
    const extra = compileOriginPatterns(dynamic);
    const base = ctx.staticMatcher;
    return (candidate: string) => base(candidate) || extra(candidate);
  } catch (error) {
    ctx.logger.error("trustedOrigins function returned an invalid pattern", error);
    throw new AuthError("server_error", "The server could not decide which origins are trusted.");
  }
}

/**
 * Log details naming the client's address, when trusted proxy headers give
 * one (Web requests carry no socket address). For logs only: a client could
 * forge it unless the proxy overwrites these headers.
 */
export function clientDetails(
  ctx: AuthContext,
  state: RequestState,
  details: Record<string, string> = {},
): Record<string, string> {
  const client = forwardedClientAddress(state.request, ctx.trustProxyHeaders);
  return client === undefined ? details : { ...details, client };
}
