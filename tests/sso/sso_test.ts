// Enterprise sign-in against mock OpenID providers: what POST /signIn/sso
// refuses before `sso.resolve` is asked, what it answers for no connection,
// a throwing resolver, an invalid connection and an unreachable issuer
// (retried on the next sign-in), what the callback refuses (a connection
// gone or with a changed issuer) before any token request, and the bound on
// the per-issuer caches (1,000 issuers, least recently used dropped).
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, type SsoConnection, type SsoQuery } from "../../mod.ts";
import {
  createMockProvider,
  type MockDiscoveryProviderConfig,
  type MockProvider,
} from "../../testing.ts";
import type { LogEntry } from "../../src/logger.ts";
import {
  assertErrorRedirect,
  fetchByOrigin,
  getSession,
  pathOf,
  postedForm,
} from "../oauth/_flow_helpers.ts";
import { Browser, ORIGIN, postSignIn, SSO_CALLBACK, startSso, tableResolver } from "./_helpers.ts";

const SECRET = "sso-test-secret-0123456789-abcdef-0123456789";

function mockOrg(name: string): MockProvider<MockDiscoveryProviderConfig> {
  return createMockProvider({
    baseURL: `http://${name}.localhost`,
    id: name,
    clientId: `${name}-client`,
    clientSecret: `${name}-secret-0123456789`,
    redirectURIs: [SSO_CALLBACK],
    users: [{ sub: "u1", name: "User One", email: `one@${name}.example` }],
    oidc: { discovery: true },
  });
}

function connection(mock: MockProvider<MockDiscoveryProviderConfig>, id: string): SsoConnection {
  return {
    id,
    issuer: mock.issuer,
    clientId: mock.provider.clientId,
    clientSecret: mock.provider.clientSecret as string,
    domains: [`${id}.example`],
  };
}

function setup(options: {
  resolve?: (query: SsoQuery) => unknown;
  fetch?: typeof fetch;
} = {}) {
  const acme = mockOrg("acme");
  const globex = mockOrg("globex");
  const table = tableResolver([connection(acme, "acme"), connection(globex, "globex")]);
  const logs: LogEntry[] = [];
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    logger: { level: "debug", log: (entry) => logs.push(entry) },
    fetch: options.fetch ??
      fetchByOrigin({ [acme.issuer]: acme.fetch, [globex.issuer]: globex.fetch }),
    sso: { resolve: options.resolve ?? table.resolve },
  } as AuthConfig);
  return { auth, acme, globex, table, logs, browser: new Browser(auth.handlers.ALL) };
}

async function assertError(response: Response, status: number, error: string) {
  assert.equal(response.status, status);
  const body = await response.json();
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, "string");
  return body;
}

const tokenRequests = (mock: MockProvider<MockDiscoveryProviderConfig>) =>
  mock.requests.filter((request) => request.endpoint === "token").length;

Deno.test("sso: a sign-in by email or by organization goes to that organization's provider", async () => {
  const { browser, acme, globex, table } = setup();
  const byEmail = await startSso(browser, { email: "  Ada@ACME.example " });
  assert.equal(byEmail.origin, acme.issuer);
  assert.deepEqual(table.calls.at(-1), { email: "Ada@ACME.example", domain: "acme.example" });
  const byOrg = await startSso(browser, { organization: "globex" });
  assert.equal(byOrg.origin, globex.issuer);
  assert.deepEqual(table.calls.at(-1), { organization: "globex" });
});

Deno.test("sso: hostile or ambiguous input is 400 without asking resolve", async () => {
  const { browser, table } = setup();
  const bodies: Record<string, unknown>[] = [
    { email: "ada@acme.example", organization: "acme" },
    {},
    { email: `${"a".repeat(250)}@acme.example` },
    { organization: "x".repeat(255) },
    { email: "ada@acme.example\u0000" },
    { email: "ada@acme.example\r\nBcc: x@y.example" },
    { organization: "acme\n" },
    { email: "\uff41da@acme.example" }, // a fullwidth "a": NFKC changes it
    { organization: "\uff41cme" },
    { organization: "ﬁrm" }, // the "fi" ligature
    { email: "not an address" },
    { email: "a@b@acme.example" },
    { email: 42 },
    { organization: ["acme"] },
    { organization: "acme/../globex" },
    { organization: "" },
    { email: "ada@acme.example", extra: 1 },
  ];
  for (const body of bodies) {
    const response = await postSignIn(browser, body);
    await assertError(response, 400, "invalid_request");
  }
  assert.equal(table.calls.length, 0);
});

