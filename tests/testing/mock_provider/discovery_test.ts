import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import { signIn } from "./_helpers.ts";

async function metadataOf(
  mock: { fetch: typeof fetch; issuer: string },
): Promise<Record<string, unknown>> {
  const response = await mock.fetch(`${mock.issuer}/.well-known/openid-configuration`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type")!, /^application\/json/);
  return await response.json();
}

Deno.test("discovery serves the OpenID Provider metadata of the issuer", async () => {
  const mock = createMockProvider({ oidc: true });
  const metadata = await metadataOf(mock);
  assert.deepEqual(metadata, {
    issuer: "http://mock-oauth.localhost",
    authorization_endpoint: "http://mock-oauth.localhost/authorize",
    token_endpoint: "http://mock-oauth.localhost/token",
    userinfo_endpoint: "http://mock-oauth.localhost/userinfo",
    jwks_uri: "http://mock-oauth.localhost/jwks",
    response_types_supported: ["code"],
    response_modes_supported: ["query", "form_post"],
    grant_types_supported: ["authorization_code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
    scopes_supported: ["openid", "profile", "email"],
    token_endpoint_auth_methods_supported: ["client_secret_basic"],
    code_challenge_methods_supported: ["S256"],
    claims_supported: [
      "iss",
      "sub",
      "aud",
      "exp",
      "iat",
      "nonce",
      "name",
      "email",
      "email_verified",
      "picture",
    ],
    authorization_response_iss_parameter_supported: true,
  });
});

Deno.test("discovery's issuer is the one the provider config names, base path included", async () => {
  const mock = createMockProvider({ oidc: true, baseURL: "https://idp.localhost/tenant-1/" });
  const metadata = await metadataOf(mock);
  assert.equal(mock.issuer, "https://idp.localhost/tenant-1");
  assert.equal(metadata.issuer, mock.provider.issuer);
  assert.equal(metadata.authorization_endpoint, "https://idp.localhost/tenant-1/authorize");
  assert.equal(metadata.jwks_uri, "https://idp.localhost/tenant-1/jwks");
});

Deno.test("discovery announces the configured client authentication, algorithm and scopes", async () => {
  const mock = createMockProvider({
    oidc: { signingAlg: "RS256" },
    clientAuthMethod: "client_secret_post",
    scopes: ["openid", "email"],
    issueIss: false,
  });
  const metadata = await metadataOf(mock);
  assert.deepEqual(metadata.id_token_signing_alg_values_supported, ["RS256"]);
  assert.deepEqual(metadata.token_endpoint_auth_methods_supported, ["client_secret_post"]);
  assert.deepEqual(metadata.scopes_supported, ["openid", "email"]);
  assert.equal(metadata.authorization_response_iss_parameter_supported, false);
});

Deno.test("discovery lists the users' extra claims", async () => {
  const mock = createMockProvider({ oidc: true, users: [{ sub: "a", locale: "fr" }] });
  const claims = (await metadataOf(mock)).claims_supported as string[];
  assert.ok(claims.includes("locale"));
});

Deno.test("discovery's endpoints are the ones a discovering client signs in with", async () => {
  const mock = createMockProvider({ oidc: true });
  const metadata = await metadataOf(mock);
  assert.equal(metadata.authorization_endpoint, mock.provider.authorizeURL);
  assert.equal(metadata.token_endpoint, mock.provider.accessToken);
  assert.equal(metadata.userinfo_endpoint, mock.provider.userInfo);
  const tokens = await signIn(mock);
  assert.equal(typeof tokens.id_token, "string");
});

Deno.test("discovery refuses POST with 405 and Allow: GET", async () => {
  const mock = createMockProvider({ oidc: true });
  const response = await mock.fetch(`${mock.issuer}/.well-known/openid-configuration`, {
    method: "POST",
  });
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("allow"), "GET");
  await response.body?.cancel();
});

Deno.test("with oidc: false, discovery and JWKS are unknown endpoints", async () => {
  const mock = createMockProvider({ oidc: false });
  for (const path of ["/.well-known/openid-configuration", "/jwks"]) {
    const response = await mock.fetch(`${mock.issuer}${path}`);
    assert.equal(response.status, 404, path);
    await response.body?.cancel();
  }
  assert.deepEqual(mock.requests.map((r) => r.endpoint), ["unknown", "unknown"]);
});

Deno.test("discovery and JWKS requests are counted in the request log", async () => {
  const mock = createMockProvider({ oidc: true });
  await metadataOf(mock);
  await metadataOf(mock);
  await (await mock.fetch(`${mock.issuer}/jwks`)).body?.cancel();
  const count = (endpoint: string) => mock.requests.filter((r) => r.endpoint === endpoint).length;
  assert.equal(count("discovery"), 2);
  assert.equal(count("jwks"), 1);
  assert.deepEqual(mock.requests[0], {
    endpoint: "discovery",
    method: "GET",
    url: "http://mock-oauth.localhost/.well-known/openid-configuration",
    status: 200,
    params: {},
  });
});

Deno.test("the metadata knob overrides and removes members of the document", async () => {
  const mock = createMockProvider({
    oidc: { metadata: { issuer: "http://other.localhost", jwks_uri: undefined } },
  });
  const metadata = await metadataOf(mock);
  assert.equal(metadata.issuer, "http://other.localhost");
  assert.equal("jwks_uri" in metadata, false);
  assert.equal(metadata.token_endpoint, mock.provider.accessToken);
});

Deno.test("a metadata function is called per request with the document", async () => {
  let calls = 0;
  const mock = createMockProvider({
    oidc: {
      metadata: (document) => ({
        ...document,
        issuer: calls++ === 0 ? "http://x.localhost" : document.issuer,
      }),
    },
  });
  assert.equal((await metadataOf(mock)).issuer, "http://x.localhost");
  assert.equal((await metadataOf(mock)).issuer, mock.issuer);
});
