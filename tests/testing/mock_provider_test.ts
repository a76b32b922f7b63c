import assert from "node:assert/strict";
import { createMockProvider, type MockProvider } from "../../testing.ts";
import { encodeBase64Url } from "../../src/jose/base64url.ts";
import { errorPage } from "../../src/testing/mock_provider/pages.ts";

const REDIRECT_URI = "http://app.localhost/auth/callback/mock";
const STATE = "state-0123456789abcdef";

interface Pkce {
  verifier: string;
  challenge: string;
}

async function pkce(): Promise<Pkce> {
  const verifier = encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: encodeBase64Url(new Uint8Array(digest)) };
}

function authorizeURL(
  mock: MockProvider,
  challenge: string,
  overrides: Record<string, string | null> = {},
): string {
  const url = new URL(mock.provider.authorizeURL);
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: mock.provider.clientId,
    redirect_uri: REDIRECT_URI,
    scope: mock.provider.scope,
    state: STATE,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  for (const [name, value] of Object.entries(params)) {
    if (value !== null) url.searchParams.set(name, value);
  }
  return url.href;
}

/** Runs the authorization step and returns the redirect's query parameters. */
async function authorize(
  mock: MockProvider,
  challenge: string,
  overrides: Record<string, string | null> = {},
): Promise<URLSearchParams> {
  const response = await mock.fetch(authorizeURL(mock, challenge, overrides));
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get("location")!);
  assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
  return location.searchParams;
}

function basic(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s);
  return `Basic ${btoa(`${enc(id)}:${enc(secret)}`)}`;
}

/** Posts a token request; a `null` header value leaves that header out. */
function tokenRequest(
  mock: MockProvider,
  fields: Record<string, string>,
  overrides: Record<string, string | null> = {},
): Promise<Response> {
  const headers = new Headers({
    "content-type": "application/x-www-form-urlencoded",
    authorization: basic(mock.provider.clientId, mock.provider.clientSecret),
    accept: "application/json",
  });
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
  });
}

function exchange(
  mock: MockProvider,
  code: string,
  verifier: string,
  overrides: Record<string, string> = {},
): Promise<Response> {
  return tokenRequest(mock, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    ...overrides,
  });
}

async function codeFor(mock: MockProvider, challenge: string): Promise<string> {
  return (await authorize(mock, challenge)).get("code")!;
}

async function errorOf(response: Response): Promise<string> {
  const body = await response.json();
  assert.equal(typeof body.error_description, "string");
  return body.error;
}

Deno.test("happy path: authorize, token and userinfo by hand", async () => {
  const mock = createMockProvider();
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
  assert.equal(tokens.scope, "openid profile email");
  assert.equal(typeof tokens.access_token, "string");

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

Deno.test("provider is the matching createAuth configuration", () => {
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

Deno.test("fetch rejects any other URL with a TypeError", async () => {
  const mock = createMockProvider({ baseURL: "http://idp.localhost/oauth" });
  await assert.rejects(() => mock.fetch("https://example.com/token"), TypeError);
  await assert.rejects(() => mock.fetch("http://idp.localhost/other/token"), TypeError);
  await assert.rejects(() => mock.fetch("http://idp.localhost:8080/oauth/token"), TypeError);
  assert.equal(mock.requests.length, 0);
});

Deno.test("fetch honours an aborted signal", async () => {
  const mock = createMockProvider();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(() => mock.fetch(mock.provider.userInfo, { signal: controller.signal }));
});

Deno.test("unknown endpoints answer 404 JSON", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(`${mock.issuer}/.well-known/openid-configuration`);
  assert.equal(response.status, 404);
  assert.equal(await errorOf(response), "invalid_request");
  assert.equal(mock.requests[0].endpoint, "unknown");
});

Deno.test("authorize refuses a request without PKCE", async () => {
  const mock = createMockProvider();
  const redirect = await authorize(mock, "", {
    code_challenge: null,
    code_challenge_method: null,
  });
  assert.equal(redirect.get("error"), "invalid_request");
  assert.equal(redirect.get("state"), STATE);
  assert.equal(redirect.has("code"), false);
});

Deno.test("authorize refuses the plain PKCE method", async () => {
  const mock = createMockProvider();
  const { verifier } = await pkce();
  const redirect = await authorize(mock, verifier, { code_challenge_method: "plain" });
  assert.equal(redirect.get("error"), "invalid_request");
  assert.equal(redirect.has("code"), false);
});

Deno.test("authorize refuses a missing code_challenge_method", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { code_challenge_method: null });
  assert.equal(redirect.get("error"), "invalid_request");
});

Deno.test("authorize refuses a malformed code_challenge", async () => {
  const mock = createMockProvider();
  for (const challenge of ["short", "a".repeat(129), `${"a".repeat(42)}=`, `${"a".repeat(42)}+`]) {
    const redirect = await authorize(mock, challenge);
    assert.equal(redirect.get("error"), "invalid_request", challenge);
  }
});

Deno.test("authorize refuses a missing state", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { state: null });
  assert.equal(redirect.get("error"), "invalid_request");
  assert.equal(redirect.has("state"), false);
});