Deno.test("sso: without a CSRF token the start is refused and resolve is not asked", async () => {
  const { auth, table } = setup();
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/signIn/sso`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ organization: "acme" }),
    }),
  );
  assert.equal(response.status, 403);
  assert.equal(table.calls.length, 0);
});

Deno.test("sso: no connection is 404 invalid_request", async () => {
  const { browser } = setup();
  const body = await assertError(
    await postSignIn(browser, { email: "ada@unknown.example" }),
    404,
    "invalid_request",
  );
  assert.match(body.error_description, /no single sign-on for this domain/i);
});

Deno.test("sso: a throwing resolve is a logged 500 server_error", async () => {
  const { browser, logs } = setup({
    resolve: () => {
      throw new Error("database down");
    },
  });
  const body = await assertError(
    await postSignIn(browser, { organization: "acme" }),
    500,
    "server_error",
  );
  assert.doesNotMatch(body.error_description, /database/);
  assert.ok(logs.some((entry) => entry.level === "error"), "nothing logged");
});

Deno.test("sso: an invalid connection is a logged 500 server_error", async () => {
  const acme = mockOrg("acme");
  const good = connection(acme, "acme");
  const invalid: unknown[] = [
    { ...good, id: "Acme" },
    { ...good, id: "a".repeat(65) },
    { ...good, id: "acme:x" },
    { ...good, issuer: "http://idp.example.com" }, // plain http off loopback
    { ...good, issuer: "https://idp.example.com/?tenant=1" },
    { ...good, issuer: "not a url" },
    { ...good, clientId: "" },
    { ...good, domains: "acme.example" },
    { ...good, domains: ["*.acme.example"] },
    { ...good, scope: "profile email" },
    { ...good, responseMode: "fragment" },
    "acme",
  ];
  for (const value of invalid) {
    const { browser, logs } = setup({ resolve: () => value });
    await assertError(await postSignIn(browser, { organization: "acme" }), 500, "server_error");
    assert.ok(
      logs.some((entry) => entry.level === "error" && /invalid connection/.test(entry.message)),
      `not logged: ${JSON.stringify(value)}`,
    );
  }
});

Deno.test("sso: an undiscoverable issuer is 502 temporarily_unavailable, tried again next time", async () => {
  const acme = mockOrg("acme");
  let failures = 1;
  let discoveries = 0;
  const flaky = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/.well-known/openid-configuration") {
      discoveries++;
      if (failures-- > 0) return Promise.reject(new TypeError("connection refused"));
    }
    return acme.fetch(input, init);
  }) as typeof fetch;
  const { browser, logs } = setup({ fetch: flaky });
  await assertError(
    await postSignIn(browser, { organization: "acme" }),
    502,
    "temporarily_unavailable",
  );
  const logged = logs.find((entry) => entry.message === "sso issuer unavailable");
  assert.equal(logged?.details?.connection, "acme");
  const url = await startSso(browser, { organization: "acme" });
  assert.equal(url.origin, acme.issuer);
  await startSso(browser, { organization: "acme" });
  assert.equal(discoveries, 2, "a working discovery is cached; the failed one is not");
});

Deno.test("sso: an issuer whose keys cannot be read is 502 at the start", async () => {
  const acme = mockOrg("acme");
  const noKeys = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/jwks") return Promise.resolve(new Response("nope", { status: 500 }));
    return acme.fetch(input, init);
  }) as typeof fetch;
  const { browser } = setup({ fetch: noKeys });
  await assertError(
    await postSignIn(browser, { organization: "acme" }),
    502,
    "temporarily_unavailable",
  );
});

Deno.test("sso: a form post starts with a 302 to the provider", async () => {
  const { auth, browser, acme } = setup();
  const { csrfToken } = await (await browser.get("/auth/csrfToken")).json();
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/signIn/sso`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: ORIGIN,
        Cookie: browser.cookieHeader(),
      },
      body: new URLSearchParams({ csrfToken, email: "ada@acme.example", redirectTo: "/home" }),
    }),
  );
  assert.equal(response.status, 302);
  assert.equal(new URL(response.headers.get("Location")!).origin, acme.issuer);
});

