import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import { authorize, codeFor, exchange, pkce, STATE } from "./_helpers.ts";

Deno.test("happy path: authorize, token and userinfo by hand (plain OAuth)", async () => {
  const mock = createMockProvider({ oidc: false });
  const { verifier, challenge } = await pkce();

  const redirect = await authorize(mock, challenge);
  assert.equal(redirect.get("state"), STATE);
  assert.equal(redirect.get("iss"), "http://mock-oauth.localhost");
  const code = redirect.get("code")!;
  assert.ok(code.length >= 43);

  const tokenResponse = await exchange(mock, code, verifier);
  assert.equal(tokenResponse.status, 200);
  assert.equal(tokenResponse.headers.get("cache-control"), "no-store");
  assert.match(tokenResponse.headers.get("content-type")!, /^application\/json/);
  const tokens = await tokenResponse.json();
  assert.equal(tokens.token_type, "Bearer");
  assert.equal(tokens.expires_in, 3600);
  assert.equal(tokens.scope, "profile email");
  assert.equal(typeof tokens.access_token, "string");
  assert.equal("id_token" in tokens, false);

  const userResponse = await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  assert.equal(userResponse.status, 200);
  assert.deepEqual(await userResponse.json(), mock.users[0]);

  assert.deepEqual(
    mock.requests.map((r) => [r.endpoint, r.method, r.status]),
    [["authorize", "GET", 302], ["token", "POST", 200], ["userinfo", "GET", 200]],
  );
  assert.equal(mock.requests[1].clientAuthMethod, "client_secret_basic");
  assert.equal(mock.requests[1].params.grant_type, "authorization_code");
  assert.equal(mock.requests[1].params.code_verifier, "[redacted]");
  assert.equal(mock.requests[0].params.code_challenge_method, "S256");
});

Deno.test("provider is the matching createAuth configuration, OpenID Connect without discovery", () => {
  const mock = createMockProvider();
  assert.deepEqual(mock.provider, {
    id: "mock",
    name: "Mock",
    authorizeURL: "http://mock-oauth.localhost/authorize",
    accessToken: "http://mock-oauth.localhost/token",
    userInfo: "http://mock-oauth.localhost/userinfo",
    scope: "openid profile email",
    responseType: "code",
    clientId: "mock-client-id",
    clientSecret: "mock-client-secret",
    issuer: "http://mock-oauth.localhost",
    jwksURI: "http://mock-oauth.localhost/jwks",
    idTokenAlgorithms: ["ES256"],
  });
  assert.deepEqual(Object.keys(mock.users[0]).sort(), ["email", "name", "picture", "sub"]);
});

Deno.test("options set id, credentials and a base URL with a path", async () => {
  const mock = createMockProvider({
    id: "idp",
    clientId: "app",
    clientSecret: "s3cret",
    baseURL: "https://idp.localhost/oauth/",
  });
  assert.equal(mock.provider.id, "idp");
  assert.equal(mock.issuer, "https://idp.localhost/oauth");
  assert.equal(mock.provider.authorizeURL, "https://idp.localhost/oauth/authorize");
  const { verifier, challenge } = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), verifier);
  assert.equal(response.status, 200);
});

Deno.test("oidc: true is the default", () => {
  assert.deepEqual(createMockProvider({ oidc: true }).provider, createMockProvider().provider);
});

Deno.test("oidc: false gives the plain OAuth provider: endpoints, issuer, no openid scope", () => {
  assert.deepEqual(createMockProvider({ oidc: false }).provider, {
    id: "mock",
    name: "Mock",
    authorizeURL: "http://mock-oauth.localhost/authorize",
    accessToken: "http://mock-oauth.localhost/token",
    userInfo: "http://mock-oauth.localhost/userinfo",
    scope: "profile email",
    responseType: "code",
    clientId: "mock-client-id",
    clientSecret: "mock-client-secret",
    issuer: "http://mock-oauth.localhost",
  });
});

Deno.test("signingAlg RS256 is named in the provider's idTokenAlgorithms", () => {
  const mock = createMockProvider({ oidc: { signingAlg: "RS256" } });
  assert.deepEqual(mock.provider.idTokenAlgorithms, ["RS256"]);
});

Deno.test("oidc discovery mode gives a provider with issuer and no endpoints", () => {
  const mock = createMockProvider({
    oidc: { discovery: true },
    clientAuthMethod: "client_secret_post",
  });
  assert.deepEqual(mock.provider, {
    id: "mock",
    name: "Mock",
    scope: "openid profile email",
    responseType: "code",
    clientId: "mock-client-id",
    clientSecret: "mock-client-secret",
    issuer: "http://mock-oauth.localhost",
    clientAuthMethod: "client_secret_post",
  });
});

Deno.test("a discovery-mode provider's issuer leads to its endpoints", async () => {
  const mock = createMockProvider({ oidc: { discovery: true } });
  const response = await mock.fetch(`${mock.provider.issuer}/.well-known/openid-configuration`);
  const metadata = await response.json();
  assert.equal(metadata.issuer, mock.provider.issuer);
  assert.equal(metadata.token_endpoint, `${mock.provider.issuer}/token`);
});
