// Built-in options (tenant, issuer), the new provider fields, and their
// synchronous validation at createAuth.
import assert from "node:assert/strict";
import { isOpenIDConnect, needsDiscovery, requireEndpoint } from "../../../src/oauth/endpoints.ts";
import { resolveProviders } from "../../../src/oauth/providers/mod.ts";
import { createAuthorizationRequest } from "../../../src/oauth/authorization_request.ts";
import { exchangeCode } from "../../../src/oauth/token.ts";
import { fetchUserInfo } from "../../../src/oauth/user_info.ts";
import {
  MICROSOFT_CONSUMERS_TENANT,
  microsoftIssuerFor,
} from "../../../src/oauth/providers/microsoft.ts";
import { envOf, fakeFetch, json } from "./_helpers.ts";

const CREDENTIALS = { clientId: "id", clientSecret: "secret" };
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";

function resolve(entry: unknown, env: Record<string, string> = {}) {
  const [provider] = resolveProviders([entry], envOf(env)).values();
  return provider;
}

function refused(entry: unknown, message: RegExp, env: Record<string, string> = {}): void {
  assert.throws(
    () => resolve(entry, env),
    (error: unknown) => error instanceof TypeError && message.test(error.message),
  );
}

const CUSTOM = {
  id: "corp",
  name: "Corp",
  authorizeURL: "https://id.corp.example/authorize",
  accessToken: "https://id.corp.example/token",
  userInfo: "https://id.corp.example/userinfo",
  scope: "openid",
  responseType: "code",
  ...CREDENTIALS,
};

// Microsoft

Deno.test("microsoft defaults to the common tenant", () => {
  const provider = resolve({ id: "microsoft", ...CREDENTIALS });
  assert.equal(
    provider.authorizeURL,
    "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
  );
  assert.equal(provider.accessToken, "https://login.microsoftonline.com/common/oauth2/v2.0/token");
  assert.equal(provider.jwksURI, "https://login.microsoftonline.com/common/discovery/v2.0/keys");
  assert.equal(provider.issuer, "https://login.microsoftonline.com/common/v2.0");
  assert.equal(needsDiscovery(provider), false);
});

Deno.test("microsoft with a tenant id moves every endpoint to that tenant", () => {
  const provider = resolve({ id: "microsoft", tenant: TENANT, ...CREDENTIALS });
  assert.equal(
    provider.authorizeURL,
    `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/authorize`,
  );
  assert.equal(
    provider.accessToken,
    `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/token`,
  );
  assert.equal(provider.issuer, `https://login.microsoftonline.com/${TENANT}/v2.0`);
});

Deno.test("microsoft reads its tenant from MICROSOFT_TENANT_ID", () => {
  const provider = resolve("microsoft", {
    MICROSOFT_CLIENT_ID: "i",
    MICROSOFT_CLIENT_SECRET: "s",
    AUTH_MICROSOFT_TENANT_ID: "organizations",
  });
  assert.equal(provider.issuer, "https://login.microsoftonline.com/organizations/v2.0");
});

Deno.test("microsoft refuses a tenant that is not an audience or a tenant id", () => {
  for (const tenant of ["contoso.onmicrosoft.com", "../common", "common/v2.0", "", "COMMON?x"]) {
    refused({ id: "microsoft", tenant, ...CREDENTIALS }, /"microsoft" tenant must be .*; expected/);
  }
});

Deno.test("microsoft's issuerFor builds the issuer from the verified tid", () => {
  const issuerFor = resolve({ id: "microsoft", ...CREDENTIALS }).issuerFor!;
  assert.equal(
    issuerFor({ tid: TENANT }),
    `https://login.microsoftonline.com/${TENANT}/v2.0`,
  );
  assert.equal(
    issuerFor({ tid: MICROSOFT_CONSUMERS_TENANT }),
    `https://login.microsoftonline.com/${MICROSOFT_CONSUMERS_TENANT}/v2.0`,
  );
});

