/**
 * A strict, in-memory OAuth 2.0 authorization server (authorization code
 * grant with PKCE S256) for tests and demos, on Web `Request`/`Response`.
 *
 * @module
 */

import { encodeBase64Url } from "../jose/base64url.ts";
import type { ClientAuthMethod, OAuthProviderCredentials } from "../oauth/types.ts";
import { timingSafeEqual } from "../timing_safe_equal.ts";
import { consentPage, errorPage } from "./_pages.ts";

/**
 * Default id of the mock OAuth provider.
 *
 * @example
 * ```ts
 * import { createMockProvider, MOCK_PROVIDER_ID } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider();
 * console.log(mock.provider.id === MOCK_PROVIDER_ID); // true
 * ```
 */
export const MOCK_PROVIDER_ID = "mock";

/** Default base URL of the mock provider (`.localhost` never leaves the machine). */
const DEFAULT_BASE_URL = "http://mock-oauth.localhost";
const DEFAULT_CLIENT_ID = "mock-client-id";
const DEFAULT_CLIENT_SECRET = "mock-client-secret";
const DEFAULT_SCOPES = ["openid", "profile", "email"];
const MAX_BODY_BYTES = 64 * 1024;
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;
const BASIC = /^Basic +([A-Za-z0-9+/]+=*) *$/i;
const REDACTED = "[redacted]";
const SECRET_PARAMS = new Set(["client_secret", "code", "code_verifier", "refresh_token"]);

/**
 * A user of the mock provider; returned as is (filtered by scope) from the
 * userinfo endpoint. Extra claims are allowed.
 */
export interface MockUser {
  /** Stable subject identifier. */
  sub: string;
  /** Display name (`profile` scope). */
  name?: string;
  /** Email address (`email` scope). */
  email?: string;
  /** Avatar URL (`profile` scope). */
  picture?: string;
  /** Any other claim (`profile` scope). */
  [claim: string]: unknown;
}

/** A validated authorization request, as given to {@link MockProviderOptions.decide}. */
export interface MockAuthorizationRequest {
  /** The `client_id`. */
  clientId: string;
  /** The `redirect_uri`. */
  redirectURI: string;
  /** The granted scope (requested, or the default when none was requested). */
  scope: string;
  /** The `state`. */
  state: string;
  /** The `login_hint`, when sent. */
  loginHint?: string;
  /** The HTTP request. */
  request: Request;
}

/**
 * How to answer an authorization request: `"approve"` (the `login_hint`
 * user, or the first user), `"deny"` (redirect with `error=access_denied`),
 * or approve as a given user, chosen by `sub` or email.
 */
export type MockDecision = "approve" | "deny" | { user: string };

/** Options of {@link createMockProvider}. */
export interface MockProviderOptions {
  /** Where the endpoints live; default `"http://mock-oauth.localhost"`. May include a path. */
  baseURL?: string;
  /** Provider id for `createAuth`; default `"mock"`. */
  id?: string;
  /** The only known client id; default `"mock-client-id"`. */
  clientId?: string;
  /** Its secret; default `"mock-client-secret"` (fixed so that runs are reproducible). */
  clientSecret?: string;
  /**
   * The client authentication the token endpoint accepts (exactly this one);
   * default `"client_secret_basic"`. With `"client_secret_post"` the
   * returned `provider` says so.
   */
  clientAuthMethod?: ClientAuthMethod;
  /** Accounts; default one demo user `{ sub, name, email, picture }`. */
  users?: MockUser[];
  /** Exact redirect URIs allowed; default any absolute http(s) URI without fragment. */
  redirectURIs?: string[];
  /** Scopes the server knows; default `["openid", "profile", "email"]`. */
  scopes?: string[];
  /** Authorization code lifetime in seconds; default 60. */
  codeTTL?: number;
  /** Access token lifetime in seconds; default 3600. */
  accessTokenTTL?: number;
  /** Current time in milliseconds since the epoch; default `Date.now`. */
  clock?: () => number;
  /** Add the RFC 9207 `iss` parameter to authorization responses; default `true`. */
  issueIss?: boolean;
  /** A fixed decision, or a function deciding per request; default `"approve"`. */
  decide?:
    | MockDecision
    | ((request: MockAuthorizationRequest) => MockDecision | Promise<MockDecision>);
  /** Show an HTML consent page with Approve / Deny buttons instead of deciding; default `false`. */
  interactive?: boolean;
}