Deno.test("sso: a full sign-in with a mock provider, and the callback's checks", async (t) => {
  let current: SsoConnection | null = null;
  const acme = mockOrg("acme");
  const globex = mockOrg("globex");
  const { auth } = setup({
    resolve: (query) =>
      current !== null && (query.organization === "acme" || query.domain === "acme.example")
        ? current
        : null,
    fetch: fetchByOrigin({ [acme.issuer]: acme.fetch, [globex.issuer]: globex.fetch }),
  });

  async function flowTo(): Promise<{ browser: Browser; callback: URL }> {
    const browser = new Browser(auth.handlers.ALL);
    const url = await startSso(browser, { organization: "acme", redirectTo: "/home" });
    const answer = await acme.fetch(url.href);
    return { browser, callback: new URL(answer.headers.get("Location")!) };
  }

  await t.step("signs in as acme:u1 with the address of its own domain", async () => {
    current = connection(acme, "acme");
    const { browser, callback } = await flowTo();
    assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/home");
    const session = await (await getSession(browser)).json();
    assert.equal(session.user.sub, "acme:u1");
    assert.equal(session.user.email, "one@acme.example");
  });

  await t.step(
    "a connection whose issuer changed is refused before the token request",
    async () => {
      current = connection(acme, "acme");
      const { browser, callback } = await flowTo();
      current = { ...connection(globex, "acme") };
      const before = tokenRequests(acme) + tokenRequests(globex);
      assertErrorRedirect(await browser.get(pathOf(callback)), "/home", "invalid_request");
      assert.equal(tokenRequests(acme) + tokenRequests(globex), before);
    },
  );

  await t.step(
    "a connection gone since the start is refused before the token request",
    async () => {
      current = connection(acme, "acme");
      const { browser, callback } = await flowTo();
      current = null;
      const before = tokenRequests(acme);
      assertErrorRedirect(await browser.get(pathOf(callback)), "/home", "invalid_request");
      assert.equal(tokenRequests(acme), before);
    },
  );

  await t.step("a POST callback for a query-mode connection is refused", async () => {
    current = connection(acme, "acme");
    const { browser, callback } = await flowTo();
    const before = tokenRequests(acme);
    const response = await auth.handlers.ALL(
      new Request(`${ORIGIN}/auth/callback/sso`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: browser.cookieHeader(),
          Origin: acme.issuer,
        },
        body: callback.searchParams,
      }),
    );
    assertErrorRedirect(response, "/home", "invalid_request");
    assert.equal(tokenRequests(acme), before);
  });

  await t.step("a callback without a flow is a browser failure", async () => {
    const response = await new Browser(auth.handlers.ALL).get("/auth/callback/sso?code=x&state=y");
    assert.equal(response.status, 400);
  });
});