Deno.test("microsoft's issuerFor refuses a tid that is missing or not a tenant id", () => {
  const issuerFor = microsoftIssuerFor("common");
  for (
    const tid of [undefined, null, 42, "", "common", "../evil", `${TENANT}/x`, TENANT.toUpperCase()]
  ) {
    assert.equal(issuerFor({ tid }), undefined, String(tid));
  }
});

Deno.test("a tenant-bound microsoft accepts only its own tenant's tokens", () => {
  const issuerFor = resolve({ id: "microsoft", tenant: TENANT, ...CREDENTIALS }).issuerFor!;
  assert.equal(issuerFor({ tid: TENANT }), `https://login.microsoftonline.com/${TENANT}/v2.0`);
  assert.equal(issuerFor({ tid: "00000000-0000-0000-0000-000000000001" }), undefined);
  assert.equal(issuerFor({ tid: MICROSOFT_CONSUMERS_TENANT }), undefined);
});

Deno.test("consumers accepts only personal accounts, organizations only work accounts", () => {
  const consumers = microsoftIssuerFor("consumers");
  const organizations = microsoftIssuerFor("organizations");
  assert.ok(consumers({ tid: MICROSOFT_CONSUMERS_TENANT }));
  assert.equal(consumers({ tid: TENANT }), undefined);
  assert.ok(organizations({ tid: TENANT }));
  assert.equal(organizations({ tid: MICROSOFT_CONSUMERS_TENANT }), undefined);
});

// Issuer-based providers

Deno.test("okta without an issuer is refused naming the option and an example", () => {
  assert.throws(
    () => resolve({ id: "okta", ...CREDENTIALS }),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message ===
        'createAuth: provider "okta" needs an issuer; expected e.g. issuer: "https://dev-1.okta.com" (or OKTA_ISSUER in the environment).',
  );
});

for (const id of ["auth0", "keycloak", "cognito"]) {
  Deno.test(`${id} without an issuer is refused naming ${id.toUpperCase()}_ISSUER`, () => {
    refused(
      { id, ...CREDENTIALS },
      new RegExp(`"${id}" needs an issuer; expected e\\.g\\. issuer: "https://`),
    );
    refused({ id, ...CREDENTIALS }, new RegExp(`${id.toUpperCase()}_ISSUER`));
  });
}

Deno.test("okta takes its issuer from the entry and needs discovery", () => {
  const provider = resolve({
    id: "okta",
    issuer: "https://dev-1.okta.com/oauth2/default",
    ...CREDENTIALS,
  });
  assert.equal(provider.issuer, "https://dev-1.okta.com/oauth2/default");
  assert.equal(provider.authorizeURL, undefined);
  assert.equal(provider.userInfo, undefined);
  assert.equal(needsDiscovery(provider), true);
  assert.ok(isOpenIDConnect(provider));
});

Deno.test("okta reads OKTA_ISSUER through the env prefixes", () => {
  const provider = resolve("okta", {
    OKTA_CLIENT_ID: "i",
    OKTA_CLIENT_SECRET: "s",
    SERVICE_AUTH_OKTA_ISSUER: "https://dev-1.okta.com",
  });
  assert.equal(provider.issuer, "https://dev-1.okta.com");
});

Deno.test("an entry issuer wins over the environment's", () => {
  const provider = resolve(
    { id: "okta", issuer: "https://entry.okta.com", ...CREDENTIALS },
    { OKTA_ISSUER: "https://env.okta.com" },
  );
  assert.equal(provider.issuer, "https://entry.okta.com");
});

Deno.test("auth0's issuer gets the trailing slash its tokens carry", () => {
  for (const issuer of ["https://example.us.auth0.com", "https://example.us.auth0.com/"]) {
    assert.equal(
      resolve({ id: "auth0", issuer, ...CREDENTIALS }).issuer,
      "https://example.us.auth0.com/",
    );
  }
});

Deno.test("okta, keycloak and cognito issuers lose a trailing slash", () => {
  assert.equal(
    resolve({ id: "okta", issuer: "https://dev-1.okta.com/", ...CREDENTIALS }).issuer,
    "https://dev-1.okta.com",
  );
  assert.equal(
    resolve({ id: "keycloak", issuer: "https://sso.example.com/realms/main/", ...CREDENTIALS })
      .issuer,
    "https://sso.example.com/realms/main",
  );
});

