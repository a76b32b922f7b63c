/**
 * `createTestFetch`: a `fetch` for app tests that sends requests straight to
 * a handler and keeps cookies between calls, as a browser would, so that the
 * browser client (`createAuthClient`) can be tested under Deno, Node or Bun.
 *
 * @module
 */

/** Options of {@link createTestFetch}. */
export interface TestFetchOptions {
  /** The origin relative URLs resolve against and cookies belong to; default `http://localhost`. */
  origin?: string;
  /** A `Cookie` header value to start with, e.g. from `signInAs`. */
  cookie?: string;
}

/** A `fetch` that also shows the cookies it holds. */
export interface TestFetch {
  /** Sends the request to the handler, with the held cookies; stores the answer's cookies. */
  (input: Request | URL | string, init?: RequestInit): Promise<Response>;
  /** The held cookies as a `Cookie` header value. */
  cookie(): string;
}

/**
 * Makes a cookie-keeping `fetch` over a handler: every request goes to
 * `handler` (no network), carries the cookies set so far, and the answer's
 * `Set-Cookie` lines update them (`Max-Age=0` deletes).
 *
 * @example
 * ```ts
 * import { createAuth } from "@service-stack/auth";
 * import { createAuthClient } from "@service-stack/auth/client";
 * import { createTestFetch, signInAs } from "@service-stack/auth/testing";
 *
 * const auth = createAuth({ oauth: [], secret: "a-test-secret-of-at-least-32-bytes!!" });
 * const fetch = createTestFetch(auth.handlers.ALL, {
 *   cookie: await signInAs(auth, { sub: "user-1", name: "Ada" }),
 * });
 * const client = createAuthClient({ baseURL: "http://localhost", fetch });
 * console.log((await client.getSession())?.user.name); // "Ada"
 * await client.updateSession({ name: "Ada L." });
 * ```
 */
export function createTestFetch(
  handler: (request: Request) => Response | Promise<Response>,
  options: TestFetchOptions = {},
): TestFetch {
  const origin = new URL(options.origin ?? "http://localhost").origin;
  const jar = new Map<string, string>();
  for (const pair of (options.cookie ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const testFetch = async (
    input: Request | URL | string,
    init?: RequestInit,
  ): Promise<Response> => {
    const request = new Request(
      input instanceof Request ? input : new URL(String(input), origin),
      init,
    );
    const headers = new Headers(request.headers);
    if (jar.size > 0) headers.set("Cookie", cookie());
    const response = await handler(new Request(request, { headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const gone = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (gone) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
    return response;
  };
  return Object.assign(testFetch, { cookie });
}