Deno.test("authorize refuses a response_type other than code", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  assert.equal(
    (await authorize(mock, challenge, { response_type: "token" })).get("error"),
    "unsupported_response_type",
  );
  assert.equal(
    (await authorize(mock, challenge, { response_type: null })).get("error"),
    "invalid_request",
  );
});

Deno.test("authorize refuses an unknown scope", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { scope: "openid admin" });
  assert.equal(redirect.get("error"), "invalid_scope");
});

Deno.test("authorize refuses a duplicated parameter", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const url = new URL(authorizeURL(mock, challenge));
  url.searchParams.append("code_challenge", challenge);
  const response = await mock.fetch(url);
  const redirect = new URL(response.headers.get("location")!).searchParams;
  assert.equal(redirect.get("error"), "invalid_request");
});

Deno.test("authorize shows a 400 page, never a redirect, for an unknown client_id", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  for (const clientId of ["someone-else", null]) {
    const response = await mock.fetch(authorizeURL(mock, challenge, { client_id: clientId }));
    assert.equal(response.status, 400);
    assert.equal(response.headers.get("location"), null);
    assert.match(response.headers.get("content-type")!, /^text\/html/);
    await response.body?.cancel();
  }
});

Deno.test("authorize shows a 400 page for a missing, relative or non-http redirect_uri", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  for (
    const uri of [null, "/auth/callback", "//evil.test/cb", "javascript:alert(1)", "http://["]
  ) {
    const response = await mock.fetch(authorizeURL(mock, challenge, { redirect_uri: uri }));
    assert.equal(response.status, 400, String(uri));
    assert.equal(response.headers.get("location"), null);
    await response.body?.cancel();
  }
});

Deno.test("authorize shows a 400 page for a redirect_uri with a fragment", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const response = await mock.fetch(
    authorizeURL(mock, challenge, { redirect_uri: `${REDIRECT_URI}#x` }),
  );
  assert.equal(response.status, 400);
  await response.body?.cancel();
});

Deno.test("authorize shows a 400 page for an unregistered redirect_uri", async () => {
  const mock = createMockProvider({ redirectURIs: [REDIRECT_URI] });
  const { challenge } = await pkce();
  const response = await mock.fetch(
    authorizeURL(mock, challenge, { redirect_uri: "http://app.localhost/other" }),
  );
  assert.equal(response.status, 400);
  await response.body?.cancel();
  assert.ok((await authorize(mock, challenge)).has("code"));
});

Deno.test("the 400 page escapes its error code and description", async () => {
  const html = await errorPage("<script>alert(1)</script>", 'a "b" & <i>c</i>').text();
  assert.equal(html.includes("<script>"), false);
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.ok(html.includes("a &quot;b&quot; &amp; &lt;i&gt;c&lt;/i&gt;"));
});

