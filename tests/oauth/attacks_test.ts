// Attacks on the OAuth flow (THREATS.md "OAuth flow", "Redirects", "Tokens
// and cookies"): state, PKCE, provider mix-up, replay, token confusion,
// open redirects, provider error responses, iss, expired or changed flow
// cookies. Driven through the handlers as functions with `mock.fetch`.
import assert from "node:assert/strict";
import { createAuth, memoryStore } from "../../mod.ts";
import { createMockProvider, type MockProvider } from "../../testing.ts";
import {
  assertBadRequest,
  assertErrorRedirect,
  assertFlowCookiesCleared,
  assertFlowCookiesKept,
  assertNoSession,
  authorizeAt,
  Browser,
  Clock,
  fetchByOrigin,
  FLOW_COOKIES,
  getSession,
  ORIGIN,
  pathOf,
  SECRET,
  SESSION_COOKIE,
  setCookies,
  setupMock,
  signInThrough,
  startSignIn,
} from "./_flow_helpers.ts";

const TRUSTED = "https://trusted.example";

function tokenRequests(mock: MockProvider): number {
  return mock.requests.filter((record) => record.endpoint === "token").length;
}

/** Signs in with redirectTo=/home and gets the mock's callback URL, without calling it. */
async function pendingCallback(browser: Browser, mock: MockProvider): Promise<URL> {
  const authorization = await startSignIn(browser, mock.provider.id, "?redirectTo=%2Fhome");
  return await authorizeAt(mock, authorization);
}

/** The callback URL with `name` set to `value` (or removed when `value` is null). */
function withParam(url: URL, name: string, value: string | null): string {
  const copy = new URL(url);
  if (value === null) copy.searchParams.delete(name);
  else copy.searchParams.set(name, value);
  return pathOf(copy);
}

// state

Deno.test("a callback without state fails and sends no token request", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(withParam(callback, "state", null));
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a callback with an empty state fails", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(withParam(callback, "state", ""));
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a callback with a forged state fails and sends no token request", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const forged = callback.searchParams.get("state")!.replace(/^./, (c) => c === "A" ? "B" : "A");
  const response = await browser.get(withParam(callback, "state", forged));
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("the state of an earlier flow is refused once a new flow started", async () => {
  const { mock, browser } = setupMock();
  const first = await pendingCallback(browser, mock);
  await startSignIn(browser, "mock", "?redirectTo=%2Fsecond");
  const response = await browser.get(pathOf(first));
  assertErrorRedirect(response, "/second", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("replaying a completed callback URL in a signed-out browser answers 400", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/home");
  browser.cookies.delete(SESSION_COOKIE);
  const replay = await browser.get(pathOf(callback));
  await assertBadRequest(replay);
  assert.equal(tokenRequests(mock), 1);
});

Deno.test("replaying a completed callback URL in the signed-in browser goes on to / and signs nothing in", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/home");
  const session = browser.cookies.get(SESSION_COOKIE);
  // Back to the old callback URL: the flow is gone, the session is not.
  const replay = await browser.get(pathOf(callback));
  assert.equal(replay.status, 302);
  assert.equal(replay.headers.get("Location"), "/");
  assertNoSession(replay);
  assert.equal(browser.cookies.get(SESSION_COOKIE), session);
  assert.equal(tokenRequests(mock), 1);
});

Deno.test("a forged session cookie does not count as signed in at a stale callback", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/home");
  browser.cookies.set(SESSION_COOKIE, `${browser.cookies.get(SESSION_COOKIE)}x`);
  await assertBadRequest(await browser.get(pathOf(callback)));
});

Deno.test("replaying a callback with its saved flow cookies fails: the state is single-use, without a store too", async () => {
  const { auth, mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const savedCookies = browser.cookieHeader();
  assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/home");
  const attacker = new Browser(auth.handlers.ALL);
  const replay = await attacker.get(pathOf(callback), { Cookie: savedCookies });
  assertErrorRedirect(replay, "/home", "invalid_request");
  assert.equal(attacker.cookies.has(SESSION_COOKIE), false);
  // Refused before the provider is asked: its single-use code is not the only guard.
  assert.equal(tokenRequests(mock), 1);
});

Deno.test("a callback with a repeated state parameter is refused", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(
    `${pathOf(callback)}&state=${callback.searchParams.get("state")}`,
  );
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a callback with a repeated code parameter is refused", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(`${pathOf(callback)}&code=other-code`);
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a callback without code fails after a valid state", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(withParam(callback, "code", null));
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a callback with malformed percent-encoding fails without a server error", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(
    `${pathOf(callback)}`.replace(/state=[^&]*/, "state=%E0%A4%A"),
  );
  assertErrorRedirect(response, "/home", "invalid_request");
});

