/**
 * Public types of the mock authorization server: its options, its users,
 * the records of the requests it answered, and the object
 * `createMockProvider` returns.
 *
 * @module
 */

import type { ClientAuthMethod, OAuthProviderCredentials } from "../../oauth/types.ts";

/**
 * A user of the mock provider; returned as is (filtered by scope) from the
 * userinfo endpoint and, in OpenID Connect mode, in ID tokens. Extra claims
 * are allowed.
 */
export interface MockUser {
  /** Stable subject identifier. */
  sub: string;
  /** Display name (`profile` scope). */
  name?: string;
  /** Email address (`email` scope). */
  email?: string;
  /**
   * Whether the email address is verified (`email` scope). In OpenID Connect
   * mode a user with an email and no `email_verified` counts as verified.
   */
  email_verified?: boolean;
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

/**
 * The ID token signature algorithms the mock can use.
 *
 * @example
 * ```ts
 * import { createMockProvider, type MockSigningAlgorithm } from "@service-stack/auth/testing";
 *
 * const signingAlg: MockSigningAlgorithm = "RS256";
 * const mock = createMockProvider({ oidc: { signingAlg } });
 * ```
 */
export type MockSigningAlgorithm = "RS256" | "ES256";

/**
 * What an ID token is issued for, as given to the ID token test hooks.
 *
 * @example Change the ID tokens of one user only
 * ```ts
 * import { createMockProvider, type MockIdTokenContext } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider({
 *   oidc: {
 *     idTokenClaims: (claims, context: MockIdTokenContext) =>
 *       context.user.sub === "mallory" ? { ...claims, nonce: "forged" } : claims,
 *   },
 * });
 * ```
 */
export interface MockIdTokenContext {
  /** The signed-in user. */
  user: MockUser;
  /** The client the token is issued to. */
  clientId: string;
  /** The granted scope. */
  scope: string;
  /** The `nonce` of the authorization request, when it sent one. */
  nonce?: string;
}

/**
 * OpenID Connect options of {@link createMockProvider} (`oidc`; OpenID
 * Connect is the default mode). The mock then serves
 * `GET {issuer}/.well-known/openid-configuration` and `GET {issuer}/jwks`,
 * and its token responses carry an `id_token` when the granted scope
 * contains `openid`.
 *
 * @example Make a relying party discover the endpoints, and test a bad audience
 * ```ts
 * import { createMockProvider } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider({ oidc: { discovery: true } });
 * console.log("authorizeURL" in mock.provider); // false: discovery finds it
 *
 * const wrongAudience = createMockProvider({
 *   oidc: { idTokenClaims: { aud: "someone-else" } },
 * });
 * ```
 */
export interface MockOIDCOptions {
  /**
   * Leave `authorizeURL`, `accessToken` and `userInfo` out of `provider`,
   * so that a relying party must use discovery; default `false` (explicit
   * endpoints, as in plain OAuth mode).
   */
  discovery?: boolean;
  /**
   * The ID token signature algorithm: `"ES256"` (default; P-256) or
   * `"RS256"` (RSA 2048). The key pair is generated with Web Crypto on first
   * need: about a millisecond for ES256, while generating an RSA key can
   * take half a second, which adds up over a test suite.
   */
  signingAlg?: MockSigningAlgorithm;
  /** ID token lifetime in seconds; default 600. */
  idTokenTTL?: number;
  /**
   * For negative tests: claims merged over each ID token's (a value
   * `undefined` removes that claim), or a function returning the claims to
   * sign instead (it may look at the user to change one user's tokens only).
   */
  idTokenClaims?:
    | Record<string, unknown>
    | ((
      claims: Record<string, unknown>,
      context: MockIdTokenContext,
    ) => Record<string, unknown> | Promise<Record<string, unknown>>);
  /**
   * For negative tests of discovery: members merged over the metadata
   * document (a value `undefined` removes that member, e.g.
   * `{ issuer: "http://other.localhost" }` or `{ jwks_uri: undefined }`), or
   * a function returning the document to send instead (called per request).
   */
  metadata?:
    | Record<string, unknown>
    | ((metadata: Record<string, unknown>) => Record<string, unknown>);
  /**
   * For negative tests of key handling: returns the JWK Set to serve instead
   * of `{ keys: [currentPublicKey] }` (called per request), e.g. with keys of
   * unknown types added, or none.
   */
  jwks?: (jwks: { keys: Record<string, string>[] }) => { keys: unknown[] };
  /**
   * For negative tests: rewrites each signed ID token before it is sent
   * (e.g. another header or signature); returning `undefined` leaves
   * `id_token` out of the token response.
   */
  tamperIdToken?: (
    idToken: string,
    context: MockIdTokenContext,
  ) => string | undefined | Promise<string | undefined>;
}

/** Options of {@link createMockProvider}. */
export interface MockProviderOptions {
  /**
   * Where the endpoints live; default `"http://mock-oauth.localhost"`. May
   * include a path. In OpenID Connect mode (the default) it is the issuer,
   * and must be `https:` or `http:` on a loopback host (`localhost`,
   * `*.localhost`, `127.0.0.1`, `[::1]`); with `oidc: false` any http(s) URL.
   */
  baseURL?: string;
  /**
   * Receives the mock's warnings (one, at creation, when `baseURL` is not on
   * a loopback host: whoever reaches such a mock can sign in as any of its
   * users); default `console.warn`.
   */
  warn?: (message: string) => void;
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
  /**
   * How the returned `provider` asks for the authorization response:
   * `"query"` (the default, a redirect) or `"form_post"` (an auto-submitting
   * form that posts it cross-site to the callback, as Sign in with Apple
   * does). Either way the mock answers each request in the `response_mode`
   * it asks for.
   */
  responseMode?: "query" | "form_post";
  /** A fixed decision, or a function deciding per request; default `"approve"`. */
  decide?:
    | MockDecision
    | ((request: MockAuthorizationRequest) => MockDecision | Promise<MockDecision>);
  /** Show an HTML consent page with Approve / Deny buttons instead of deciding; default `false`. */
  interactive?: boolean;
  /**
   * Act as an OpenID Connect provider: `true` (the default) or
   * {@link MockOIDCOptions}; `false` makes it a plain OAuth 2.0 server (no
   * discovery, no JWKS, no `id_token`) whose `provider.scope` is
   * `profile email`, without `openid`.
   */
  oidc?: boolean | MockOIDCOptions;
}

/** Which endpoint a logged request hit. */
export type MockEndpoint = "authorize" | "token" | "userinfo" | "discovery" | "jwks" | "unknown";

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

/**
 * The provider configuration of an OpenID Connect mock with
 * `oidc: { discovery: true }`: credentials, scope and `issuer`, and no
 * endpoints, so that the relying party discovers them from the issuer.
 *
 * @example
 * ```ts
 * import { createMockProvider, type MockDiscoveryProviderConfig } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider({ oidc: { discovery: true } });
 * const provider: MockDiscoveryProviderConfig = mock.provider;
 * console.log(provider.issuer, provider.scope); // "http://mock-oauth.localhost" "openid profile email"
 * ```
 */
export type MockDiscoveryProviderConfig =
  & Omit<OAuthProviderCredentials, "authorizeURL" | "accessToken" | "userInfo">
  & { issuer: string };

/** A mock OAuth 2.0 / OpenID Connect provider: see {@link createMockProvider}. */
export interface MockProvider<
  Config extends OAuthProviderCredentials | MockDiscoveryProviderConfig = OAuthProviderCredentials,
> {
  /**
   * The authorization server: `GET|POST {baseURL}/authorize`, `POST /token`,
   * `GET|POST /userinfo`, and (unless `oidc: false`)
   * `GET /.well-known/openid-configuration` and `GET /jwks`.
   */
  readonly handler: (request: Request) => Promise<Response>;
  /**
   * A `fetch` that sends requests for `baseURL` to `handler` without a
   * network and rejects every other URL with a `TypeError`. Redirects are
   * returned, never followed.
   */
  readonly fetch: typeof fetch;
  /** The provider configuration for `createAuth({ oauth: [...] })`. */
  readonly provider: Config;
  /** The accounts (the same array: tests may add users). */
  readonly users: MockUser[];
  /** Every request the server answered, oldest first. */
  readonly requests: MockRequestRecord[];
  /** The issuer identifier (the normalised base URL). */
  readonly issuer: string;
  /**
   * Replaces the ID token signing key by a new one and resolves its `kid`;
   * the JWKS then holds only the new key. Rejects with a `TypeError` with
   * `oidc: false`.
   */
  rotateKey(): Promise<string>;
}
