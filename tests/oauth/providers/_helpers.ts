// Shared helpers for the provider tests: a recording fake fetch and a mapper context.
import type { ProfileContext, ProviderEndpoints } from "../../../src/oauth/types.ts";

/** One request a fake fetch saw. */
export interface Call {
  url: string;
  method: string;
  authorization: string | null;
  headers: Headers;
  body: string;
}

/** A fake fetch answering from a URL -> response map (unknown URLs reject), recording each call. */
export function fakeFetch(
  routes: Record<string, (request: Request) => Response | Promise<Response>>,
): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    calls.push({
      url: request.url,
      method: request.method,
      authorization: request.headers.get("authorization"),
      headers: request.headers,
      body: await request.clone().text(),
    });
    const route = routes[request.url];
    if (!route) throw new TypeError(`no route to ${request.url}`);
    return await route(request);
  };
  return { fetch: fetchFn as typeof fetch, calls };
}

/** A JSON response. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** A mapper context with the given endpoints. */
export function context(
  fetchFn: typeof fetch = fakeFetch({}).fetch,
  endpoints: ProviderEndpoints = {},
): ProfileContext {
  return { tokens: { access_token: "at-123", token_type: "bearer" }, fetch: fetchFn, endpoints };
}

/** An env reader over a fixed record. */
export function envOf(values: Record<string, string>): (name: string) => string | undefined {
  return (name) => values[name];
}