// Provider mix-up

function twoProviders() {
  const a = createMockProvider({ id: "a", baseURL: "http://a.localhost" });
  const b = createMockProvider({ id: "b", baseURL: "http://b.localhost" });
  const auth = createAuth({
    oauth: [a.provider, b.provider],
    secret: SECRET,
    logger: false,
    fetch: fetchByOrigin({ "http://a.localhost": a.fetch, "http://b.localhost": b.fetch }),
  });
  return { a, b, auth, browser: new Browser(auth.handlers.ALL) };
}

Deno.test("flow cookies from provider a are refused at provider b's callback, and left to a's flow", async () => {
  const { a, b, browser } = twoProviders();
  const callback = await pendingCallback(browser, a);
  const response = await browser.get(`/auth/callback/b${callback.search}`);
  await assertBadRequest(response);
  assertFlowCookiesKept(response);
  assert.equal(tokenRequests(a) + tokenRequests(b), 0);
  // a's own callback still completes.
  assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/home");
  assert.ok(browser.cookies.has(SESSION_COOKIE));
});

Deno.test("provider b's callback values are refused with provider a's flow cookies", async () => {
  const { a, b, browser } = twoProviders();
  await startSignIn(browser, "a", "?redirectTo=%2Fhome");
  const aCookies = browser.cookieHeader();
  const bCallback = await pendingCallback(new Browser(browser.handler), b);
  const response = await browser.get(`/auth/callback/b${bCallback.search}`, { Cookie: aCookies });
  await assertBadRequest(response);
  assert.equal(tokenRequests(a) + tokenRequests(b), 0);
});

Deno.test("the same flow still completes at its own provider's callback", async () => {
  const { a, browser } = twoProviders();
  const callback = await pendingCallback(browser, a);
  assert.equal(callback.pathname, "/auth/callback/a");
  const response = await browser.get(pathOf(callback));
  assert.equal(response.headers.get("Location"), "/home");
});

// PKCE

Deno.test("the authorization URL always carries an S256 challenge, even when the query asks for plain", async () => {
  const { browser } = setupMock();
  const url = await startSignIn(
    browser,
    "mock",
    "?code_challenge_method=plain&code_challenge=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  );
  assert.equal(url.searchParams.getAll("code_challenge_method").join(), "S256");
  assert.equal(url.searchParams.getAll("code_challenge").length, 1);
  assert.notEqual(url.searchParams.get("code_challenge"), "a".repeat(43));
});

Deno.test("the token request carries the code_verifier and the mock accepts it", async () => {
  const { mock, browser } = setupMock();
  await signInThrough(browser, mock);
  const token = mock.requests.find((record) => record.endpoint === "token")!;
  assert.ok("code_verifier" in token.params);
  assert.equal(token.status, 200);
  assert.equal(token.error, undefined);
});

Deno.test("a callback whose code_verifier cookie is missing answers 400 and sends no token request", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  browser.cookies.delete("service-stack.code_verifier");
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a code_verifier cookie from another flow answers 400", async () => {
  const { mock, browser } = setupMock();
  await startSignIn(browser, "mock");
  const otherVerifier = browser.cookies.get("service-stack.code_verifier")!;
  const callback = await pendingCallback(browser, mock);
  browser.cookies.set("service-stack.code_verifier", otherVerifier);
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
  assert.equal(tokenRequests(mock), 0);
});

// Token confusion

