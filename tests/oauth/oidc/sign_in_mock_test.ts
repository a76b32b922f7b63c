// OpenID Connect sign-in through the handler against the mock provider: its
// default (explicit endpoints, JWKS URL and algorithm) and discovery modes,
// the nonce, the ID token and user-info checks, how often discovery and the
// JWKS are fetched, and the RFC 9207 iss rule that discovered metadata turns on.
import assert from "node:assert/strict";
import {
  type AuthConfig,
  createAuth,
  type OIDCProviderCredentials,
  type SignInParams,
} from "../../../mod.ts";
import {
  createMockProvider,
  type MockDiscoveryProviderConfig,
  type MockProvider,
  type MockProviderOptions,
} from "../../../testing.ts";
import {
  assertErrorRedirect,
  authorizeAt,
  Browser,
  getSession,
  pathOf,
  postedForm,
  SECRET,
  setCookies,
  startSignIn,
} from "../_flow_helpers.ts";

interface Setup {
  mock: MockProvider;
  browser: Browser;
  auth: ReturnType<typeof createAuth>;
}

function setup(
  options: { mock?: MockProviderOptions; auth?: Partial<AuthConfig>; entry?: object } = {},
): Setup {
  const mock = createMockProvider(options.mock) as MockProvider;
  const auth = createAuth({
    oauth: [{ ...mock.provider, ...options.entry }],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
    ...options.auth,
  } as AuthConfig);
  return { mock, auth, browser: new Browser(auth.handlers.ALL) };
}

/** Sign-in, the mock's authorization and the callback, landing on /home. */
async function signIn(s: Setup, browser = s.browser): Promise<Response> {
  const authorization = await startSignIn(browser, s.mock.provider.id, "?redirectTo=%2Fhome");
  const callback = await authorizeAt(s.mock, authorization);
  return await browser.get(pathOf(callback));
}

async function sessionUser(browser: Browser): Promise<unknown> {
  return (await (await getSession(browser)).json())?.user;
}

function count(mock: Pick<MockProvider, "requests">, endpoint: string): number {
  return mock.requests.filter((request) => request.endpoint === endpoint).length;
}

const ADA = {
  sub: "mock-user-1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  image: "https://example.com/avatars/ada.png",
};

// Both modes sign in

Deno.test("the default mock signs in by OpenID Connect without any discovery request", async () => {
  const s = setup();
  const response = await signIn(s);
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(s.browser), { ...ADA, emailVerified: true });
  assert.deepEqual(s.mock.requests.map((request) => request.endpoint), [
    "authorize",
    "token",
    "jwks",
    "userinfo",
  ]);
});

Deno.test("discovery mode: the issuer alone is enough to sign in", async () => {
  const s = setup({ mock: { oidc: { discovery: true } } });
  assert.equal("authorizeURL" in s.mock.provider, false);
  const response = await signIn(s);
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(s.browser), { ...ADA, emailVerified: true });
  assert.deepEqual(s.mock.requests.map((request) => request.endpoint), [
    "discovery",
    "authorize",
    "token",
    "jwks",
    "userinfo",
  ]);
});

Deno.test("{ id, name, issuer, clientId, clientSecret } alone signs in with scope openid profile email", async () => {
  const mock = createMockProvider({ oidc: { discovery: true } });
  const { id, name, issuer, clientId, clientSecret }: MockDiscoveryProviderConfig = mock.provider;
  // The public type asks for no scope and no responseType here (deno check of this file).
  const entry: OIDCProviderCredentials = { id, name, issuer, clientId, clientSecret };
  const auth = createAuth({ oauth: [entry], secret: SECRET, logger: false, fetch: mock.fetch });
  const browser = new Browser(auth.handlers.ALL);
  const authorization = await startSignIn(browser, id);
  assert.equal(authorization.searchParams.get("scope"), "openid profile email");
  assert.ok(authorization.searchParams.get("nonce"), "OpenID Connect sends a nonce");
  const callback = await authorizeAt(mock as MockProvider, authorization);
  const response = await browser.get(pathOf(callback));
  assert.equal(response.headers.get("Location"), "/");
  assert.deepEqual(await sessionUser(browser), { ...ADA, emailVerified: true });
});