/** Which endpoint a logged request hit. */
export type MockEndpoint = "authorize" | "token" | "userinfo" | "unknown";

/** One request seen by the mock provider. Secrets are never recorded. */
export interface MockRequestRecord {
  /** The endpoint. */
  endpoint: MockEndpoint;
  /** The HTTP method. */
  method: string;
  /** The request URL without its query. */
  url: string;
  /** The response status. */
  status: number;
  /** The OAuth error code of the response, when it failed. */
  error?: string;
  /**
   * Token requests: the client authentication the client used (`"none"` or
   * `"multiple"` when it used none or more than one).
   */
  clientAuthMethod?: ClientAuthMethod | "none" | "multiple";
  /**
   * Query (authorize) or form (token) parameters, each sent once; values of
   * `client_secret`, `code`, `code_verifier` are replaced by `"[redacted]"`.
   */
  params: Record<string, string>;
}

/** A mock OAuth 2.0 provider: see {@link createMockProvider}. */
export interface MockProvider {
  /** The authorization server: `GET|POST {baseURL}/authorize`, `POST /token`, `GET|POST /userinfo`. */
  readonly handler: (request: Request) => Promise<Response>;
  /**
   * A `fetch` that sends requests for `baseURL` to `handler` without a
   * network and rejects every other URL with a `TypeError`. Redirects are
   * returned, never followed.
   */
  readonly fetch: typeof fetch;
  /** The provider configuration for `createAuth({ oauth: [...] })`. */
  readonly provider: OAuthProviderCredentials;
  /** The accounts (the same array: tests may add users). */
  readonly users: MockUser[];
  /** Every request the server answered, oldest first. */
  readonly requests: MockRequestRecord[];
  /** The issuer identifier (the normalised base URL). */
  readonly issuer: string;
}

interface CodeGrant {
  clientId: string;
  redirectURI: string;
  codeChallenge: string;
  scope: string;
  sub: string;
  expiresAt: number;
  used: boolean;
  revoked: boolean;
  accessTokens: string[];
}

interface AccessGrant {
  sub: string;
  scope: string;
  expiresAt: number;
}

interface Outcome {
  response: Response;
  error?: string;
  clientAuthMethod?: MockRequestRecord["clientAuthMethod"];
  params?: URLSearchParams;
}

class OAuthFailure extends Error {
  constructor(readonly error: string, readonly description: string, readonly status = 400) {
    super(description);
  }
}

/**
 * Creates a strict mock OAuth 2.0 authorization server for tests and demos.
 * Authorization requests need `response_type=code`, the known `client_id`,
 * an absolute http(s) `redirect_uri`, a `state`, and a PKCE `code_challenge`
 * with `code_challenge_method=S256` (`plain` is refused). Token requests need
 * a form-encoded `POST`, exactly one client authentication (the configured
 * one), a known, unexpired, unused code (reuse revokes the tokens it gave),
 * the same `redirect_uri` and the matching `code_verifier`. The userinfo
 * endpoint needs `Authorization: Bearer`. Errors follow RFC 6749; requests
 * whose client or redirect URI cannot be trusted get a 400 page, never a
 * redirect.
 *
 * @example Use it as a provider of `createAuth` in unit tests
 * ```ts
 * import { createMockProvider } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider({ users: [{ sub: "u1", name: "Ada", email: "ada@example.com" }] });
 * // createAuth({ oauth: [mock.provider], fetch: mock.fetch, secret })
 * const response = await mock.fetch(`${mock.issuer}/userinfo`);
 * console.log(response.status); // 401: no bearer token
 * console.log(mock.requests[0].endpoint); // "userinfo"
 * ```
 *
 * @example Deny every request, or choose a user
 * ```ts
 * import { createMockProvider } from "@service-stack/auth/testing";
 *
 * const denying = createMockProvider({ decide: "deny" });
 * const asBob = createMockProvider({
 *   users: [{ sub: "a", name: "Ada" }, { sub: "b", name: "Bob" }],
 *   decide: { user: "b" },
 * });
 * ```
 */
