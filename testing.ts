/**
 * Test helpers for applications using `@service-stack/auth`: a strict,
 * in-memory OAuth 2.0 authorization server, optionally an OpenID Connect
 * provider (`oidc`), to sign in against in unit tests and demos, with no
 * network; `signInAs`, a signed-in cookie for any user in one call; and
 * `checkStore`, the store contract's checks for an app's own store.
 *
 * @example
 * ```ts
 * import { createMockProvider } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider();
 * // createAuth({ oauth: [mock.provider], fetch: mock.fetch, secret: "..." })
 * console.log(mock.provider.authorizeURL); // "http://mock-oauth.localhost/authorize"
 * ```
 *
 * @module
 */

export { createMockProvider, MOCK_PROVIDER_ID } from "./src/testing/mock_provider/mod.ts";
export { signInAs, type SignInAsOptions } from "./src/testing/sign_in_as.ts";
export {
  type CheckableStore,
  checkStore,
  type CheckStoreOptions,
  type CheckStoreResult,
  type FailedCheck,
  type StoreKind,
} from "./src/testing/check_store.ts";
export {
  createTestFetch,
  type TestFetch,
  type TestFetchOptions,
} from "./src/testing/test_fetch.ts";
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
} from "./src/testing/mock_provider/mod.ts";
export type {
  ClientAuthMethod,
  OAuthProviderConfig,
  OAuthProviderCredentials,
  OAuthTokens,
  ProfileContext,
} from "./src/oauth/types.ts";
export type { User } from "./src/types.ts";
