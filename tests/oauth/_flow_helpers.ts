// Shared fixtures for the OAuth flow tests: instances wired to in-memory
// providers, a browser-like cookie jar that calls the handlers as functions,
// and assertions about callback outcomes.
import assert from "node:assert/strict";
import { type Auth, type AuthConfig, createAuth } from "../../mod.ts";
import { createMockProvider, type MockProvider, type MockProviderOptions } from "../../testing.ts";

export const SECRET = "oauth-test-secret-0123456789abcdef-0123456789";
export const ORIGIN = "http://localhost:8000";
export const SESSION_COOKIE = "service-stack.session_token";
export const CSRF_COOKIE = "service-stack.csrf_token";
export const FLOW_COOKIES = [
  "service-stack.state",
  "service-stack.code_verifier",
  "service-stack.redirect_to",
  "service-stack.redirect_uri",
] as const;

/** A controllable clock in milliseconds, starting at the real time. */
export class Clock {
  now = Date.now();
  advance(seconds: number): void {
    this.now += seconds * 1000;
  }
  fn = (): number => this.now;
}

type Handler = (request: Request) => Promise<Response>;

/** Name and value of each Set-Cookie line that stores a value (not a removal). */
export function setCookies(response: Response): Map<string, string> {
  const stored = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const index = pair.indexOf("=");
    const removal = attributes.some((attr) => /^max-age=0$/i.test(attr));
    if (!removal && pair.slice(index + 1) !== "") {
      stored.set(pair.slice(0, index), pair.slice(index + 1));
    }
  }
  return stored;
}

/** Names of the cookies a response removes (`Max-Age=0`). */
export function clearedCookies(response: Response): Set<string> {
  const cleared = new Set<string>();
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    if (attributes.some((attr) => /^max-age=0$/i.test(attr))) {
      cleared.add(pair.slice(0, pair.indexOf("=")));
    }
  }
  return cleared;
}

/** A browser on {@link ORIGIN}: keeps cookies per Set-Cookie and sends them back. */
export class Browser {
  cookies = new Map<string, string>();
  constructor(readonly handler: Handler) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  store(response: Response): void {
    for (const name of clearedCookies(response)) this.cookies.delete(name);
    for (const [name, value] of setCookies(response)) this.cookies.set(name, value);
  }

  /** GET `pathAndQuery` (relative to {@link ORIGIN}) with the stored cookies. */
  async get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<Response> {
    const init = new Headers(headers);
    if (this.cookies.size > 0 && !init.has("Cookie")) init.set("Cookie", this.cookieHeader());
    const response = await this.handler(new Request(`${ORIGIN}${pathAndQuery}`, { headers: init }));
    this.store(response);
    return response;
  }
}

/** A fetch that sends each URL to the fetch registered for its origin; others reject. */
export function fetchByOrigin(routes: Record<string, typeof fetch>): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const route = routes[url.origin];
    if (!route) return Promise.reject(new TypeError(`no route to ${url.origin}`));
    return route(input, init);
  }) as typeof fetch;
}

/** An instance signing in with one mock provider through `mock.fetch`. */
export interface MockSetup {
  auth: Auth;
  mock: MockProvider;
  browser: Browser;
}

export function setupMock(
  options: { mock?: MockProviderOptions; auth?: Partial<AuthConfig> } = {},
): MockSetup {
  const mock = createMockProvider(options.mock);
  const auth = createAuth({
    oauth: [mock.provider],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
    ...options.auth,
  } as AuthConfig);
  return { auth, mock, browser: new Browser(auth.handlers.ALL) };
}

/** `GET /auth/signIn/:id{query}`; returns the provider's authorization URL. */
export async function startSignIn(browser: Browser, providerId: string, query = ""): Promise<URL> {
  const response = await browser.get(`/auth/signIn/${providerId}${query}`);
  assert.equal(response.status, 302, `sign-in answered ${response.status}`);
  return new URL(response.headers.get("Location")!);
}

/** Visits the mock's authorization URL; returns the callback URL it redirects to. */
export async function authorizeAt(mock: MockProvider, authorizationURL: URL): Promise<URL> {
  const response = await mock.fetch(authorizationURL.href);
  assert.equal(response.status, 302, `the mock's authorize answered ${response.status}`);
  return new URL(response.headers.get("Location")!);
}

/**
 * The form a `form_post` page (the mock's) would submit: its action and its
 * hidden fields, unescaped.
 */
export async function postedForm(
  page: Response,
): Promise<{ action: string; fields: URLSearchParams }> {
  const unescape = (text: string) =>
    text.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  assert.ok(action, "the page has a POST form");
  const fields = new URLSearchParams();
  for (
    const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)
  ) {
    fields.append(unescape(name), unescape(value));
  }
  return { action: unescape(action), fields };
}

/** Path and query of a URL, for {@link Browser.get}. */
export function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** Runs sign-in, the mock's authorization and the callback; returns the callback response. */
export async function signInThrough(
  browser: Browser,
  mock: MockProvider,
  query = "",
): Promise<Response> {
  const authorization = await startSignIn(browser, mock.provider.id, query);
  const callback = await authorizeAt(mock, authorization);
  return browser.get(pathOf(callback));
}