export function createMockProvider(options: MockProviderOptions = {}): MockProvider {
  const base = parseBaseURL(options.baseURL ?? DEFAULT_BASE_URL);
  const issuer = base.href.replace(/\/$/, "");
  const basePath = base.pathname.replace(/\/$/, "");
  const id = options.id ?? MOCK_PROVIDER_ID;
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const clientSecret = options.clientSecret ?? DEFAULT_CLIENT_SECRET;
  const clientAuthMethod = options.clientAuthMethod ?? "client_secret_basic";
  const knownScopes = new Set(options.scopes ?? DEFAULT_SCOPES);
  const codeTTL = seconds(options.codeTTL ?? 60, "codeTTL");
  const accessTokenTTL = seconds(options.accessTokenTTL ?? 3600, "accessTokenTTL");
  const clock = options.clock ?? Date.now;
  const issueIss = options.issueIss ?? true;
  const decide = options.decide ?? "approve";
  const interactive = options.interactive ?? false;
  const redirectURIs = options.redirectURIs;
  const users = options.users ?? [{
    sub: "mock-user-1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    picture: "https://example.com/avatars/ada.png",
  }];
  if (id === "" || clientId === "" || clientSecret === "") {
    throw new TypeError(
      "Invalid mock provider options: id, clientId and clientSecret must be non-empty.",
    );
  }
  if (clientAuthMethod !== "client_secret_basic" && clientAuthMethod !== "client_secret_post") {
    throw new TypeError(
      `Invalid clientAuthMethod "${clientAuthMethod}": expected "client_secret_basic" or "client_secret_post".`,
    );
  }
  checkUsers(users);

  const endpoints = {
    authorize: `${issuer}/authorize`,
    token: `${issuer}/token`,
    userinfo: `${issuer}/userinfo`,
  };
  const codes = new Map<string, CodeGrant>();
  const accessTokens = new Map<string, AccessGrant>();
  const requests: MockRequestRecord[] = [];

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const endpoint = endpointOf(url);
    let outcome: Outcome;
    try {
      if (endpoint === "authorize") outcome = await authorize(request, url);
      else if (endpoint === "token") outcome = await token(request, url);
      else if (endpoint === "userinfo") outcome = userinfo(request);
      else {
        const failure = new OAuthFailure(
          "invalid_request",
          "No such endpoint on this server.",
          404,
        );
        outcome = { response: jsonError(failure), error: failure.error };
      }
    } catch (error) {
      const failure = error instanceof OAuthFailure
        ? error
        : new OAuthFailure("server_error", "The mock provider failed unexpectedly.", 500);
      outcome = { response: jsonError(failure), error: failure.error };
    }
    requests.push(record(request, url, endpoint, outcome));
    return outcome.response;
  }

  function endpointOf(url: URL): MockEndpoint {
    if (url.origin !== base.origin) return "unknown";
    switch (url.pathname) {
      case `${basePath}/authorize`:
        return "authorize";
      case `${basePath}/token`:
        return "token";
      case `${basePath}/userinfo`:
        return "userinfo";
      default:
        return "unknown";
    }
  }

  async function authorize(request: Request, url: URL): Promise<Outcome> {
    const isPost = request.method === "POST";
    if (request.method !== "GET" && !(isPost && interactive)) {
      return methodNotAllowed(interactive ? "GET, POST" : "GET");
    }
    const params = isPost ? await readForm(request) : url.searchParams;
    const page = (description: string): Outcome => ({
      response: errorPage("invalid_request", description),
      error: "invalid_request",
      params,
    });
    if (params === undefined) return page("The consent form must be form-encoded, at most 64 KiB.");
    if (params.getAll("client_id").length > 1 || params.getAll("redirect_uri").length > 1) {
      return page("client_id and redirect_uri must each be sent once.");
    }
    if (params.get("client_id") !== clientId) {
      return page("Unknown or missing client_id: expected the registered client.");
    }
    const redirectURI = params.get("redirect_uri") ?? "";
    const redirectProblem = checkRedirectURI(redirectURI);
    if (redirectProblem !== undefined) return page(redirectProblem);

    // From here on the redirect URI is trusted: errors go back to the client.
    const state = params.get("state") ?? "";
    const fail = (error: string, description: string): Outcome => ({
      response: redirect(redirectURI, { error, error_description: description, state }, isPost),
      error,
      params,
    });
    const duplicate = firstDuplicate(params);
    if (duplicate !== undefined) {
      return fail("invalid_request", `The ${duplicate} parameter must be sent once.`);
    }
    const responseType = params.get("response_type") ?? "";
    if (responseType === "") return fail("invalid_request", "response_type is required.");
    if (responseType !== "code") {
      return fail("unsupported_response_type", "Only response_type=code is supported.");
    }
    if (state === "") return fail("invalid_request", "state is required.");
    const challenge = params.get("code_challenge") ?? "";
    const method = params.get("code_challenge_method") ?? "";
    if (challenge === "") return fail("invalid_request", "code_challenge (PKCE) is required.");
    if (method !== "S256") {
      return fail("invalid_request", "code_challenge_method must be S256; plain is refused.");
    }
    if (!CODE_CHALLENGE.test(challenge)) {
      return fail("invalid_request", "code_challenge must be 43-128 base64url characters.");
    }
    const requested = (params.get("scope") ?? "").split(" ").filter((s) => s !== "");
    const unknown = requested.find((s) => !knownScopes.has(s));
    if (unknown !== undefined) return fail("invalid_scope", `Unknown scope "${unknown}".`);
    const scope = (requested.length > 0 ? requested : [...knownScopes]).join(" ");
    const loginHint = params.get("login_hint") ?? undefined;

    let decision: MockDecision;
    if (interactive && !isPost) {
      const hinted = loginHint === undefined ? users[0] : findUser(loginHint);
      return {
        response: consentPage({
          providerName: "Mock",
          action: endpoints.authorize,
          params: Object.fromEntries(
            [...params].filter(([name]) => name !== "decision" && name !== "user"),
          ),
          scope,
          accounts: users.map((u) => [u.sub, accountLabel(u)]),
          selected: hinted?.sub,
        }),
        params,
      };
    } else if (interactive) {
      const choice = params.get("decision");
      if (choice !== "approve" && choice !== "deny") {
        return fail("invalid_request", "The consent form needs decision=approve or deny.");
      }
      const chosen = params.get("user");
      decision = choice === "deny" ? "deny" : chosen ? { user: chosen } : "approve";
    } else {
      const context = { clientId, redirectURI, scope, state, loginHint, request };
      decision = typeof decide === "function" ? await decide(context) : decide;
      if (!isDecision(decision)) {
        throw new TypeError(
          'The decide option gave an invalid decision: expected "approve", "deny" or { user }.',
        );
      }
    }

    if (decision === "deny") return fail("access_denied", "The user denied the request.");
    const key = typeof decision === "object" ? decision.user : loginHint;
    const user = key === undefined ? users[0] : findUser(key);
    if (user === undefined) {
      return fail(
        "access_denied",
        key === undefined ? "There is no user to sign in." : "No user matches the login hint.",
      );
    }
    const code = randomToken();
    codes.set(code, {
      clientId,
      redirectURI,
      codeChallenge: challenge,
      scope,
      sub: user.sub,
      expiresAt: clock() + codeTTL * 1000,
      used: false,
      revoked: false,
      accessTokens: [],
    });
    return { response: redirect(redirectURI, { code, state }, isPost), params };
  }

  async function token(request: Request, url: URL): Promise<Outcome> {
    if (request.method !== "POST") return methodNotAllowed("POST");
    if (url.search !== "") {
      throw new OAuthFailure(
        "invalid_request",
        "Token parameters must be in the body, not the URL.",
      );
    }
    const params = await readForm(request);
    if (params === undefined) {
      throw new OAuthFailure(
        "invalid_request",
        "The token request must be application/x-www-form-urlencoded, at most 64 KiB.",
      );
    }
    const header = request.headers.get("authorization");
    const used: MockRequestRecord["clientAuthMethod"] =
      header !== null && params.has("client_secret")
        ? "multiple"
        : header !== null
        ? "client_secret_basic"
        : params.has("client_secret")
        ? "client_secret_post"
        : "none";
    const outcome = (response: Response, error?: string): Outcome => ({
      response,
      error,
      clientAuthMethod: used,
      params,
    });
    try {
      const duplicate = firstDuplicate(params);
      if (duplicate !== undefined) {
        throw new OAuthFailure("invalid_request", `The ${duplicate} parameter must be sent once.`);
      }
      authenticateClient(used, header, params);
      return outcome(await redeemCode(params));
    } catch (error) {
      if (!(error instanceof OAuthFailure)) throw error;
      return outcome(jsonError(error), error.error);
    }
  }

  function authenticateClient(
    used: MockRequestRecord["clientAuthMethod"],
    header: string | null,
    params: URLSearchParams,
  ): void {
    if (used === "multiple") {
      throw new OAuthFailure(
        "invalid_request",
        "The client used more than one authentication method: expected exactly one.",
      );
    }
    if (used !== clientAuthMethod) {
      throw new OAuthFailure(
        "invalid_client",
        `Client authentication failed: expected ${clientAuthMethod}.`,
        401,
      );
    }
    let id: string | undefined;
    let secret: string | undefined;
    if (used === "client_secret_basic") {
      [id, secret] = parseBasic(header ?? "") ?? [];
      const bodyId = params.get("client_id");
      if (bodyId !== null && bodyId !== id) {
        throw new OAuthFailure(
          "invalid_request",
          "client_id in the body differs from the Basic one.",
        );
      }
    } else {
      id = params.get("client_id") ?? undefined;
      secret = params.get("client_secret") ?? undefined;
    }
    // Both compared every time, in constant time, so timing reveals neither.
    const idOk = timingSafeEqual(id ?? "", clientId);
    const secretOk = timingSafeEqual(secret ?? "", clientSecret);
    if (id === undefined || secret === undefined || !idOk || !secretOk) {
      throw new OAuthFailure("invalid_client", "Client authentication failed.", 401);
    }
  }

  async function redeemCode(params: URLSearchParams): Promise<Response> {
    const grantType = params.get("grant_type") ?? "";
    if (grantType === "") throw new OAuthFailure("invalid_request", "grant_type is required.");
    if (grantType !== "authorization_code") {
      throw new OAuthFailure("unsupported_grant_type", "Only authorization_code is supported.");
    }
    const code = params.get("code") ?? "";
    if (code === "") throw new OAuthFailure("invalid_request", "code is required.");
    const grant = codes.get(code);
    if (grant === undefined || grant.clientId !== clientId) {
      throw new OAuthFailure("invalid_grant", "The authorization code is unknown.");
    }
    if (grant.used) {
      // RFC 6749 section 10.5: a replayed code revokes what it already gave.
      grant.revoked = true;
      for (const accessToken of grant.accessTokens) accessTokens.delete(accessToken);
      throw new OAuthFailure("invalid_grant", "The authorization code was already used.");
    }
    // Marked before any await, so a concurrent second redemption sees it.
    grant.used = true;
    if (clock() >= grant.expiresAt) {
      throw new OAuthFailure("invalid_grant", "The authorization code has expired.");
    }
    const redirectURI = params.get("redirect_uri") ?? "";
    if (redirectURI === "") throw new OAuthFailure("invalid_request", "redirect_uri is required.");
    if (redirectURI !== grant.redirectURI) {
      throw new OAuthFailure(
        "invalid_grant",
        "redirect_uri differs from the authorization request.",
      );
    }
    const verifier = params.get("code_verifier") ?? "";
    if (verifier === "") throw new OAuthFailure("invalid_request", "code_verifier is required.");
    if (!CODE_VERIFIER.test(verifier)) {
      throw new OAuthFailure(
        "invalid_grant",
        "code_verifier must be 43-128 unreserved characters.",
      );
    }
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
    if (!timingSafeEqual(encodeBase64Url(new Uint8Array(digest)), grant.codeChallenge)) {
      throw new OAuthFailure("invalid_grant", "code_verifier does not match the code_challenge.");
    }
    if (grant.revoked) {
      throw new OAuthFailure("invalid_grant", "The authorization code was already used.");
    }
    const accessToken = randomToken();
    accessTokens.set(accessToken, {
      sub: grant.sub,
      scope: grant.scope,
      expiresAt: clock() + accessTokenTTL * 1000,
    });
    grant.accessTokens.push(accessToken);
    return json({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: accessTokenTTL,
      scope: grant.scope,
    });
  }

  function userinfo(request: Request): Outcome {
    if (request.method !== "GET" && request.method !== "POST") return methodNotAllowed("GET, POST");
    const header = request.headers.get("authorization");
    if (header === null) {
      return {
        response: bearerChallenge("A bearer access token is required.", undefined),
        error: "invalid_token",
      };
    }
    const match = BEARER.exec(header);
    const grant = match ? accessTokens.get(match[1]) : undefined;
    const user = grant && clock() < grant.expiresAt
      ? users.find((u) => u.sub === grant.sub)
      : undefined;
    if (grant === undefined || user === undefined) {
      return {
        response: bearerChallenge("The access token is invalid or expired.", "invalid_token"),
        error: "invalid_token",
      };
    }
    return { response: json(claimsFor(user, grant.scope)) };
  }

  function checkRedirectURI(value: string): string | undefined {
    if (value === "") return "redirect_uri is required.";
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      return "redirect_uri must be an absolute URI.";
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
      return "redirect_uri must use http or https.";
    }
    if (value.includes("#")) return "redirect_uri must not contain a fragment.";
    if (redirectURIs !== undefined && !redirectURIs.includes(value)) {
      return "redirect_uri is not registered for this client.";
    }
    return undefined;
  }

  function redirect(to: string, values: Record<string, string>, afterPost: boolean): Response {
    const location = new URL(to);
    for (const [name, value] of Object.entries(values)) {
      if (value !== "") location.searchParams.set(name, value);
    }
    if (issueIss) location.searchParams.set("iss", issuer);
    return new Response(null, {
      status: afterPost ? 303 : 302,
      headers: { Location: location.href, "Cache-Control": "no-store" },
    });
  }

  function findUser(key: string): MockUser | undefined {
    return users.find((u) => u.sub === key) ?? users.find((u) => u.email === key);
  }

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

  const provider: OAuthProviderCredentials = {
    id,
    name: "Mock",
    authorizeURL: endpoints.authorize,
    accessToken: endpoints.token,
    userInfo: endpoints.userinfo,
    scope: DEFAULT_SCOPES.join(" "),
    responseType: "code",
    clientId,
    clientSecret,
    issuer,
  };
  if (clientAuthMethod === "client_secret_post") provider.clientAuthMethod = clientAuthMethod;

  return {
    handler,
    fetch: mockFetch as typeof fetch,
    provider,
    users,
    requests,
    issuer,
  };
}