Deno.test("a keycloak issuer without /realms/ and a foreign cognito issuer are refused", () => {
  refused(
    { id: "keycloak", issuer: "https://sso.example.com/", ...CREDENTIALS },
    /not a keycloak issuer/,
  );
  refused(
    { id: "cognito", issuer: "https://cognito-idp.evil.example/us-east-1_abc", ...CREDENTIALS },
    /not a cognito issuer/,
  );
  refused(
    { id: "okta", issuer: "https://dev-1.okta.com/some/path", ...CREDENTIALS },
    /not a okta issuer/,
  );
});

Deno.test("issuers must be https, or http only on loopback hosts", () => {
  refused(
    { id: "okta", issuer: "http://dev-1.okta.com", ...CREDENTIALS },
    /"okta" issuer must use https/,
  );
  refused({ ...CUSTOM, issuer: "http://id.corp.example" }, /"corp" issuer must use https/);
  refused({ ...CUSTOM, issuer: "ftp://id.corp.example" }, /issuer must use https/);
  for (
    const issuer of [
      "http://localhost:9000",
      "http://127.0.0.1:9000",
      "http://[::1]:9000",
      "http://id.localhost",
    ]
  ) {
    assert.equal(resolve({ ...CUSTOM, issuer }).issuer, issuer);
  }
});

Deno.test("an issuer with credentials, a query or a fragment is refused", () => {
  for (
    const issuer of [
      "https://u:p@id.corp.example",
      "https://id.corp.example?x=1",
      "https://id.corp.example#f",
    ]
  ) {
    refused({ ...CUSTOM, issuer }, /issuer must not/);
    refused({ id: "okta", issuer, ...CREDENTIALS }, /issuer must not/);
  }
});

Deno.test("salesforce's issuer option moves every endpoint to a sandbox", () => {
  const provider = resolve({
    id: "salesforce",
    issuer: "https://test.salesforce.com",
    ...CREDENTIALS,
  });
  assert.equal(provider.authorizeURL, "https://test.salesforce.com/services/oauth2/authorize");
  assert.equal(provider.accessToken, "https://test.salesforce.com/services/oauth2/token");
  assert.equal(provider.userInfo, "https://test.salesforce.com/services/oauth2/userinfo");
  assert.equal(provider.jwksURI, "https://test.salesforce.com/id/keys");
  assert.equal(provider.issuer, "https://test.salesforce.com");
});

// Custom providers with an issuer

Deno.test("a custom provider with only an issuer is accepted and needs discovery", () => {
  const provider = resolve({
    id: "idp",
    name: "IdP",
    issuer: "https://idp.example",
    scope: "openid email",
    responseType: "code",
    ...CREDENTIALS,
  });
  assert.equal(provider.authorizeURL, undefined);
  assert.equal(needsDiscovery(provider), true);
  assert.throws(
    () => requireEndpoint(provider, "authorizeURL"),
    (error: unknown) => error instanceof Error && error.name === "AuthError",
  );
});

Deno.test("a custom provider without an issuer still needs all three endpoints", () => {
  const { userInfo: _, ...rest } = CUSTOM;
  refused(rest, /"corp" needs a non-empty string "userInfo" \(or an issuer to discover it\)/);
});

Deno.test("an OpenID Connect provider with all endpoints and a JWKS needs no discovery", () => {
  assert.equal(
    needsDiscovery(
      resolve({
        ...CUSTOM,
        issuer: "https://id.corp.example",
        jwksURI: "https://id.corp.example/jwks",
      }),
    ),
    false,
  );
  assert.equal(needsDiscovery(resolve({ ...CUSTOM, issuer: "https://id.corp.example" })), true);
  assert.equal(
    needsDiscovery(resolve({ ...CUSTOM, scope: "profile", issuer: "https://id.corp.example" })),
    false,
  );
});

Deno.test("a jwksURI on plain http outside loopback is refused", () => {
  refused({ ...CUSTOM, jwksURI: "http://id.corp.example/jwks" }, /jwksURI must use https/);
});

