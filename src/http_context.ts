/**
 * The per-request value: what one request knows about itself (its URL, the
 * service's origin for it, its scheme's cookie jar, its cookies, the time)
 * and what its response collects (Set-Cookie lines, headers). Computed once
 * per request and passed down; nothing here is stored on the instance.
 *
 * @module
 */

import type { AuthContext } from "./config.ts";
import type { CookieJar } from "./cookies/jar.ts";
import type { HttpContext } from "./config/http_context_type.ts";
import { parseCookies } from "./cookies/parse.ts";
import { AuthError } from "./errors.ts";
import type { RequestTarget } from "./request_target.ts";
import { serviceOrigin } from "./config/origins.ts";
import { forwardedClientAddress } from "./origins/proxy.ts";
import { compileOriginPatterns, isTrustedOrigin, type OriginMatcher } from "./origins/trusted.ts";

export type { HttpContext };

/** The last `Cookie` header parsed and its cookies (read-only, so one map may serve many requests). */
let lastCookieHeader: string | null = null;
let lastCookies: ReadonlyMap<string, string> = new Map();

/** The cookies of a `Cookie` header; a client's next request usually repeats the header. */
function cookiesOf(header: string | null): ReadonlyMap<string, string> {
  if (header !== lastCookieHeader) {
    lastCookies = parseCookies(header);
    lastCookieHeader = header;
  }
  return lastCookies;
}

/** The one implementation: a class, so every request's value has the same shape. */
class RequestContext implements HttpContext {
  readonly pathname: string;
  readonly origin: string;
  readonly secure: boolean;
  readonly jar: CookieJar;
  readonly cookies: ReadonlyMap<string, string>;
  readonly now: number;
  readonly nowMs: number;
  readonly setCookies: string[] = [];
  readonly headers: [string, string][] = [];
  readonly #ctx: AuthContext;
  #url: URL | undefined;
  #matcher: Promise<OriginMatcher> | undefined;

  constructor(ctx: AuthContext, readonly request: Request, target: RequestTarget) {
    this.#ctx = ctx;
    const { origin, secure } = serviceOrigin(ctx, request, target);
    this.origin = origin;
    this.secure = secure;
    this.pathname = target.pathname;
    this.jar = this.secure ? ctx.jars.https : ctx.jars.http;
    this.cookies = cookiesOf(request.headers.get("Cookie"));
    this.nowMs = ctx.clock();
    this.now = Math.floor(this.nowMs / 1000);
  }

  get url(): URL {
    return this.#url ??= new URL(this.request.url);
  }

  trustedOrigins(): Promise<OriginMatcher> {
    return this.#matcher ??= buildMatcher(this.#ctx, this.request);
  }

  async isTrusted(candidate: string): Promise<boolean> {
    if (candidate === this.origin) return true;
    return isTrustedOrigin(candidate, this.origin, await this.trustedOrigins());
  }
}

/**
 * Builds the per-request value from the request and its
 * {@link RequestTarget} (its URL, already read). Never throws.
 */
export function createHttpContext(
  ctx: AuthContext,
  request: Request,
  target: RequestTarget,
): HttpContext {
  return new RequestContext(ctx, request, target);
}

function untrustable(): AuthError {
  return new AuthError("server_error", "The server could not decide which origins are trusted.");
}

async function buildMatcher(ctx: AuthContext, request: Request): Promise<OriginMatcher> {
  if (!ctx.originsFn) return ctx.staticMatcher;
  let dynamic: unknown;
  try {
    dynamic = await ctx.originsFn(request);
  } catch (error) {
    ctx.logger.error("trustedOrigins function failed", error);
    throw untrustable();
  }
  if (!Array.isArray(dynamic) || !dynamic.every((item) => typeof item === "string")) {
    ctx.logger.log("error", "trustedOrigins function returned no array of strings");
    throw untrustable();
  }
  try {
    const extra = compileOriginPatterns(dynamic);
    const base = ctx.staticMatcher;
    return (candidate: string) => base(candidate) || extra(candidate);
  } catch (error) {
    ctx.logger.error("trustedOrigins function returned an invalid pattern", error);
    throw untrustable();
  }
}

/**
 * Log details naming the client's address, when trusted proxy headers give
 * one (Web requests carry no socket address). For logs only.
 */
export function clientDetails(
  ctx: AuthContext,
  http: HttpContext,
  details: Record<string, string> = {},
): Record<string, string> {
  const client = forwardedClientAddress(http.request, { trustProxyHeaders: ctx.trustProxyHeaders });
  return client === undefined ? details : { ...details, client };
}