function parseBaseURL(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(
      `Invalid mock provider baseURL "${value}": expected an absolute http(s) URL.`,
    );
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
    throw new TypeError(
      `Invalid mock provider baseURL "${value}": expected an http(s) URL without query or fragment.`,
    );
  }
  return url;
}

function isDecision(value: unknown): value is MockDecision {
  return value === "approve" || value === "deny" ||
    (typeof value === "object" && value !== null &&
      typeof (value as { user?: unknown }).user === "string");
}

function seconds(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`Invalid ${name} ${value}: expected a positive number of seconds.`);
  }
  return value;
}

function checkUsers(users: MockUser[]): void {
  const seen = new Set<string>();
  for (const user of users) {
    if (typeof user.sub !== "string" || user.sub === "" || seen.has(user.sub)) {
      throw new TypeError("Invalid mock users: each needs a unique, non-empty string sub.");
    }
    seen.add(user.sub);
  }
}

function accountLabel(user: MockUser): string {
  const name = typeof user.name === "string" ? user.name : user.sub;
  return typeof user.email === "string" ? `${name} <${user.email}>` : name;
}

function claimsFor(user: MockUser, scope: string): Record<string, unknown> {
  const scopes = new Set(scope.split(" "));
  const claims: Record<string, unknown> = { sub: user.sub };
  for (const [name, value] of Object.entries(user)) {
    if (name === "sub") continue;
    if (name === "email" ? scopes.has("email") : scopes.has("profile")) claims[name] = value;
  }
  return claims;
}