Deno.test("idTokenAlgorithms must name JWS algorithms, never none", () => {
  for (const value of [["none"], [], "RS256", ["RS256", "HS512"], [1]]) {
    refused({ ...CUSTOM, idTokenAlgorithms: value }, /idTokenAlgorithms must be/);
  }
  assert.deepEqual(
    resolve({ ...CUSTOM, idTokenAlgorithms: ["ES256", "EdDSA"] }).idTokenAlgorithms,
    ["ES256", "EdDSA"],
  );
});

Deno.test("issuerFor must be a function", () => {
  refused({ ...CUSTOM, issuerFor: "https://id.corp.example" }, /issuerFor must be a function/);
});

Deno.test("responseMode, userInfoMethod, pkce and nonce accept only their values", () => {
  refused({ ...CUSTOM, responseMode: "fragment" }, /responseMode must be "query" or "form_post"/);
  refused({ ...CUSTOM, userInfoMethod: "PUT" }, /userInfoMethod must be "GET" or "POST"/);
  refused({ ...CUSTOM, pkce: "no" }, /pkce must be a boolean/);
  refused({ ...CUSTOM, nonce: 0 }, /nonce must be a boolean/);
});

Deno.test("defaults: query, GET, PKCE and nonce on, client_id, Basic", () => {
  const provider = resolve(CUSTOM);
  assert.equal(provider.responseMode, "query");
  assert.equal(provider.userInfoMethod, "GET");
  assert.equal(provider.pkce, true);
  assert.equal(provider.nonce, true);
  assert.equal(provider.clientIdParam, "client_id");
  assert.equal(provider.clientAuthMethod, "client_secret_basic");
});

Deno.test("a responseType of token or id_token is refused", () => {
  for (const responseType of ["token", "id_token", "refresh_token", "code id_token"]) {
    refused({ ...CUSTOM, responseType }, /responseType must be "code"/);
  }
});

Deno.test("an unknown key in an entry is refused (a typo must not pass silently)", () => {
  refused({ ...CUSTOM, tennant: "x" }, /"corp" has an unknown key "tennant"/);
  refused({ id: "microsoft", tennant: TENANT, ...CREDENTIALS }, /unknown key "tennant"/);
});

Deno.test("headers must be valid header names and values", () => {
  refused({ ...CUSTOM, headers: { "Bad Name": "x" } }, /header "Bad Name" is not a valid header/);
  refused({ ...CUSTOM, headers: { "User-Agent": "a\r\nX-Injected: 1" } }, /not a valid header/);
  refused({ ...CUSTOM, headers: { "User-Agent": 1 } }, /headers must be an object of strings/);
});

Deno.test("clientIdParam must be a parameter name and authorizationParams may not set it", () => {
  refused({ ...CUSTOM, clientIdParam: "client id" }, /clientIdParam must be a parameter name/);
  refused(
    { ...CUSTOM, clientIdParam: "client_key", authorizationParams: { client_key: "x" } },
    /may not set "client_key"/,
  );
});

for (const key of ["nonce", "response_mode", "code_verifier", "client_secret"]) {
  Deno.test(`authorizationParams may not set the reserved ${key}`, () => {
    refused({ ...CUSTOM, authorizationParams: { [key]: "x" } }, new RegExp(`may not set "${key}"`));
  });
}

Deno.test("clientAuthMethod none needs no client secret and sends none", async () => {
  const { clientSecret: _, ...rest } = CUSTOM;
  const provider = resolve({ ...rest, clientAuthMethod: "none" });
  assert.equal(provider.clientSecret, undefined);
  const { fetch, calls } = fakeFetch({
    [CUSTOM.accessToken]: () => json({ access_token: "a", token_type: "bearer" }),
  });
  await exchangeCode(fetch, provider, {
    code: "c",
    redirectURI: "https://a/cb",
    codeVerifier: "v".repeat(43),
  });
  const body = new URLSearchParams(calls[0].body);
  assert.equal(body.get("client_id"), "id");
  assert.equal(body.has("client_secret"), false);
  assert.equal(calls[0].authorization, null);
  assert.equal(body.get("code_verifier"), "v".repeat(43));
});