Deno.test("deny redirects with access_denied, state and iss", async () => {
  const mock = createMockProvider({ decide: "deny" });
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge);
  assert.equal(redirect.get("error"), "access_denied");
  assert.equal(redirect.get("state"), STATE);
  assert.equal(redirect.get("iss"), mock.issuer);
  assert.equal(redirect.has("code"), false);
});

Deno.test("issueIss: false leaves iss out of the authorization response", async () => {
  const mock = createMockProvider({ issueIss: false });
  const { challenge } = await pkce();
  assert.equal((await authorize(mock, challenge)).has("iss"), false);
});

Deno.test("login_hint chooses the user by email or sub", async () => {
  const users = [
    { sub: "a", name: "Ada", email: "ada@example.com" },
    { sub: "b", name: "Bob", email: "bob@example.com" },
  ];
  const mock = createMockProvider({ users });
  for (const hint of ["bob@example.com", "b"]) {
    const { verifier, challenge } = await pkce();
    const code = (await authorize(mock, challenge, { login_hint: hint })).get("code")!;
    const tokens = await (await exchange(mock, code, verifier)).json();
    const user = await (await mock.fetch(mock.provider.userInfo, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })).json();
    assert.equal(user.sub, "b", hint);
  }
});

Deno.test("an unknown login_hint is denied", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { login_hint: "nobody@example.com" });
  assert.equal(redirect.get("error"), "access_denied");
});

Deno.test("decide sees the request and can choose the user", async () => {
  const seen: string[] = [];
  const mock = createMockProvider({
    users: [{ sub: "a" }, { sub: "b", email: "b@example.com" }],
    decide: (request) => {
      seen.push(`${request.clientId} ${request.scope} ${request.state}`);
      return { user: "b@example.com" };
    },
  });
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const tokens = await (await exchange(mock, code, verifier)).json();
  const user = await (await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  })).json();
  assert.equal(user.sub, "b");
  assert.deepEqual(seen, [`mock-client-id openid profile email ${STATE}`]);
});

Deno.test("token refuses a wrong code_verifier", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const other = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), other.verifier);
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_grant");
});

