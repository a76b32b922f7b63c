/**
 * The mock's `fetch`: requests for its base URL go to its handler without a
 * network; every other URL is refused, so that a test cannot reach a real
 * server by mistake.
 *
 * @module
 */

import type { MockSettings } from "./options.ts";

/** A `fetch` that hands requests under the base URL to `handler` and rejects any other. */
export function createMockFetch(
  settings: MockSettings,
  handler: (request: Request) => Promise<Response>,
): typeof fetch {
  const { base, basePath, issuer } = settings;
  function mockFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let request: Request;
    try {
      request = new Request(input, init);
    } catch (error) {
      return Promise.reject(error);
    }
    if (request.signal.aborted) return Promise.reject(request.signal.reason);
    const url = new URL(request.url);
    const inside = url.origin === base.origin &&
      (basePath === "" || url.pathname === basePath || url.pathname.startsWith(`${basePath}/`));
    if (!inside) {
      return Promise.reject(
        new TypeError(
          `The mock provider's fetch has no route to ${url.origin}: expected ${issuer}.`,
        ),
      );
    }
    return handler(request);
  }
  return mockFetch as typeof fetch;
}