Deno.test("an issuer-only provider's own scope wins over the default", async () => {
  const s = setup({ mock: { oidc: { discovery: true } }, entry: { scope: "openid email" } });
  const authorization = await startSignIn(s.browser, s.mock.provider.id);
  assert.equal(authorization.searchParams.get("scope"), "openid email");
});

Deno.test("discovery mode with RS256 keys signs in: the algorithm comes from the metadata", async () => {
  const s = setup({ mock: { oidc: { discovery: true, signingAlg: "RS256" } } });
  const response = await signIn(s);
  assert.equal(response.headers.get("Location"), "/home");
});

Deno.test("explicit endpoints win over discovered ones", async () => {
  const s = setup({
    mock: {
      oidc: { discovery: true, metadata: { token_endpoint: "http://mock-oauth.localhost/gone" } },
    },
    entry: { accessToken: "http://mock-oauth.localhost/token" },
  });
  const response = await signIn(s);
  assert.equal(response.headers.get("Location"), "/home");
  assert.equal(count(s.mock, "unknown"), 0);
});

Deno.test("plain OAuth mode (oidc: false) signs in without an ID token or a JWKS request", async () => {
  const s = setup({ mock: { oidc: false } });
  const response = await signIn(s);
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(s.browser), ADA);
  assert.equal(count(s.mock, "jwks"), 0);
  const authorize = s.mock.requests.find((request) => request.endpoint === "authorize")!;
  assert.equal("nonce" in authorize.params, false);
});

// The nonce