for (const name of FLOW_COOKIES) {
  Deno.test(`the ${name} flow cookie pasted as the session cookie is no session`, async () => {
    const { auth, browser } = setupMock();
    await startSignIn(browser, "mock");
    const value = browser.cookies.get(name)!;
    const cookie = `${SESSION_COOKIE}=${value}`;
    const response = await browser.get("/auth/session", { Cookie: cookie });
    assert.equal(response.status, 200);
    assert.equal(await response.json(), null);
    const request = new Request(`${ORIGIN}/`, { headers: { Cookie: cookie } });
    assert.equal(await auth.api.getSession(request), null);
  });
}

Deno.test("a session token pasted as the state cookie is refused at the callback", async () => {
  const { mock, browser } = setupMock();
  await signInThrough(browser, mock);
  const session = browser.cookies.get(SESSION_COOKIE)!;
  const callback = await pendingCallback(browser, mock);
  browser.cookies.set("service-stack.state", session);
  // Signed out: a signed-in browser would be sent on to / whatever its flow cookies.
  browser.cookies.delete(SESSION_COOKIE);
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
});

Deno.test("a state cookie pasted as the code_verifier cookie is refused", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  browser.cookies.set("service-stack.code_verifier", browser.cookies.get("service-stack.state")!);
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
  assert.equal(tokenRequests(mock), 0);
});

// redirectTo on sign-in

const REDIRECT_TRICKS = [
  "https://evil.com/",
  "//evil.com",
  "//evil.com/%2F..",
  "/\\evil.com",
  "\\\\evil.com",
  "/%5Cevil.com",
  "/%2F%2Fevil.com",
  "/\tevil.com",
  "/\nevil.com",
  `${TRUSTED}@evil.com`,
  "https://trusted.example@evil.com/",
  `${TRUSTED}.evil.com/`,
  "https:evil.com",
  "https:/evil.com",
  "https:///evil.com",
  "http://localhost:8000.evil.com/",
  "https://evil.com#@trusted.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http://[",
  " /home",
];

function setupTrusted() {
  return setupMock({ auth: { trustedOrigins: [TRUSTED] } });
}

for (const trick of REDIRECT_TRICKS) {
  Deno.test(`sign-in refuses redirectTo ${JSON.stringify(trick)} with 400 and sets no cookie`, async () => {
    const { browser } = setupTrusted();
    const response = await browser.get(
      `/auth/signIn/mock?redirectTo=${encodeURIComponent(trick)}`,
    );
    await assertBadRequest(response, "invalid_redirect_to");
    assert.equal(response.headers.getSetCookie().length, 0);
  });

  Deno.test(`api.signIn refuses redirectTo ${JSON.stringify(trick)} with 400 and sets no cookie`, async () => {
    const { auth } = setupTrusted();
    const response = await auth.api.signIn("mock", {
      request: new Request(`${ORIGIN}/login`),
      redirectTo: trick,
    });
    await assertBadRequest(response, "invalid_redirect_to");
    assert.equal(response.headers.getSetCookie().length, 0);
  });
}

Deno.test("sign-in accepts a redirectTo on a trusted origin and lands there", async () => {
  const { mock, browser } = setupTrusted();
  const response = await signInThrough(
    browser,
    mock,
    `?redirectTo=${encodeURIComponent(`${TRUSTED}/landing?x=1`)}`,
  );
  assert.equal(response.headers.get("Location"), `${TRUSTED}/landing?x=1`);
});

Deno.test("sign-in refuses a repeated redirectTo with 400", async () => {
  const { browser } = setupMock();
  const response = await browser.get("/auth/signIn/mock?redirectTo=%2Fa&redirectTo=%2Fb");
  await assertBadRequest(response);
  assert.equal(response.headers.getSetCookie().length, 0);
});

Deno.test("sign-in ignores a foreign Referer and lands on /", async () => {
  const { mock, browser } = setupMock();
  const start = await browser.get("/auth/signIn/mock", { Referer: "https://evil.com/page" });
  const callback = await authorizeAt(mock, new URL(start.headers.get("Location")!));
  const response = await browser.get(pathOf(callback), { Referer: "https://evil.com/page" });
  assert.equal(response.headers.get("Location"), "/");
});

// Callback error paths and their targets

