/**
 * A strict, in-memory OpenID Connect provider (authorization code grant
 * with PKCE S256), or with `oidc: false` a plain OAuth 2.0 server, for tests
 * and demos, on Web `Request`/`Response`: the public face that wires the
 * endpoints of this folder together.
 *
 * @module
 */

import type { OAuthProviderCredentials } from "../../oauth/types.ts";
import { createState, type MockContext } from "./_state.ts";
import { createMockFetch } from "./fetch.ts";
import { handleRequest } from "./handler.ts";
import { rotateKey } from "./jwks.ts";
import { DEFAULT_SCOPES, type MockSettings, PLAIN_SCOPES, resolveOptions } from "./options.ts";
import type {
  MockDiscoveryProviderConfig,
  MockOIDCOptions,
  MockProvider,
  MockProviderOptions,
} from "./types.ts";

export { MOCK_PROVIDER_ID } from "./options.ts";
export type {
  MockAuthorizationRequest,
  MockDecision,
  MockDiscoveryProviderConfig,
  MockEndpoint,
  MockIdTokenContext,
  MockOIDCOptions,
  MockProvider,
  MockProviderOptions,
  MockRequestRecord,
  MockSigningAlgorithm,
  MockUser,
} from "./types.ts";

/**
 * Creates a strict mock OpenID Connect provider whose `provider` has no
 * endpoints (`oidc: { discovery: true }`), so that the relying party must
 * discover them from `{issuer}/.well-known/openid-configuration`.
 *
 * @example Sign in by discovery
 * ```ts
 * import { createMockProvider } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider({ oidc: { discovery: true } });
 * console.log(mock.provider.issuer); // "http://mock-oauth.localhost"
 * const metadata = await (await mock.fetch(`${mock.issuer}/.well-known/openid-configuration`)).json();
 * console.log(metadata.jwks_uri); // "http://mock-oauth.localhost/jwks"
 * ```
 */
export function createMockProvider(
  options: MockProviderOptions & { oidc: MockOIDCOptions & { discovery: true } },
): MockProvider<MockDiscoveryProviderConfig>;
/**
 * Creates a strict mock OpenID Connect provider (an OAuth 2.0 authorization
 * server) for tests and demos.
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
 * By default it is an OpenID Connect provider: it serves its metadata
 * at `{issuer}/.well-known/openid-configuration` and its public key at
 * `{issuer}/jwks`, and for an `openid` scope its token responses carry an
 * `id_token` (ES256 by default; `iss`, `sub`, `aud` = client id, `exp`,
 * `iat`, the request's `nonce`, and the user's claims for the scope). Both
 * kinds of request appear in `requests` (`"discovery"`, `"jwks"`), so that
 * tests can assert what a relying party caches. Its `provider` names the
 * endpoints, `jwksURI` and `idTokenAlgorithms`, so that no discovery is
 * needed (`oidc: { discovery: true }` leaves them out). With `oidc: false`
 * it is a plain OAuth 2.0 server and `provider.scope` has no `openid`.
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
 *
 * @example OpenID Connect, a key rotation, and a tampered ID token
 * ```ts
 * import { createMockProvider } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider(); // OpenID Connect is the default
 * const kid = await mock.rotateKey(); // the next ID tokens carry this kid
 * const jwks = await (await mock.fetch(`${mock.issuer}/jwks`)).json();
 * console.log(jwks.keys[0].kid === kid); // true
 * console.log(mock.requests.filter((r) => r.endpoint === "jwks").length); // 1
 *
 * const expired = createMockProvider({
 *   oidc: { idTokenClaims: (claims) => ({ ...claims, exp: 1 }) },
 * });
 * ```
 *
 * @example Plain OAuth 2.0: no ID token, and a scope without openid
 * ```ts
 * import { createMockProvider } from "@service-stack/auth/testing";
 *
 * const plain = createMockProvider({ oidc: false });
 * console.log(plain.provider.scope); // "profile email"
 * ```
 */
export function createMockProvider(options?: MockProviderOptions): MockProvider;
export function createMockProvider(
  options: MockProviderOptions = {},
): MockProvider<OAuthProviderCredentials | MockDiscoveryProviderConfig> {
  const settings = resolveOptions(options);
  const ctx: MockContext = { settings, state: createState() };
  const handler = (request: Request) => handleRequest(ctx, request);
  return {
    handler,
    fetch: createMockFetch(settings, handler),
    provider: providerConfig(settings),
    users: settings.users,
    requests: ctx.state.requests,
    issuer: settings.issuer,
    rotateKey: () => rotateKey(ctx),
  };
}

/**
 * The configuration for `createAuth`. OpenID Connect mode: the issuer, and
 * (unless the relying party must discover them) the endpoints, the JWKS URL
 * and the signing algorithm, so that no discovery is needed. Plain OAuth
 * mode: the endpoints, the issuer (for the RFC 9207 `iss` check) and a scope
 * without `openid`.
 */
function providerConfig(
  settings: MockSettings,
): OAuthProviderCredentials | MockDiscoveryProviderConfig {
  const { id, clientId, clientSecret, issuer, endpoints, oidc } = settings;
  const scope = (oidc === undefined ? PLAIN_SCOPES : DEFAULT_SCOPES).join(" ");
  let provider: OAuthProviderCredentials | MockDiscoveryProviderConfig;
  if (oidc?.discovery) {
    provider = { id, name: "Mock", scope, responseType: "code", clientId, clientSecret, issuer };
  } else {
    provider = {
      id,
      name: "Mock",
      authorizeURL: endpoints.authorize,
      accessToken: endpoints.token,
      userInfo: endpoints.userinfo,
      scope,
      responseType: "code",
      clientId,
      clientSecret,
      issuer,
    };
    if (oidc !== undefined) {
      provider.jwksURI = endpoints.jwks;
      provider.idTokenAlgorithms = [oidc.alg];
    }
  }
  if (settings.clientAuthMethod === "client_secret_post") {
    provider.clientAuthMethod = settings.clientAuthMethod;
  }
  if (settings.responseMode === "form_post") provider.responseMode = "form_post";
  return provider;
}