/** Asserts a 302 to `target` carrying `error` (and a description), with no session. */
export function assertErrorRedirect(response: Response, target: string, error: string): void {
  assert.equal(response.status, 302, `expected a 302, got ${response.status}`);
  const location = response.headers.get("Location")!;
  const url = new URL(location, ORIGIN);
  assert.equal(url.origin, new URL(target, ORIGIN).origin);
  assert.equal(url.pathname, new URL(target, ORIGIN).pathname);
  assert.equal(url.searchParams.get("error"), error);
  assert.ok((url.searchParams.get("error_description") ?? "") !== "", "no error_description");
  assertNoSession(response);
}

/** Asserts a 400 JSON `invalid_request` without a `Location` and without a session. */
export async function assertBadRequest(response: Response, error = "invalid_request") {
  assert.equal(response.status, 400);
  assert.equal(response.headers.get("Location"), null);
  assert.match(response.headers.get("Content-Type") ?? "", /^application\/json/);
  const body = await response.json();
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, "string");
  assertNoSession(response);
}

/** Asserts that the response sets neither a session nor a flow cookie. */
export function assertNoSession(response: Response): void {
  const stored = setCookies(response);
  for (const name of stored.keys()) {
    assert.ok(!name.startsWith(SESSION_COOKIE), `the response sets ${name}`);
  }
}

/** Asserts that the response removes all four flow cookies and sets none of them. */
export function assertFlowCookiesCleared(response: Response): void {
  const cleared = clearedCookies(response);
  const stored = setCookies(response);
  for (const name of FLOW_COOKIES) {
    assert.ok(cleared.has(name), `${name} is not cleared`);
    assert.ok(!stored.has(name), `${name} is set again`);
  }
}

/** Asserts that the response neither clears nor sets any flow cookie: the flow stays as it was. */
export function assertFlowCookiesKept(response: Response): void {
  const touched = new Set([...clearedCookies(response), ...setCookies(response).keys()]);
  for (const line of response.headers.getSetCookie()) touched.add(line.slice(0, line.indexOf("=")));
  for (const name of FLOW_COOKIES) {
    assert.ok(!touched.has(name) && !touched.has(`__Host-${name}`), `${name} is touched`);
  }
}

/** `GET /auth/session` with the browser's cookies. */
export function getSession(browser: Browser): Promise<Response> {
  return browser.get("/auth/session");
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** A scripted endpoint: answers one request (its `signal` is the caller's). */
export type Endpoint = (request: Request) => Response | Promise<Response>;

/** A fetch answering exact URLs from `routes`, recording every request; other URLs reject. */
export function scriptedFetch(
  routes: Record<string, Endpoint>,
): { fetch: typeof fetch; calls: Request[] } {
  const calls: Request[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    calls.push(request.clone());
    const route = routes[request.url];
    if (!route) throw new TypeError(`no route to ${request.url}`);
    return await route(request);
  };
  return { fetch: fetchFn as typeof fetch, calls };
}

export const FAKE = {
  id: "fake",
  name: "Fake",
  authorizeURL: "https://fake.example/authorize",
  accessToken: "https://fake.example/token",
  userInfo: "https://fake.example/userinfo",
  scope: "profile",
  responseType: "code",
  clientId: "fake-client",
  clientSecret: "fake-secret",
} as const;

/** An instance with the custom provider {@link FAKE} whose endpoints are scripted. */
export interface FakeSetup {
  auth: Auth;
  browser: Browser;
  calls: Request[];
}

export function setupFake(
  endpoints: { token?: Endpoint; userInfo?: Endpoint; extra?: Record<string, Endpoint> } = {},
  overrides: Partial<AuthConfig> = {},
): FakeSetup {
  const scripted = scriptedFetch({
    [FAKE.accessToken]: endpoints.token ??
      (() => json({ access_token: "fake-access-token", token_type: "Bearer" })),
    [FAKE.userInfo]: endpoints.userInfo ?? (() => json({ id: "fake-1", name: "Fay" })),
    ...endpoints.extra,
  });
  const auth = createAuth({
    oauth: [{ ...FAKE }],
    secret: SECRET,
    logger: false,
    fetch: scripted.fetch,
    ...overrides,
  } as AuthConfig);
  return { auth, browser: new Browser(auth.handlers.ALL), calls: scripted.calls };
}

/**
 * Starts a sign-in at `providerId` landing on `/home`, then calls its
 * callback with a code and the flow's state; returns the callback response.
 */
export async function callbackWithCode(
  browser: Browser,
  providerId: string,
  code = "the-code",
): Promise<Response> {
  const authorization = await startSignIn(browser, providerId, "?redirectTo=%2Fhome");
  const state = authorization.searchParams.get("state")!;
  const query = new URLSearchParams({ code, state });
  return browser.get(`/auth/callback/${providerId}?${query}`);
}