Deno.test("sso: discovery is cached for at most 1,000 issuers, least recently used dropped", async () => {
  const discoveries = new Map<string, number>();
  const keySets = new Map<string, number>();
  const fakeFetch = ((input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const issuer = url.origin;
    if (url.pathname === "/.well-known/openid-configuration") {
      discoveries.set(issuer, (discoveries.get(issuer) ?? 0) + 1);
      return Promise.resolve(Response.json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
      }));
    }
    if (url.pathname === "/jwks") {
      keySets.set(issuer, (keySets.get(issuer) ?? 0) + 1);
      return Promise.resolve(Response.json({ keys: [] }));
    }
    return Promise.reject(new TypeError(`unexpected ${url.href}`));
  }) as typeof fetch;
  const org = (i: number) => `http://org${i}.localhost`;
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    fetch: fakeFetch,
    // 1,104 starts from one address: this test is about the caches, not the limiter.
    rateLimit: false,
    sso: {
      resolve: ({ organization }) => ({
        id: organization!,
        issuer: org(Number(organization!.slice(3))),
        clientId: "client",
        domains: [],
      }),
    },
  } as AuthConfig);
  const browser = new Browser(auth.handlers.ALL);
  const { csrfToken } = await (await browser.get("/auth/csrfToken")).json();
  const start = async (i: number) => {
    const response = await auth.handlers.ALL(
      new Request(`${ORIGIN}/auth/signIn/sso`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-CSRF-Token": csrfToken,
          Origin: ORIGIN,
          Cookie: browser.cookieHeader(),
        },
        body: JSON.stringify({ organization: `org${i}` }),
      }),
    );
    assert.equal(response.status, 200);
    await response.body?.cancel();
  };
  for (let i = 0; i < 1100; i++) await start(i);
  assert.equal(discoveries.size, 1100);
  // The newest 1,000 are cached: no new fetch.
  await start(1099);
  await start(100);
  assert.equal(discoveries.get(org(1099)), 1);
  assert.equal(discoveries.get(org(100)), 1);
  // The oldest 100 were dropped: fetched again.
  await start(0);
  await start(99);
  assert.equal(discoveries.get(org(0)), 2);
  assert.equal(discoveries.get(org(99)), 2);
  // The key sets are bounded the same way.
  assert.equal(keySets.get(org(1099)), 1);
  assert.equal(keySets.get(org(100)), 1);
  assert.equal(keySets.get(org(0)), 2);
});

Deno.test('sso: a provider id "sso" beside the sso option is refused at createAuth', () => {
  const acme = mockOrg("acme");
  assert.throws(
    () =>
      createAuth({
        oauth: [{ ...acme.provider, id: "sso" }],
        secret: SECRET,
        sso: { resolve: () => null },
      } as AuthConfig),
    /reserved for single sign-on/,
  );
});

Deno.test("sso: a form_post connection answers by a cross-site POST to the one callback", async () => {
  const acme = createMockProvider({
    baseURL: "http://acme.localhost",
    id: "acme",
    clientId: "acme-client",
    clientSecret: "acme-secret-0123456789",
    redirectURIs: [SSO_CALLBACK],
    users: [{ sub: "u1", name: "User One", email: "one@acme.example" }],
    responseMode: "form_post",
    oidc: { discovery: true },
  });
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    fetch: acme.fetch,
    sso: {
      resolve: () => ({ ...connection(acme, "acme"), responseMode: "form_post" }),
    },
  } as AuthConfig);
  const browser = new Browser(auth.handlers.ALL);
  const url = await startSso(browser, { organization: "acme", redirectTo: "/home" });
  assert.equal(url.searchParams.get("response_mode"), "form_post");
  const { action, fields } = await postedForm(await acme.fetch(url.href));
  assert.equal(action, SSO_CALLBACK);
  const response = await auth.handlers.ALL(
    new Request(action, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: acme.issuer,
        Cookie: browser.cookieHeader(),
      },
      body: fields,
    }),
  );
  browser.store(response);
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/home");
  assert.equal((await (await getSession(browser)).json()).user.sub, "acme:u1");
});

Deno.test('sso: the rate limiter\'s "/signIn/sso" rule limits POST /signIn/sso', async () => {
  const acme = mockOrg("acme");
  const table = tableResolver([connection(acme, "acme")]);
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    fetch: acme.fetch,
    rateLimit: { rules: { "/signIn/sso": { max: 2, window: 60 } }, key: () => "one-client" },
    sso: { resolve: table.resolve },
  } as AuthConfig);
  const browser = new Browser(auth.handlers.ALL);
  assert.equal((await postSignIn(browser, { organization: "acme" })).status, 200);
  assert.equal((await postSignIn(browser, { organization: "acme" })).status, 200);
  const limited = await postSignIn(browser, { organization: "acme" });
  assert.equal(limited.status, 429);
  assert.equal(table.calls.length, 2);
});