Deno.test("a failed callback ignores a redirectTo in the callback query", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const forged = new URL(callback);
  forged.searchParams.set("state", "forged");
  forged.searchParams.set("redirectTo", "https://evil.com/");
  const response = await browser.get(pathOf(forged));
  assertErrorRedirect(response, "/home", "invalid_request");
});

Deno.test("a callback without flow cookies never redirects to a Referer", async () => {
  const { browser } = setupMock();
  const response = await browser.get("/auth/callback/mock?code=c&state=s&redirectTo=%2F%2Fevil", {
    Referer: "https://evil.com/",
  });
  await assertBadRequest(response);
});

Deno.test("a forged redirect_to cookie answers 400 without a Location", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  browser.cookies.set("service-stack.redirect_to", "https://evil.com/");
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
});

Deno.test("a redirect_to cookie from another flow answers 400 without a Location", async () => {
  const { mock, browser } = setupMock();
  await startSignIn(browser, "mock", `?redirectTo=${encodeURIComponent("/other")}`);
  const other = browser.cookies.get("service-stack.redirect_to")!;
  const callback = await pendingCallback(browser, mock);
  browser.cookies.set("service-stack.redirect_to", other);
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
});

// Provider error responses

Deno.test("a provider's access_denied redirects to the target with access_denied", async () => {
  const { mock, browser } = setupMock({ mock: { decide: "deny" } });
  const callback = await pendingCallback(browser, mock);
  assert.equal(callback.searchParams.get("error"), "access_denied");
  const response = await browser.get(pathOf(callback));
  assertErrorRedirect(response, "/home", "access_denied");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("an unknown provider error code is reported as server_error", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const denied = new URL(callback);
  denied.searchParams.delete("code");
  denied.searchParams.set("error", "account_locked_by_admin");
  const response = await browser.get(pathOf(denied));
  assertErrorRedirect(response, "/home", "server_error");
});

Deno.test("a provider error using a non-authorization code is reported as server_error", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const denied = new URL(callback);
  denied.searchParams.delete("code");
  denied.searchParams.set("error", "invalid_redirect_to");
  const response = await browser.get(pathOf(denied));
  assertErrorRedirect(response, "/home", "server_error");
});

Deno.test("the provider's error_description is not reflected to the target", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const denied = new URL(callback);
  denied.searchParams.delete("code");
  denied.searchParams.set("error", "access_denied");
  denied.searchParams.set("error_description", "<script>alert(1)</script> call +1-555");
  const response = await browser.get(pathOf(denied));
  assertErrorRedirect(response, "/home", "access_denied");
  const description = new URL(response.headers.get("Location")!, ORIGIN).searchParams
    .get("error_description")!;
  assert.ok(!description.includes("<") && !description.includes("555"), description);
});

Deno.test("a provider error without the flow's state is reported as a state mismatch", async () => {
  const { mock, browser } = setupMock();
  await pendingCallback(browser, mock);
  const response = await browser.get("/auth/callback/mock?error=access_denied");
  assertErrorRedirect(response, "/home", "invalid_request");
});

// iss (RFC 9207)

Deno.test("an iss that differs from the provider's issuer fails and sends no token request", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  assert.equal(callback.searchParams.get("iss"), mock.issuer);
  const response = await browser.get(withParam(callback, "iss", "https://evil.example"));
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("an iss mismatch on a provider error response is reported as invalid_request", async () => {
  const { mock, browser } = setupMock({ mock: { decide: "deny" } });
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(withParam(callback, "iss", "https://evil.example"));
  assertErrorRedirect(response, "/home", "invalid_request");
});

Deno.test("a repeated iss parameter is refused", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(`${pathOf(callback)}&iss=${encodeURIComponent(mock.issuer)}`);
  assertErrorRedirect(response, "/home", "invalid_request");
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a callback without iss is accepted: the parameter is optional", async () => {
  const { mock, browser } = setupMock({ mock: { issueIss: false } });
  const callback = await pendingCallback(browser, mock);
  assert.equal(callback.searchParams.has("iss"), false);
  const response = await browser.get(pathOf(callback));
  assert.equal(response.headers.get("Location"), "/home");
});