Deno.test("token refuses a missing code_verifier", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: await codeFor(mock, challenge),
    redirect_uri: REDIRECT_URI,
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("a code is single use and its reuse revokes the tokens it gave", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const first = await (await exchange(mock, code, verifier)).json();

  const second = await exchange(mock, code, verifier);
  assert.equal(second.status, 400);
  assert.equal(await errorOf(second), "invalid_grant");

  const userinfo = await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${first.access_token}` },
  });
  assert.equal(userinfo.status, 401);
  await userinfo.body?.cancel();
});

Deno.test("concurrent redemptions of one code issue no token", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const responses = await Promise.all([
    exchange(mock, code, verifier),
    exchange(mock, code, verifier),
  ]);
  assert.deepEqual(responses.map((r) => r.status), [400, 400]);
  for (const r of responses) await r.body?.cancel();
});

Deno.test("a failed redemption still consumes the code", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const wrong = await exchange(mock, code, (await pkce()).verifier);
  await wrong.body?.cancel();
  const retry = await exchange(mock, code, verifier);
  assert.equal(await errorOf(retry), "invalid_grant");
});

Deno.test("an expired code is refused (clock option)", async () => {
  let now = 1_700_000_000_000;
  const mock = createMockProvider({ clock: () => now, codeTTL: 60 });
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  now += 60_000;
  const response = await exchange(mock, code, verifier);
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_grant");
});

Deno.test("a code is accepted just before it expires", async () => {
  let now = 1_700_000_000_000;
  const mock = createMockProvider({ clock: () => now, codeTTL: 60 });
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  now += 59_999;
  const response = await exchange(mock, code, verifier);
  assert.equal(response.status, 200);
  await response.body?.cancel();
});

Deno.test("token refuses a redirect_uri other than the authorize one", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), verifier, {
    redirect_uri: `${REDIRECT_URI}/`,
  });
  assert.equal(await errorOf(response), "invalid_grant");
});

Deno.test("token refuses a missing redirect_uri", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: await codeFor(mock, challenge),
    code_verifier: verifier,
  });
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("token refuses a wrong client secret with 401 and WWW-Authenticate", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  }, { authorization: basic(mock.provider.clientId, "wrong-secret") });
  assert.equal(response.status, 401);
  assert.match(response.headers.get("www-authenticate")!, /^Basic /);
  assert.equal(await errorOf(response), "invalid_client");
});

Deno.test("token refuses a malformed Basic header", async () => {
  const mock = createMockProvider();
  for (const header of ["Basic", "Basic %%%", `Basic ${btoa("no-colon")}`, "Bearer abc"]) {
    const response = await tokenRequest(mock, { grant_type: "authorization_code", code: "x" }, {
      authorization: header,
    });
    assert.equal(response.status, 401, header);
    assert.equal(await errorOf(response), "invalid_client");
  }
});

Deno.test("token refuses a client using both Basic and body credentials", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), verifier, {
    client_id: mock.provider.clientId,
    client_secret: mock.provider.clientSecret,
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
  assert.equal(mock.requests.at(-1)!.clientAuthMethod, "multiple");
  assert.equal(mock.requests.at(-1)!.params.client_secret, "[redacted]");
});

Deno.test("token refuses body credentials when Basic is expected", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: await codeFor(mock, challenge),
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: mock.provider.clientId,
    client_secret: mock.provider.clientSecret,
  }, { authorization: null });
  assert.equal(response.status, 401);
  assert.equal(await errorOf(response), "invalid_client");
  assert.equal(mock.requests.at(-1)!.clientAuthMethod, "client_secret_post");
});

Deno.test("token refuses a request without client authentication", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=authorization_code&code=x&client_id=mock-client-id",
  });
  assert.equal(response.status, 401);
  assert.equal(await errorOf(response), "invalid_client");
  assert.equal(mock.requests.at(-1)!.clientAuthMethod, "none");
});

Deno.test("client_secret_post mode accepts body credentials and refuses Basic", async () => {
  const mock = createMockProvider({ clientAuthMethod: "client_secret_post" });
  assert.equal(mock.provider.clientAuthMethod, "client_secret_post");
  const { verifier, challenge } = await pkce();
  const fields = {
    grant_type: "authorization_code",
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: mock.provider.clientId,
    client_secret: mock.provider.clientSecret,
  };
  const ok = await tokenRequest(mock, { ...fields, code: await codeFor(mock, challenge) }, {
    authorization: null,
  });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  const basicResponse = await exchange(mock, await codeFor(mock, challenge), verifier);
  assert.equal(basicResponse.status, 401);
  await basicResponse.body?.cancel();
});

Deno.test("Basic credentials are form-decoded before comparison", async () => {
  const mock = createMockProvider({ clientId: "app:1", clientSecret: "p@ss w+rd/é" });
  const { verifier, challenge } = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), verifier);
  assert.equal(response.status, 200);
  await response.body?.cancel();
});

Deno.test("token refuses a JSON body", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: basic(mock.provider.clientId, mock.provider.clientSecret),
    },
    body: JSON.stringify({
      grant_type: "authorization_code",
      code: await codeFor(mock, challenge),
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("token refuses GET with 405 and Allow: POST", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(`${mock.provider.accessToken}`);
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("allow"), "POST");
  await response.body?.cancel();
});

Deno.test("token refuses parameters in the URL query", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(`${mock.provider.accessToken}?client_secret=leak`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=authorization_code",
  });
  assert.equal(await errorOf(response), "invalid_request");
  assert.equal(JSON.stringify(mock.requests).includes("leak"), false);
});

Deno.test("token refuses another grant type and an unknown code", async () => {
  const mock = createMockProvider();
  const refresh = await tokenRequest(mock, { grant_type: "refresh_token", refresh_token: "x" });
  assert.equal(await errorOf(refresh), "unsupported_grant_type");
  const unknown = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: "never-issued",
    redirect_uri: REDIRECT_URI,
    code_verifier: (await pkce()).verifier,
  });
  assert.equal(await errorOf(unknown), "invalid_grant");
});

Deno.test("token refuses a duplicated parameter", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: basic(mock.provider.clientId, mock.provider.clientSecret),
    },
    body: "grant_type=authorization_code&code=a&code=b",
  });
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("userinfo requires a bearer token", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.userInfo);
  assert.equal(response.status, 401);
  assert.match(response.headers.get("www-authenticate")!, /^Bearer /);
  await response.body?.cancel();
});

Deno.test("userinfo refuses unknown or malformed bearer tokens", async () => {
  const mock = createMockProvider();
  for (const header of ["Bearer unknown-token", "Bearer %", "Basic abc", "Bearer"]) {
    const response = await mock.fetch(mock.provider.userInfo, {
      headers: { authorization: header },
    });
    assert.equal(response.status, 401, header);
    assert.match(response.headers.get("www-authenticate")!, /error="invalid_token"/);
    await response.body?.cancel();
  }
});

Deno.test("userinfo refuses an expired access token", async () => {
  let now = 1_700_000_000_000;
  const mock = createMockProvider({ clock: () => now, accessTokenTTL: 10 });
  const { verifier, challenge } = await pkce();
  const tokens = await (await exchange(mock, await codeFor(mock, challenge), verifier)).json();
  now += 10_000;
  const response = await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  assert.equal(response.status, 401);
  await response.body?.cancel();
});

Deno.test("userinfo returns only the claims the granted scope allows", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = (await authorize(mock, challenge, { scope: "openid email" })).get("code")!;
  const tokens = await (await exchange(mock, code, verifier)).json();
  assert.equal(tokens.scope, "openid email");
  const user = await (await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  })).json();
  assert.deepEqual(user, { sub: mock.users[0].sub, email: mock.users[0].email });
});

Deno.test("the request log never holds secrets, codes, verifiers or tokens", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const tokens = await (await exchange(mock, code, verifier)).json();
  await (await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  })).body?.cancel();
  const log = JSON.stringify(mock.requests);
  for (const secret of [mock.provider.clientSecret, code, verifier, tokens.access_token]) {
    assert.equal(log.includes(secret), false);
  }
});

Deno.test("interactive mode shows a consent page with escaped values", async () => {
  const mock = createMockProvider({ interactive: true });
  const { challenge } = await pkce();
  const response = await mock.fetch(
    authorizeURL(mock, challenge, { state: '"><script>alert(1)</script>' }),
  );
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type")!, /^text\/html/);
  const html = await response.text();
  assert.match(html, /value="approve"/);
  assert.match(html, /value="deny"/);
  assert.equal(html.includes("<script>"), false);
});

Deno.test("interactive approve and deny post back and redirect with 303", async () => {
  const mock = createMockProvider({ interactive: true });
  const { challenge } = await pkce();
  const params = new URL(authorizeURL(mock, challenge)).searchParams;
  for (const decision of ["approve", "deny"]) {
    const form = new URLSearchParams(params);
    form.set("decision", decision);
    form.set("user", mock.users[0].sub);
    const response = await mock.fetch(mock.provider.authorizeURL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    assert.equal(response.status, 303);
    const redirect = new URL(response.headers.get("location")!).searchParams;
    if (decision === "approve") assert.ok(redirect.has("code"));
    else assert.equal(redirect.get("error"), "access_denied");
  }
});

Deno.test("authorize refuses POST when not interactive", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.authorizeURL, { method: "POST" });
  assert.equal(response.status, 405);
  await response.body?.cancel();
});

Deno.test("createMockProvider refuses invalid options", () => {
  assert.throws(() => createMockProvider({ baseURL: "not a url" }), TypeError);
  assert.throws(() => createMockProvider({ baseURL: "ftp://x.localhost" }), TypeError);
  assert.throws(() => createMockProvider({ baseURL: "http://x.localhost/?a=1" }), TypeError);
  assert.throws(() => createMockProvider({ codeTTL: 0 }), TypeError);
  assert.throws(() => createMockProvider({ users: [{ sub: "a" }, { sub: "a" }] }), TypeError);
  assert.throws(() => createMockProvider({ clientSecret: "" }), TypeError);
});
