/**
 * A fake `fetch` that speaks the auth HTTP contract (SPEC + DECISIONS) the way
 * a browser would see it: a cookie jar honouring `credentials`, a CSRF token
 * minted per `GET /csrfToken` and checked as cookie + `X-CSRF-Token`, JSON
 * bodies and the contract's status codes. It records every request.
 *
 * @module
 */

import type { Session, User } from "../../src/types.ts";
import type { ClientFetch } from "../../src/client/types.ts";
import { CookieJar } from "../support/cookie_jar.ts";

/** One request as the fake saw it. */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
  init: RequestInit;
}

/** Options of the fake. */
export interface FakeServerOptions {
  /** Prefix every request URL must start with; default `/auth`. */
  prefix?: string;
  /** Session present before the first request. */
  session?: Session | null;
}

/** The fake server and what it observed. */
export interface FakeServer {
  fetch: ClientFetch;
  requests: RecordedRequest[];
  session: Session | null;
}

const EXPIRES = "2030-01-01T00:00:00.000Z";
// Where the page runs: relative request URLs resolve against it.
const PAGE_ORIGIN = "https://app.test";

function json(status: number, body: unknown, setCookie?: string): Response {
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
  if (setCookie) headers.set("Set-Cookie", setCookie);
  return new Response(JSON.stringify(body), { status, headers });
}

function oauthError(status: number, error: string, description: string): Response {
  return json(status, { error, error_description: description });
}

/** Creates a fake server whose `fetch` the client under test is given. */
export function fakeAuthServer(options: FakeServerOptions = {}): FakeServer {
  const prefix = options.prefix ?? "/auth";
  const server: FakeServer = { requests: [], session: options.session ?? null, fetch };
  const jar = new CookieJar();
  let minted = 0;

  function handle(
    url: URL,
    method: string,
    headers: Headers,
    body: string | undefined,
    csrfCookie: string | undefined,
  ): Response {
    const path = url.pathname.slice(prefix.length);
    if (url.searchParams.has("redirect")) {
      return oauthError(400, "invalid_request", "The client must never ask for redirect.");
    }
    const redirectTo = url.searchParams.get("redirectTo");
    if (
      redirectTo !== null && !redirectTo.startsWith("/") &&
      !redirectTo.startsWith(`${PAGE_ORIGIN}/`)
    ) {
      return oauthError(400, "invalid_redirect_to", "The redirect target is not trusted.");
    }
    if (method === "GET" && path === "/session") {
      return server.session
        ? json(200, server.session)
        : oauthError(401, "invalid_session_token", "No session.");
    }
    if (method === "GET" && path === "/csrfToken") {
      const token = `csrf-${++minted}`;
      return json(200, { csrfToken: token }, `csrf=${token}; Path=/; HttpOnly`);
    }
    const mutating = ["/signIn/credentials", "/signUp", "/session", "/signOut"];
    if (!mutating.includes(path)) return oauthError(404, "invalid_request", "Unknown route.");
    const header = headers.get("X-CSRF-Token");
    if (!header || header !== csrfCookie) {
      return oauthError(403, "invalid_csrf_token", "CSRF token missing or mismatched.");
    }
    if (headers.get("Content-Type") !== "application/json") {
      return oauthError(415, "invalid_request", "Expected application/json.");
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body ?? "");
    } catch {
      return oauthError(400, "invalid_request", "Malformed JSON.");
    }
    if (method === "POST" && path === "/signIn/credentials") {
      if (typeof payload.username !== "string" || typeof payload.password !== "string") {
        return oauthError(400, "invalid_request", "username and password are required.");
      }
      if (payload.username !== "ada" || payload.password !== "pw") {
        return oauthError(401, "access_denied", "Wrong username or password.");
      }
      server.session = { user: { sub: "1", name: "Ada" }, expires: EXPIRES };
      return json(200, server.session);
    }
    if (method === "POST" && path === "/signUp") {
      server.session = {
        user: { sub: "2", ...(payload as Partial<User>) } as User,
        expires: EXPIRES,
      };
      return json(201, server.session);
    }
    if (method === "PATCH" && path === "/session") {
      if (!server.session) return oauthError(401, "invalid_session_token", "No session.");
      const user = payload.user as Partial<User>;
      server.session = {
        user: { ...server.session.user, ...user },
        expires: typeof payload.expires === "string" ? payload.expires : server.session.expires,
      };
      return json(200, server.session);
    }
    if (method === "POST" && path === "/signOut") {
      server.session = null;
      return json(200, { ok: true }, "csrf=; Path=/; Max-Age=0");
    }
    return new Response(JSON.stringify({ error: "invalid_request" }), {
      status: 405,
      headers: { "Content-Type": "application/json", Allow: "GET, POST, PATCH" },
    });
  }

  function fetch(input: string, init: RequestInit): Promise<Response> {
    const url = new URL(input, PAGE_ORIGIN);
    const method = init.method ?? "GET";
    const headers = new Headers(init.headers);
    const body = typeof init.body === "string" ? init.body : undefined;
    server.requests.push({ url: input, method, headers, body, init });
    // Browser behaviour: cookies travel only when credentials are not "omit".
    const withCookies = init.credentials !== "omit";
    const response = url.pathname.startsWith(prefix + "/")
      ? handle(url, method, headers, body, withCookies ? jar.get("csrf", url) : undefined)
      : oauthError(404, "invalid_request", "Unknown route.");
    if (withCookies) jar.store(response, url);
    return Promise.resolve(response);
  }

  return server;
}

/** A fetch that answers every request with `make()` and records the URLs. */
export function cannedFetch(make: (url: string, init: RequestInit) => Response): {
  fetch: ClientFetch;
  urls: string[];
} {
  const urls: string[] = [];
  return {
    urls,
    fetch(url, init) {
      urls.push(url);
      return Promise.resolve(make(url, init));
    },
  };
}

/** A canned answer for `GET /csrfToken`, used before the route under test. */
export function csrfAnswer(): Response {
  return json(200, { csrfToken: "t" });
}

/** A JSON response. */
export { json };

/** Stubs `globalThis.location` for one test; call `restore()` in `finally`. */
export function stubLocation(options: { throwing?: boolean } = {}): {
  assigned: string[];
  reloads: number;
  restore(): void;
} {
  const before = Object.getOwnPropertyDescriptor(globalThis, "location");
  const state = {
    assigned: [] as string[],
    reloads: 0,
    restore() {
      if (before) Object.defineProperty(globalThis, "location", before);
      else delete (globalThis as { location?: unknown }).location;
    },
  };
  Object.defineProperty(globalThis, "location", {
    configurable: true,
    writable: true,
    value: {
      assign(url: string) {
        if (options.throwing) throw new Error("Not supported.");
        state.assigned.push(url);
      },
      reload() {
        if (options.throwing) throw new Error("Not supported.");
        state.reloads++;
      },
    },
  });
  return state;
}