Deno.test("iss is not checked for a plain OAuth provider configured without an issuer", async () => {
  const mock = createMockProvider({ oidc: false });
  const { issuer: _, ...withoutIssuer } = mock.provider;
  const auth = createAuth({
    oauth: [withoutIssuer],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
  });
  const browser = new Browser(auth.handlers.ALL);
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(withParam(callback, "iss", "https://other.example"));
  assert.equal(response.headers.get("Location"), "/home");
});

// Missing, changed and expired flow cookies

Deno.test("a callback without flow cookies answers 400 JSON", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const response = await browser.get(pathOf(callback), { Cookie: "" });
  await assertBadRequest(response);
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("a callback for an unknown provider answers 400 JSON", async () => {
  const { browser } = setupMock();
  const response = await browser.get("/auth/callback/nope?code=c&state=s");
  await assertBadRequest(response);
});

Deno.test("a changed flow cookie answers 400 and sends no token request", async () => {
  const { mock, browser } = setupMock();
  const callback = await pendingCallback(browser, mock);
  const value = browser.cookies.get("service-stack.state")!;
  const middle = Math.floor(value.length / 2);
  const flipped = value[middle] === "A" ? "B" : "A";
  browser.cookies.set(
    "service-stack.state",
    value.slice(0, middle) + flipped + value.slice(middle + 1),
  );
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("flow cookies older than 10 minutes answer 400", async () => {
  const clock = new Clock();
  const { mock, browser } = setupMock({ auth: { clock: clock.fn } });
  const callback = await pendingCallback(browser, mock);
  clock.advance(10 * 60 + 10);
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
  assert.equal(tokenRequests(mock), 0);
});

Deno.test("flow cookies 9 minutes old still complete the flow", async () => {
  const clock = new Clock();
  const { mock, browser } = setupMock({ auth: { clock: clock.fn } });
  const callback = await pendingCallback(browser, mock);
  clock.advance(9 * 60);
  const response = await browser.get(pathOf(callback));
  assert.equal(response.headers.get("Location"), "/home");
  assert.ok(setCookies(response).has(SESSION_COOKIE));
});

// Flow cookies are cleared on every outcome of a response that answers the flow (its state),
// and left alone by one that does not: any site can send a browser to the callback.

const OUTCOMES: Record<string, (browser: Browser, mock: MockProvider) => Promise<Response>> = {
  "succeeds": async (browser, mock) => browser.get(pathOf(await pendingCallback(browser, mock))),
  "reports a provider denial": async (browser, mock) => {
    const callback = await pendingCallback(browser, mock);
    callback.searchParams.delete("code");
    callback.searchParams.set("error", "access_denied");
    return browser.get(pathOf(callback));
  },
  "has a wrong iss": async (browser, mock) =>
    browser.get(withParam(await pendingCallback(browser, mock), "iss", "https://evil.example")),
  "fails at the token endpoint": async (browser, mock) => {
    const callback = await pendingCallback(browser, mock);
    return browser.get(withParam(callback, "code", "unknown-code"));
  },
  "is replayed (the state is used up)": async (browser, mock) => {
    const callback = await pendingCallback(browser, mock);
    const cookies = browser.cookieHeader();
    await browser.get(pathOf(callback));
    return browser.get(pathOf(callback), { Cookie: cookies });
  },
};

function twoProviderBrowser(store = false) {
  const mock = createMockProvider();
  const other = createMockProvider({ id: "other", baseURL: "http://other.localhost" });
  const auth = createAuth({
    oauth: [mock.provider, other.provider],
    secret: SECRET,
    logger: false,
    fetch: fetchByOrigin({ [mock.issuer]: mock.fetch, [other.issuer]: other.fetch }),
    ...(store ? { session: { store: memoryStore() } } : {}),
  });
  return { mock, browser: new Browser(auth.handlers.ALL) };
}

for (const [outcome, run] of Object.entries(OUTCOMES)) {
  Deno.test(`flow cookies are cleared when the callback ${outcome}`, async () => {
    const { mock, browser } = twoProviderBrowser(true);
    const response = await run(browser, mock);
    assertFlowCookiesCleared(response);
    for (const name of FLOW_COOKIES) assert.equal(browser.cookies.has(name), false, name);
  });
}

/** Callbacks that do not answer the flow in progress; `forged` is sent before the real one. */
const FOREIGN: Record<string, (callback: URL) => string> = {
  "has a forged state": (callback) => withParam(callback, "state", "forged"),
  "has no state": (callback) => withParam(callback, "state", null),
  "has the state twice": (callback) =>
    `${pathOf(callback)}&state=${callback.searchParams.get("state")}`,
  "is for another provider": (callback) => `/auth/callback/other${callback.search}`,
  "has another state and a provider error": (callback) =>
    `${callback.pathname}?state=forged&error=access_denied`,
};

for (const [outcome, forge] of Object.entries(FOREIGN)) {
  Deno.test(`flow cookies are left alone when the callback ${outcome}, and the real one still signs in`, async () => {
    // With a store too: a foreign callback must not use up the flow's state either.
    for (const store of [false, true]) {
      const { mock, browser } = twoProviderBrowser(store);
      const callback = await pendingCallback(browser, mock);
      const forged = await browser.get(forge(callback));
      assert.notEqual(forged.status, 500);
      assertNoSession(forged);
      assertFlowCookiesKept(forged);
      const real = await browser.get(pathOf(callback));
      assert.equal(real.headers.get("Location"), "/home", `store: ${store}`);
      assert.ok(setCookies(real).has(SESSION_COOKIE));
      assertFlowCookiesCleared(real);
    }
  });
}

Deno.test("a callback without any flow cookies sets and clears no flow cookie", async () => {
  const { mock, browser } = twoProviderBrowser();
  const response = await browser.get(pathOf(await pendingCallback(browser, mock)), { Cookie: "" });
  await assertBadRequest(response);
  assertFlowCookiesKept(response);
});

Deno.test("a callback with a forged flow cookie is refused and clears nothing", async () => {
  const { mock, browser } = twoProviderBrowser();
  const callback = await pendingCallback(browser, mock);
  browser.cookies.set("service-stack.redirect_to", "forged");
  const response = await browser.get(pathOf(callback));
  await assertBadRequest(response);
  assertFlowCookiesKept(response);
  assert.equal(tokenRequests(mock), 0);
});

// Query parameters of /signIn never reach the provider

const FLOW_PARAMS: Record<string, (url: URL, mock: MockProvider) => void> = {
  state: (url) => assert.match(url.searchParams.get("state")!, /^[A-Za-z0-9_-]{43}$/),
  code_challenge: (url) => assert.match(url.searchParams.get("code_challenge")!, /^[\w-]{43}$/),
  code_challenge_method: (url) =>
    assert.equal(url.searchParams.get("code_challenge_method"), "S256"),
  redirect_uri: (url) =>
    assert.equal(url.searchParams.get("redirect_uri"), `${ORIGIN}/auth/callback/mock`),
  client_id: (url, mock) => assert.equal(url.searchParams.get("client_id"), mock.provider.clientId),
  response_type: (url) => assert.equal(url.searchParams.get("response_type"), "code"),
};

for (const [name, check] of Object.entries(FLOW_PARAMS)) {
  Deno.test(`a ${name} query parameter on /signIn never overrides the flow's`, async () => {
    const { mock, browser } = setupMock();
    const url = await startSignIn(
      browser,
      "mock",
      `?${name}=${encodeURIComponent("https://evil.example/x")}`,
    );
    assert.equal(url.searchParams.getAll(name).length, 1);
    assert.notEqual(url.searchParams.get(name), "https://evil.example/x");
    check(url, mock);
    const response = await browser.get(pathOf(await authorizeAt(mock, url)));
    assert.equal(response.headers.get("Location"), "/");
  });
}

Deno.test("a flow cookie sent to GET /session does not start a session in the response", async () => {
  const { browser } = setupMock();
  await startSignIn(browser, "mock");
  const response = await getSession(browser);
  assert.equal(await response.json(), null);
  assert.equal(setCookies(response).has(SESSION_COOKIE), false);
});
