/**
 * The browser client against real handlers, as one browser would use it:
 * its `fetch` reaches the handler through one cookie jar, and every request
 * is recorded.
 *
 * @module
 */

import { createAuthClient } from "../../client.ts";
import type { AuthClient, User } from "../../client.ts";
import { CookieJar } from "./cookie_jar.ts";

/** One request the client sent. */
export interface SentRequest {
  method: string;
  path: string;
  body?: string;
}

/**
 * A client for `handler` on `origin` (default `http://localhost:8000`) with
 * its own cookie jar, and the requests it sent.
 *
 * @example
 * ```ts ignore
 * const { client, seen } = browserClient(auth.handlers.ALL);
 * await client.signIn.email("ada@example.com");
 * ```
 */
export function browserClient<U extends User = User>(
  handler: (request: Request) => Promise<Response>,
  origin = "http://localhost:8000",
): { client: AuthClient<U>; seen: SentRequest[] } {
  const jar = new CookieJar();
  const seen: SentRequest[] = [];
  const client = createAuthClient<U>({
    baseURL: origin,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const headers = new Headers(init?.headers);
      const cookie = jar.header(url);
      if (cookie) headers.set("Cookie", cookie);
      seen.push({ method: init?.method ?? "GET", path: url.pathname, body: init?.body as string });
      const response = await handler(new Request(url, { ...init, headers }));
      jar.store(response, url);
      return response;
    },
  });
  return { client, seen };
}