Deno.test("the authorization request carries a fresh 32-byte nonce per sign-in", async () => {
  const s = setup();
  const first = await startSignIn(s.browser, "mock");
  const second = await startSignIn(new Browser(s.auth.handlers.ALL), "mock");
  const nonce = first.searchParams.get("nonce")!;
  assert.match(nonce, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(second.searchParams.get("nonce"), nonce);
});

Deno.test("the nonce is sealed: no flow cookie shows it", async () => {
  const s = setup();
  const response = await s.browser.get("/auth/signIn/mock");
  const nonce = new URL(response.headers.get("Location")!).searchParams.get("nonce")!;
  const cookies = setCookies(response);
  assert.equal(cookies.size, 4);
  for (const value of cookies.values()) assert.equal(value.includes(nonce), false);
});

Deno.test("a provider with nonce: false sends no nonce and accepts a token without one", async () => {
  const s = setup({ entry: { nonce: false } });
  const authorization = await startSignIn(s.browser, "mock", "?redirectTo=%2Fhome");
  assert.equal(authorization.searchParams.has("nonce"), false);
  const callback = await authorizeAt(s.mock, authorization);
  const response = await s.browser.get(pathOf(callback));
  assert.equal(response.headers.get("Location"), "/home");
});

Deno.test("an authorization request stripped of its nonce fails the callback", async () => {
  const s = setup();
  const authorization = await startSignIn(s.browser, "mock", "?redirectTo=%2Fhome");
  authorization.searchParams.delete("nonce");
  const response = await s.browser.get(pathOf(await authorizeAt(s.mock, authorization)));
  assertErrorRedirect(response, "/home", "invalid_request");
});

Deno.test("flow cookies minted without a nonce fail a callback that needs one", async () => {
  // The provider's nonce setting changed between sign-in start and callback (a redeploy).
  const mock = createMockProvider();
  const before = createAuth({
    oauth: [{ ...mock.provider, nonce: false }],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
  });
  const browser = new Browser(before.handlers.ALL);
  const authorization = await startSignIn(browser, "mock", "?redirectTo=%2Fhome");
  const callback = await authorizeAt(mock, authorization);
  const after = setup({ auth: { fetch: mock.fetch } });
  const moved = new Browser(after.auth.handlers.ALL);
  moved.cookies = new Map(browser.cookies);
  assertErrorRedirect(await moved.get(pathOf(callback)), "/home", "invalid_request");
  assert.equal(count(mock, "token"), 0);
});

Deno.test("an ID token with another nonce lands on the error redirect", async () => {
  const s = setup({ mock: { oidc: { idTokenClaims: { nonce: "someone-elses-nonce" } } } });
  assertErrorRedirect(await signIn(s), "/home", "invalid_request");
  assert.equal(await sessionUser(s.browser), undefined);
});

// The ID token and user info

Deno.test("a token response without an id_token lands on the error redirect", async () => {
  const s = setup({ mock: { oidc: { tamperIdToken: () => undefined } } });
  assertErrorRedirect(await signIn(s), "/home", "server_error");
  assert.equal(count(s.mock, "userinfo"), 0);
});

Deno.test("an ID token with a broken signature lands on the error redirect", async () => {
  const s = setup({
    mock: {
      oidc: {
        tamperIdToken: (token) =>
          `${token.slice(0, -4)}${token.endsWith("AAAA") ? "BBBB" : "AAAA"}`,
      },
    },
  });
  assertErrorRedirect(await signIn(s), "/home", "server_error");
});

Deno.test("an ID token for another audience lands on the error redirect", async () => {
  const s = setup({ mock: { oidc: { idTokenClaims: { aud: "another-client" } } } });
  assertErrorRedirect(await signIn(s), "/home", "server_error");
});

Deno.test("a user-info sub that differs from the ID token's lands on the error redirect", async () => {
  const s = setup({ mock: { oidc: { idTokenClaims: { sub: "someone-else" } } } });
  assertErrorRedirect(await signIn(s), "/home", "server_error");
  assert.equal(count(s.mock, "userinfo"), 1);
});

Deno.test("the profile is the ID token's claims merged with user info, without protocol claims", async () => {
  let seen: Readonly<Record<string, unknown>> | undefined;
  const s = setup({
    auth: {
      callbacks: {
        signIn: ({ user, profile }: SignInParams) => {
          seen = profile;
          return user;
        },
      },
    },
  });
  await signIn(s);
  assert.deepEqual(seen, {
    sub: "mock-user-1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    email_verified: true,
    picture: "https://example.com/avatars/ada.png",
  });
});

Deno.test("a user-info email is never vouched for by the ID token's email_verified", async () => {
  // The ID token says verified, the user info (which carries the email) says not.
  const s = setup({
    mock: {
      users: [{ sub: "eve", email: "eve@example.com", email_verified: false }],
      oidc: { idTokenClaims: { email_verified: true } },
    },
  });
  await signIn(s);
  assert.deepEqual(await sessionUser(s.browser), { sub: "eve" });
});

Deno.test("a provider mapper receives the discovered endpoints", async () => {
  let endpoints: unknown;
  const s = setup({
    mock: { oidc: { discovery: true } },
    entry: {
      profile: (claims: Record<string, unknown>, context: { endpoints: unknown }) => {
        endpoints = context.endpoints;
        return { sub: String(claims.sub) };
      },
    },
  });
  await signIn(s);
  assert.deepEqual(endpoints, {
    authorizeURL: "http://mock-oauth.localhost/authorize",
    accessToken: "http://mock-oauth.localhost/token",
    userInfo: "http://mock-oauth.localhost/userinfo",
  });
});

// What is fetched, and how often

Deno.test("createAuth sends no request, even for a provider that needs discovery", () => {
  const mock = createMockProvider({ oidc: { discovery: true } });
  createAuth({ oauth: [mock.provider], secret: SECRET, logger: false, fetch: mock.fetch });
  assert.equal(mock.requests.length, 0);
});

Deno.test("discovery and the JWKS are fetched once per instance over many sign-ins", async () => {
  const s = setup({ mock: { oidc: { discovery: true } } });
  for (let i = 0; i < 4; i++) {
    const browser = new Browser(s.auth.handlers.ALL);
    assert.equal((await signIn(s, browser)).headers.get("Location"), "/home");
  }
  assert.equal(count(s.mock, "discovery"), 1);
  assert.equal(count(s.mock, "jwks"), 1);
  assert.equal(count(s.mock, "token"), 4);
});

Deno.test("two instances keep their own caches: each fetches discovery and the JWKS once", async () => {
  const mock = createMockProvider({ oidc: { discovery: true } });
  for (let i = 0; i < 2; i++) {
    const auth = createAuth({
      oauth: [mock.provider],
      secret: SECRET,
      logger: false,
      fetch: mock.fetch,
    });
    const s = { mock: mock as MockProvider, auth, browser: new Browser(auth.handlers.ALL) };
    await signIn(s);
    await signIn(s, new Browser(auth.handlers.ALL));
  }
  assert.equal(count(mock, "discovery"), 2);
  assert.equal(count(mock, "jwks"), 2);
});

Deno.test("a key rotation after a sign-in works: the next sign-in refetches the JWKS once", async () => {
  const s = setup();
  await signIn(s);
  await s.mock.rotateKey();
  const browser = new Browser(s.auth.handlers.ALL);
  assert.equal((await signIn(s, browser)).headers.get("Location"), "/home");
  assert.equal(count(s.mock, "jwks"), 2);
  await signIn(s, new Browser(s.auth.handlers.ALL));
  assert.equal(count(s.mock, "jwks"), 2);
});

Deno.test("discovery is fetched again after an hour", async () => {
  let now = Date.now();
  const s = setup({ mock: { oidc: { discovery: true } }, auth: { clock: () => now } });
  await signIn(s);
  now += 61 * 60 * 1000;
  await startSignIn(new Browser(s.auth.handlers.ALL), "mock");
  assert.equal(count(s.mock, "discovery"), 2);
});

// Discovery failures

Deno.test("a discovery document naming another issuer fails the sign-in start with 502", async () => {
  const s = setup({
    mock: { oidc: { discovery: true, metadata: { issuer: "http://evil.localhost" } } },
  });
  const response = await s.browser.get("/auth/signIn/mock?redirect=false");
  assert.equal(response.status, 502);
  assert.equal((await response.json()).error, "server_error");
  assert.equal(setCookies(response).size, 0);
});

Deno.test("a failed discovery at sign-in start shows a browser the error page, with no flow cookies", async () => {
  const s = setup({ mock: { oidc: { discovery: true, metadata: { jwks_uri: undefined } } } });
  const response = await s.browser.get("/auth/signIn/mock", { Accept: "text/html" });
  assert.equal(response.status, 502);
  assert.match(response.headers.get("Content-Type") ?? "", /^text\/html/);
  await response.body?.cancel();
  assert.equal(setCookies(response).size, 0);
});

Deno.test("a failed discovery is not cached: the next sign-in asks again", async () => {
  let broken = true;
  const s = setup({
    mock: {
      oidc: {
        discovery: true,
        metadata: (document) =>
          broken ? { ...document, issuer: "http://evil.localhost" } : document,
      },
    },
  });
  assert.equal((await s.browser.get("/auth/signIn/mock?redirect=false")).status, 502);
  broken = false;
  assert.equal((await signIn(s)).headers.get("Location"), "/home");
  assert.equal(count(s.mock, "discovery"), 2);
});

// RFC 9207

Deno.test("RFC 9207: when the metadata says iss is sent, a callback without iss is refused", async () => {
  const s = setup({
    mock: {
      issueIss: false,
      oidc: { discovery: true, metadata: { authorization_response_iss_parameter_supported: true } },
    },
  });
  assertErrorRedirect(await signIn(s), "/home", "invalid_request");
  assert.equal(count(s.mock, "token"), 0);
});

Deno.test("RFC 9207: when the metadata does not say so, a callback without iss is accepted", async () => {
  const s = setup({ mock: { issueIss: false, oidc: { discovery: true } } });
  assert.equal((await signIn(s)).headers.get("Location"), "/home");
});

Deno.test("RFC 9207: a callback whose iss names another issuer is refused before the token call", async () => {
  const s = setup({ mock: { oidc: { discovery: true } } });
  const authorization = await startSignIn(s.browser, "mock", "?redirectTo=%2Fhome");
  const callback = await authorizeAt(s.mock, authorization);
  callback.searchParams.set("iss", "http://evil.localhost");
  assertErrorRedirect(await s.browser.get(pathOf(callback)), "/home", "invalid_request");
  assert.equal(count(s.mock, "token"), 0);
});

Deno.test("RFC 9207: a repeated iss is refused even when both name the issuer", async () => {
  const s = setup();
  const authorization = await startSignIn(s.browser, "mock", "?redirectTo=%2Fhome");
  const callback = await authorizeAt(s.mock, authorization);
  callback.searchParams.append("iss", s.mock.issuer);
  assertErrorRedirect(await s.browser.get(pathOf(callback)), "/home", "invalid_request");
});

// Configuration

Deno.test("a provider asking for openid without an issuer is refused at createAuth", () => {
  const mock = createMockProvider();
  const { issuer: _, ...withoutIssuer } = mock.provider;
  assert.throws(
    () => createAuth({ oauth: [withoutIssuer], secret: SECRET, logger: false }),
    (error: unknown) =>
      error instanceof TypeError && /openid scope but has no issuer/.test(error.message),
  );
});

// form_post: the mock answers with a page whose form posts the response cross-site.

Deno.test("mock form_post: the provider asks for it and the posted response signs in", async () => {
  const s = setup({ mock: { responseMode: "form_post" } });
  assert.equal((s.mock.provider as { responseMode?: string }).responseMode, "form_post");
  const authorization = await startSignIn(s.browser, s.mock.provider.id, "?redirectTo=%2Fhome");
  assert.equal(authorization.searchParams.get("response_mode"), "form_post");
  const page = await s.mock.fetch(authorization.href);
  assert.equal(page.status, 200);
  const html = await page.clone().text();
  const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? "";
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script)),
  );
  const hash = btoa(String.fromCharCode(...digest));
  // The page's one script is the one its CSP allows, so a browser submits the form.
  assert.match(
    page.headers.get("Content-Security-Policy") ?? "",
    new RegExp(`script-src 'sha256-${hash.replace(/[+/]/g, "\\$&")}'`),
  );
  const { action, fields } = await postedForm(page);
  assert.equal(new URL(action).pathname, `/auth/callback/${s.mock.provider.id}`);
  assert.deepEqual([...fields.keys()].sort(), ["code", "iss", "state"]);
  const response = await s.auth.handlers.ALL(
    new Request(action, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: new URL(s.mock.provider.issuer!).origin,
        Cookie: s.browser.cookieHeader(),
      },
      body: fields,
    }),
  );
  s.browser.store(response);
  assert.equal(response.headers.get("Location"), "/home");
  assert.equal((await sessionUser(s.browser) as { sub?: string })?.sub, ADA.sub);
});

Deno.test("mock form_post: a denial is posted back as the error, and no session", async () => {
  const s = setup({ mock: { responseMode: "form_post", decide: "deny" } });
  const authorization = await startSignIn(s.browser, s.mock.provider.id, "?redirectTo=%2Fhome");
  const { fields } = await postedForm(await s.mock.fetch(authorization.href));
  assert.equal(fields.get("error"), "access_denied");
  assert.equal(fields.get("code"), null);
});

Deno.test("mock: an unknown response_mode is refused back to the client", async () => {
  const s = setup();
  const authorization = await startSignIn(s.browser, s.mock.provider.id, "?redirectTo=%2Fhome");
  authorization.searchParams.set("response_mode", "fragment");
  const back = await authorizeAt(s.mock, authorization);
  assert.equal(back.searchParams.get("error"), "invalid_request");
});

Deno.test("mock: a responseMode option other than query or form_post is a TypeError", () => {
  assert.throws(
    () => createMockProvider({ responseMode: "fragment" as "query" }),
    TypeError,
  );
});