function randomToken(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

function firstDuplicate(params: URLSearchParams): string | undefined {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** Reads a form-encoded body; `undefined` for another content type or an oversized body. */
async function readForm(request: Request): Promise<URLSearchParams | undefined> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    await request.body?.cancel();
    return undefined;
  }
  const text = await request.text();
  if (new TextEncoder().encode(text).length > MAX_BODY_BYTES) return undefined;
  return new URLSearchParams(text);
}

/** Decodes `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 section 2.3.1). */
function parseBasic(header: string): [string, string] | undefined {
  const match = BASIC.exec(header);
  if (!match) return undefined;
  try {
    const binary = atob(match[1]);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    const colon = text.indexOf(":");
    if (colon < 0) return undefined;
    const decode = (part: string) => decodeURIComponent(part.replaceAll("+", " "));
    return [decode(text.slice(0, colon)), decode(text.slice(colon + 1))];
  } catch {
    return undefined;
  }
}

function record(
  request: Request,
  url: URL,
  endpoint: MockEndpoint,
  outcome: Outcome,
): MockRequestRecord {
  const entry: MockRequestRecord = {
    endpoint,
    method: request.method,
    url: `${url.origin}${url.pathname}`,
    status: outcome.response.status,
    params: {},
  };
  if (outcome.error !== undefined) entry.error = outcome.error;
  if (outcome.clientAuthMethod !== undefined) entry.clientAuthMethod = outcome.clientAuthMethod;
  for (const [name, value] of outcome.params ?? []) {
    entry.params[name] = SECRET_PARAMS.has(name) ? REDACTED : value;
  }
  return entry;
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      Pragma: "no-cache",
      ...headers,
    },
  });
}

function jsonError(failure: OAuthFailure): Response {
  const headers: Record<string, string> = failure.status === 401
    ? { "WWW-Authenticate": 'Basic realm="mock-oauth"' }
    : {};
  return json(
    { error: failure.error, error_description: failure.description },
    failure.status,
    headers,
  );
}

function methodNotAllowed(allow: string): Outcome {
  const failure = new OAuthFailure(
    "invalid_request",
    `Method not allowed: expected ${allow}.`,
    405,
  );
  const response = json(
    { error: failure.error, error_description: failure.description },
    405,
    { Allow: allow },
  );
  return { response, error: failure.error };
}

function bearerChallenge(description: string, error: string | undefined): Response {
  const challenge = error === undefined
    ? 'Bearer realm="mock-oauth"'
    : `Bearer realm="mock-oauth", error="${error}"`;
  return json(
    { error: error ?? "invalid_token", error_description: description },
    401,
    { "WWW-Authenticate": challenge },
  );
}