Deno.test("a clientSecret that is neither a string nor a function is refused", () => {
  refused({ ...CUSTOM, clientSecret: 42 }, /"corp" needs a non-empty string "clientSecret"/);
});

// What the flow sends

Deno.test("pkce: false sends no code_challenge and no code_verifier", async () => {
  const provider = resolve({ id: "linkedin", ...CREDENTIALS });
  const request = await createAuthorizationRequest(provider, { redirectURI: "https://a/cb" });
  const url = new URL(request.url);
  assert.equal(url.searchParams.has("code_challenge"), false);
  assert.equal(url.searchParams.has("code_challenge_method"), false);
  const { fetch, calls } = fakeFetch({
    "https://www.linkedin.com/oauth/v2/accessToken": () =>
      json({ access_token: "a", token_type: "Bearer" }),
  });
  await exchangeCode(fetch, provider, {
    code: "c",
    redirectURI: "https://a/cb",
    codeVerifier: request.codeVerifier,
  });
  const body = new URLSearchParams(calls[0].body);
  assert.equal(body.has("code_verifier"), false);
  assert.equal(body.get("client_secret"), "secret");
});

Deno.test("the PKCE providers keep S256 on", async () => {
  const provider = resolve({ id: "google", ...CREDENTIALS });
  const url = new URL(
    (await createAuthorizationRequest(provider, { redirectURI: "https://a/cb" })).url,
  );
  assert.equal(url.searchParams.get("code_challenge_method"), "S256");
});

Deno.test("TikTok sends client_key instead of client_id, in the URL and the token body", async () => {
  const provider = resolve({ id: "tiktok", ...CREDENTIALS });
  const url = new URL(
    (await createAuthorizationRequest(provider, { redirectURI: "https://a/cb" })).url,
  );
  assert.equal(url.searchParams.get("client_key"), "id");
  assert.equal(url.searchParams.has("client_id"), false);
  const { fetch, calls } = fakeFetch({
    "https://open.tiktokapis.com/v2/oauth/token/": () =>
      json({ access_token: "act.x", expires_in: 86400, open_id: "o", token_type: "Bearer" }),
  });
  await exchangeCode(fetch, provider, {
    code: "c",
    redirectURI: "https://a/cb",
    codeVerifier: "v",
  });
  const body = new URLSearchParams(calls[0].body);
  assert.equal(body.get("client_key"), "id");
  assert.equal(body.has("client_id"), false);
  assert.equal(body.get("client_secret"), "secret");
});

Deno.test("apple asks for response_mode=form_post", async () => {
  const provider = resolve({ id: "apple", clientId: "c", clientSecret: "jwt" });
  const url = new URL(
    (await createAuthorizationRequest(provider, { redirectURI: "https://a/cb" })).url,
  );
  assert.equal(url.searchParams.get("response_mode"), "form_post");
  assert.equal(url.searchParams.get("scope"), "openid name email");
});

Deno.test("query-mode providers send no response_mode", async () => {
  const provider = resolve({ id: "google", ...CREDENTIALS });
  const url = new URL(
    (await createAuthorizationRequest(provider, { redirectURI: "https://a/cb" })).url,
  );
  assert.equal(url.searchParams.has("response_mode"), false);
});

Deno.test("dropbox and slack fetch user info with a bodiless POST and the bearer token", async () => {
  for (
    const [id, url] of [
      ["dropbox", "https://api.dropboxapi.com/2/users/get_current_account"],
      ["slack", "https://slack.com/api/openid.connect.userInfo"],
    ]
  ) {
    const provider = resolve({ id, ...CREDENTIALS });
    const { fetch, calls } = fakeFetch({ [url]: () => json({ ok: true }) });
    await fetchUserInfo(fetch, provider, { access_token: "tok", token_type: "bearer" });
    assert.equal(calls[0].method, "POST", id);
    assert.equal(calls[0].body, "", id);
    assert.equal(calls[0].authorization, "Bearer tok", id);
  }
});

