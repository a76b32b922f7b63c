/**
 * A fetch wrapper with a cookie jar that follows redirects by hand, so that a
 * test can walk an OAuth flow hop by hop and inspect every response.
 *
 * @module
 */

import { CookieJar } from "./cookie_jar.ts";

/** One response seen while following redirects. */
export interface Hop {
  /** Method used for this hop. */
  method: string;
  /** URL requested. */
  url: string;
  /** Status received. */
  status: number;
  /** Absolute target of the `Location` header, when there was one. */
  location?: string;
  /** `Set-Cookie` headers received. */
  setCookies: string[];
}

/** Options for {@linkcode HttpClient.follow}. */
export interface FollowOptions {
  /** Gives up after this many redirects; defaults to 10. */
  maxRedirects?: number;
  /** Returns true to stop before requesting `url` (the redirect is returned instead). */
  stopBefore?: (url: URL) => boolean;
}

/** What {@linkcode HttpClient.follow} ends with. */
export interface FollowResult {
  /** The last response: a non-redirect, or the redirect that `stopBefore` stopped. */
  response: Response;
  /** Every hop in order, the last one included. */
  hops: Hop[];
  /** URL of the last request. */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sends requests with `redirect: "manual"`, attaching and collecting cookies.
 *
 * @example Walk a sign-in redirect chain
 * ```ts ignore
 * const client = new HttpClient({ headers: { origin: server.url } });
 * const { response, hops } = await client.follow(`${server.url}/auth/signin/mock`);
 * ```
 */
export class HttpClient {
  /** Cookies received so far; shared by every request of this client. */
  readonly jar: CookieJar;
  #headers: Record<string, string>;
  #send: (request: Request) => Promise<Response>;

  /**
   * `headers` are sent with every request unless the request sets them itself;
   * `fetch` replaces the network, e.g. to answer an in-memory provider's host.
   */
  constructor(
    options: {
      jar?: CookieJar;
      headers?: Record<string, string>;
      fetch?: (request: Request) => Promise<Response>;
    } = {},
  ) {
    this.jar = options.jar ?? new CookieJar();
    this.#headers = options.headers ?? {};
    this.#send = options.fetch ?? ((request) => fetch(request));
  }

  /** One request, never following redirects; cookies are sent and stored. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(this.#headers);
    for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
    const cookie = this.jar.header(url);
    if (cookie !== "" && !headers.has("cookie")) headers.set("cookie", cookie);
    const response = await this.#send(new Request(url, { ...init, headers, redirect: "manual" }));
    this.jar.store(response, url);
    return response;
  }

  /**
   * Requests `url` and follows redirects as a browser would: 303 (and 301/302
   * after a POST) turn into a body-less GET, 307/308 repeat method and body.
   * Bodies of intermediate responses are discarded.
   */
  async follow(
    url: string | URL,
    init: RequestInit = {},
    options: FollowOptions = {},
  ): Promise<FollowResult> {
    const maxRedirects = options.maxRedirects ?? 10;
    const hops: Hop[] = [];
    let current = new URL(url);
    let request: RequestInit = init;
    for (let redirects = 0;; redirects++) {
      const method = (request.method ?? "GET").toUpperCase();
      const response = await this.fetch(current, request);
      const location = response.headers.get("location");
      const target = location === null ? undefined : new URL(location, current);
      hops.push({
        method,
        url: current.href,
        status: response.status,
        location: target?.href,
        setCookies: response.headers.getSetCookie(),
      });
      if (!REDIRECTS.has(response.status) || target === undefined) {
        return { response, hops, url: current.href };
      }
      if (options.stopBefore?.(target)) return { response, hops, url: current.href };
      if (redirects >= maxRedirects) {
        await response.body?.cancel();
        throw new Error(`More than ${maxRedirects} redirects from ${url}; expected fewer.`);
      }
      await response.body?.cancel();
      const keepsMethod = response.status === 307 || response.status === 308 ||
        (response.status !== 303 && method === "GET") || method === "HEAD";
      request = keepsMethod ? { ...request, method } : withoutBody(request);
      current = target;
    }
  }
}

function withoutBody(init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  const { body: _body, method: _method, ...rest } = init;
  return { ...rest, method: "GET", headers };
}
