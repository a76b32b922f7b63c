/**
 * The type of the per-request value (implemented by `http_context.ts`),
 * declared at the config layer so that the context's feature hooks can name
 * it without importing a module above that layer.
 *
 * @module
 */

import type { CookieJar } from "../cookies/jar.ts";
import type { ResponseHeaders } from "../http.ts";
import type { OriginMatcher } from "../origins/trusted.ts";

/** One request in flight, and the headers its response collects. */
export interface HttpContext extends ResponseHeaders {
  /** The request. */
  readonly request: Request;
  /** Its parsed URL (parsed on first use). */
  readonly url: URL;
  /** Its path, as `url.pathname` gives it. */
  readonly pathname: string;
  /** The service's origin for this request (`baseURL`, else the URL or trusted proxy headers). */
  readonly origin: string;
  /** Whether the service is reached over HTTPS. */
  readonly secure: boolean;
  /** Cookie names and attributes for this request's scheme. */
  readonly jar: CookieJar;
  /** The request's cookies (names sent twice are absent). */
  readonly cookies: ReadonlyMap<string, string>;
  /** Now, in whole seconds since the epoch. */
  readonly now: number;
  /** Now, in milliseconds. */
  readonly nowMs: number;
  /** The trusted-origin matcher for this request (static patterns plus the config function's). */
  trustedOrigins(): Promise<OriginMatcher>;
  /** Whether an origin is this service's own or trusted. */
  isTrusted(origin: string): Promise<boolean>;
}