Deno.test("reddit sends its User-Agent on the token and user-info calls", async () => {
  const provider = resolve({
    id: "reddit",
    ...CREDENTIALS,
    headers: { "User-Agent": "web:com.example:v1 (by /u/ada)" },
  });
  const { fetch, calls } = fakeFetch({
    "https://www.reddit.com/api/v1/access_token": () =>
      json({ access_token: "r", token_type: "bearer" }),
    "https://oauth.reddit.com/api/v1/me": () => json({ id: "1", name: "ada" }),
  });
  const tokens = await exchangeCode(fetch, provider, {
    code: "c",
    redirectURI: "https://a/cb",
    codeVerifier: "v",
  });
  await fetchUserInfo(fetch, provider, tokens);
  for (const call of calls) {
    assert.equal(call.headers.get("user-agent"), "web:com.example:v1 (by /u/ada)");
  }
});

Deno.test("the built-in reddit has a User-Agent and notion its Notion-Version", () => {
  assert.match(resolve({ id: "reddit", ...CREDENTIALS }).headers["User-Agent"], /^web:/);
  assert.equal(resolve({ id: "notion", ...CREDENTIALS }).headers["Notion-Version"], "2025-09-03");
});

Deno.test("provider headers never replace Authorization, Accept or Content-Type", async () => {
  const provider = resolve({
    ...CUSTOM,
    headers: {
      Authorization: "Bearer stolen",
      Accept: "text/html",
      "Content-Type": "text/plain",
      "X-Extra": "1",
    },
  });
  const { fetch, calls } = fakeFetch({
    [CUSTOM.accessToken]: () => json({ access_token: "a", token_type: "bearer" }),
    [CUSTOM.userInfo]: () => json({ sub: "1" }),
  });
  const tokens = await exchangeCode(fetch, provider, {
    code: "c",
    redirectURI: "https://a/cb",
    codeVerifier: "v",
  });
  await fetchUserInfo(fetch, provider, tokens);
  assert.equal(calls[0].authorization, `Basic ${btoa("id:secret")}`);
  assert.equal(calls[0].headers.get("content-type"), "application/x-www-form-urlencoded");
  assert.equal(calls[1].authorization, "Bearer a");
  assert.equal(calls[1].headers.get("accept"), "application/json");
  assert.equal(calls[1].headers.get("x-extra"), "1");
});

Deno.test("an OpenID Connect provider without a user-info endpoint maps the ID token alone", async () => {
  const provider = resolve({ id: "apple", clientId: "c", clientSecret: "jwt" });
  const { fetch, calls } = fakeFetch({});
  assert.deepEqual(
    await fetchUserInfo(fetch, provider, { access_token: "a", token_type: "bearer" }),
    {},
  );
  assert.equal(calls.length, 0);
});

Deno.test("twitch asks for its profile claims in the claims parameter", async () => {
  const provider = resolve({ id: "twitch", ...CREDENTIALS });
  const url = new URL(
    (await createAuthorizationRequest(provider, { redirectURI: "https://a/cb" })).url,
  );
  const claims = JSON.parse(url.searchParams.get("claims")!);
  assert.deepEqual(Object.keys(claims.id_token).sort(), [
    "email",
    "email_verified",
    "picture",
    "preferred_username",
  ]);
});

Deno.test("atlassian sends its audience and consent prompt, dropbox online tokens", async () => {
  const atlassian = resolve({ id: "atlassian", ...CREDENTIALS });
  const a = new URL(
    (await createAuthorizationRequest(atlassian, { redirectURI: "https://a/cb" })).url,
  );
  assert.equal(a.searchParams.get("audience"), "api.atlassian.com");
  assert.equal(a.searchParams.get("prompt"), "consent");
  const dropbox = resolve({ id: "dropbox", ...CREDENTIALS });
  const d = new URL(
    (await createAuthorizationRequest(dropbox, { redirectURI: "https://a/cb" })).url,
  );
  assert.equal(d.searchParams.get("token_access_type"), "online");
});

Deno.test("resolved providers are frozen", () => {
  const provider = resolve({ id: "microsoft", ...CREDENTIALS });
  assert.ok(Object.isFrozen(provider));
  assert.ok(Object.isFrozen(provider.headers));
  assert.ok(Object.isFrozen(provider.authorizationParams));
});
