// The status table of DECISIONS ("HTTP contract") for the non-OAuth causes,
// and the success table, through the handlers called as functions.
import assert from "node:assert/strict";
import { AuthError } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import {
  ADA,
  assertError,
  assertNoSession,
  Browser,
  Clock,
  makeAuth,
  ORIGIN,
  setCookieLine,
  setCookieValue,
} from "./_helpers.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";
const TRUSTED = "https://trusted.example.com";

/** A browser that is signed in, with a CSRF token bound to its session. */
async function signedIn(auth = makeAuth()): Promise<{ browser: Browser; csrf: string }> {
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  return { browser, csrf: browser.cookies.get(CSRF)! };
}

/** A browser with a CSRF token (no session). */
async function withCsrf(auth = makeAuth()): Promise<{ browser: Browser; csrf: string }> {
  const browser = new Browser(auth.handlers.ALL);
  return { browser, csrf: await browser.csrf() };
}

function post(browser: Browser, path: string, csrf: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("Cookie", browser.cookieHeader());
  headers.set("X-CSRF-Token", csrf);
  return browser.handler(
    new Request(`${ORIGIN}${path}`, { method: "POST", ...init, headers }),
  );
}

// --- 400 invalid_request ---------------------------------------------------

Deno.test("malformed JSON is 400 invalid_request", async () => {
  const { browser, csrf } = await withCsrf();
  const response = await post(browser, "/auth/signIn/credentials", csrf, {
    body: '{"username": "ada", ',
    headers: { "Content-Type": "application/json" },
  });
  await assertError(response, 400, "invalid_request");
});

Deno.test("a JSON body that is not an object is 400 invalid_request", async () => {
  const { browser, csrf } = await withCsrf();
  for (const body of ["[]", '"ada"', "null", "42"]) {
    const response = await post(browser, "/auth/signIn/credentials", csrf, {
      body,
      headers: { "Content-Type": "application/json" },
    });
    await assertError(response, 400, "invalid_request");
  }
});

Deno.test("a missing credentials field is 400 invalid_request", async () => {
  const { browser, csrf } = await withCsrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada" },
    headers: { "X-CSRF-Token": csrf },
  });
  await assertError(response, 400, "invalid_request");
});

Deno.test("a credentials field of the wrong type is 400 invalid_request", async () => {
  const { browser, csrf } = await withCsrf();
  for (const json of [{ username: 1, password: "x" }, { username: "ada", password: ["x"] }]) {
    const response = await browser.fetch("POST", "/auth/signIn/credentials", {
      json,
      headers: { "X-CSRF-Token": csrf },
    });
    await assertError(response, 400, "invalid_request");
  }
});

Deno.test("an unknown provider id is 400 invalid_request on sign-in and callback", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  for (const path of ["/auth/signIn/nope", "/auth/callback/nope?code=a&state=b"]) {
    await assertError(
      await auth.handlers.ALL(new Request(`${ORIGIN}${path}`)),
      400,
      "invalid_request",
    );
  }
});

Deno.test("an untrusted redirectTo is 400 invalid_redirect_to on every redirecting route", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const { browser, csrf } = await signedIn(auth);
  const query = `?redirect=true&redirectTo=${encodeURIComponent("https://evil.example/x")}`;
  const routes: [string, string, RequestInit][] = [
    ["GET", "/auth/signIn/mock", {}],
    ["POST", "/auth/signIn/credentials", {
      body: JSON.stringify({ username: "ada", password: "correct horse" }),
    }],
    ["POST", "/auth/signUp", {}],
    ["PATCH", "/auth/session", { body: JSON.stringify({ user: { name: "A" } }) }],
    ["POST", "/auth/session", { body: JSON.stringify({ user: { name: "A" } }) }],
    ["POST", "/auth/signOut", {}],
  ];
  for (const [method, path, init] of routes) {
    const headers = new Headers({ Cookie: browser.cookieHeader(), "X-CSRF-Token": csrf });
    if (init.body) headers.set("Content-Type", "application/json");
    const response = await auth.handlers.ALL(
      new Request(`${ORIGIN}${path}${query}`, { method, headers, body: init.body }),
    );
    assert.equal(response.headers.get("Location"), null, `${method} ${path} redirected`);
    await assertError(response, 400, "invalid_redirect_to");
  }
});

Deno.test("an over-long redirectTo is 400 invalid_redirect_to, never a 500", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  for (const target of [`/${"a".repeat(20_000)}`, `/${"\u00e9".repeat(2_000)}`]) {
    const query = `?redirectTo=${encodeURIComponent(target)}`;
    const response = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/signIn/mock${query}`));
    await assertError(response, 400, "invalid_redirect_to");
  }
});

Deno.test("the flow cookies for the longest accepted redirectTo stay under 4096 bytes", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  let longest = 0;
  for (const length of [100, 1000, 1500, 2000, 3000]) {
    const target = `/${"a".repeat(length - 1)}`;
    const response = await auth.handlers.ALL(
      new Request(`https://app.example.com/auth/signIn/mock?redirectTo=${target}`),
    );
    if (response.status !== 302) continue;
    longest = length;
    for (const line of response.headers.getSetCookie()) assert.ok(line.length < 4096, `${length}`);
  }
  assert.ok(longest >= 1000, "a 1000-character redirectTo must be accepted");
});

Deno.test("an over-long Referer is ignored: the flow lands on /", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/signIn/mock`, {
      headers: { Referer: `${ORIGIN}/${"a".repeat(20_000)}` },
    }),
  );
  assert.equal(response.status, 302);
  assert.ok(response.headers.getSetCookie().every((line) => line.length < 4096));
});

// --- 401 ---------------------------------------------------------------------

Deno.test("a wrong password is 401 access_denied", async () => {
  const { browser, csrf } = await withCsrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "wrong horse" },
    headers: { "X-CSRF-Token": csrf },
  });
  await assertError(response, 401, "access_denied");
  assert.equal(setCookieValue(response, SESSION), undefined);
});

Deno.test("GET /session without a session cookie is 200 null", async () => {
  const auth = makeAuth();
  const response = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/session`));
  await assertNoSession(response);
  assert.deepEqual(response.headers.getSetCookie(), []);
});

Deno.test("GET /session with an expired session is 200 null", async () => {
  const clock = new Clock();
  const auth = makeAuth({ clock: clock.fn, session: { maxAge: 3600, updateAge: 600 } });
  const { browser } = await signedIn(auth);
  clock.advance(3601);
  await assertNoSession(await browser.fetch("GET", "/auth/session"));
});

Deno.test("GET /session with a tampered session token is 200 null", async () => {
  const { browser } = await signedIn();
  const token = browser.cookies.get(SESSION)!;
  const index = Math.floor(token.length / 2);
  const flipped = token[index] === "A" ? "B" : "A";
  browser.cookies.set(SESSION, token.slice(0, index) + flipped + token.slice(index + 1));
  await assertNoSession(await browser.fetch("GET", "/auth/session"));
});

Deno.test("PATCH /session with a valid CSRF token but no session is 401 invalid_session_token", async () => {
  const { browser, csrf } = await withCsrf();
  const response = await browser.fetch("PATCH", "/auth/session", {
    json: { user: { name: "Eve" } },
    headers: { "X-CSRF-Token": csrf },
  });
  await assertError(response, 401, "invalid_session_token");
});

// --- 403 ---------------------------------------------------------------------

Deno.test("a mutation without a CSRF token is 403 invalid_csrf_token", async () => {
  const { browser } = await signedIn();
  const response = await browser.fetch("POST", "/auth/signOut");
  await assertError(response, 403, "invalid_csrf_token");
});

Deno.test("a request from an untrusted Origin is 403 access_denied", async () => {
  const { browser, csrf } = await signedIn();
  const response = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": csrf, Origin: "https://evil.example" },
  });
  await assertError(response, 403, "access_denied");
  assert.equal(response.headers.get("Access-Control-Allow-Origin"), null);
});

// --- 404 ---------------------------------------------------------------------

Deno.test("credentials sign-in without credentials.authorize is 404", async () => {
  const auth = makeAuth({ credentials: undefined });
  const { browser, csrf } = await withCsrf(auth);
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse" },
    headers: { "X-CSRF-Token": csrf },
  });
  await assertError(response, 404, "invalid_request");
});

Deno.test("sign-up without signUp.onCreateUser is 404", async () => {
  const auth = makeAuth({ signUp: undefined });
  const { browser, csrf } = await withCsrf(auth);
  const response = await browser.fetch("POST", "/auth/signUp", {
    json: {},
    headers: { "X-CSRF-Token": csrf },
  });
  await assertError(response, 404, "invalid_request");
});

Deno.test("an unconfigured feature is 404 for every method, never 405", async () => {
  const auth = makeAuth({ credentials: undefined, signUp: undefined });
  for (const path of ["/auth/signIn/credentials", "/auth/signUp"]) {
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const response = await auth.handlers.ALL(new Request(`${ORIGIN}${path}`, { method }));
      assert.equal(response.headers.get("Allow"), null, `${method} ${path}`);
      await assertError(response, 404, "invalid_request");
    }
  }
  const configured = await makeAuth().handlers.ALL(
    new Request(`${ORIGIN}/auth/signIn/credentials`, { method: "GET" }),
  );
  assert.equal(configured.headers.get("Allow"), "POST");
  await assertError(configured, 405, "invalid_request");
});

Deno.test("unknown routes are 404, also near-misses of known ones", async () => {
  const auth = makeAuth();
  const paths = [
    "/auth/nope",
    "/auth",
    "/auth/",
    "/auth/session/",
    "/auth//session",
    "/auth/session%2F",
    "/auth/%73ession",
    "/auth/Session",
    "/authsession",
    "/other/session",
    "/auth/signIn",
    "/auth/signIn/",
    "/auth/signIn/a/b",
    "/auth/callback",
  ];
  for (const path of paths) {
    const response = await auth.handlers.ALL(new Request(`${ORIGIN}${path}`));
    await assertError(response, 404, "invalid_request");
  }
});

// --- 405 ---------------------------------------------------------------------

Deno.test("a wrong method is 405 with the exact Allow header", async () => {
  const auth = makeAuth();
  const cases: [string, string, string][] = [
    ["DELETE", "/auth/session", "GET, POST, PATCH"],
    ["PUT", "/auth/session", "GET, POST, PATCH"],
    ["POST", "/auth/csrfToken", "GET"],
    ["PATCH", "/auth/csrfToken", "GET"],
    ["GET", "/auth/signOut", "POST"],
    ["GET", "/auth/signUp", "POST"],
    ["GET", "/auth/signIn/credentials", "POST"],
    ["POST", "/auth/signIn/github", "GET"],
    ["POST", "/auth/callback/github", "GET"],
    ["HEAD", "/auth/session", "GET, POST, PATCH"],
  ];
  for (const [method, path, allow] of cases) {
    const response = await auth.handlers.ALL(new Request(`${ORIGIN}${path}`, { method }));
    assert.equal(response.headers.get("Allow"), allow, `${method} ${path}`);
    await assertError(response, 405, "invalid_request");
  }
});

Deno.test("a per-method handler answers 405 with Allow for the other methods", async () => {
  const auth = makeAuth();
  const response = await auth.handlers.GET(
    new Request(`${ORIGIN}/auth/signOut`, { method: "POST" }),
  );
  assert.equal(response.headers.get("Allow"), "POST");
  await assertError(response, 405, "invalid_request");
  const patch = await auth.handlers.PATCH(new Request(`${ORIGIN}/auth/session`));
  assert.equal(patch.headers.get("Allow"), "GET, POST, PATCH");
  await assertError(patch, 405, "invalid_request");
});

// --- 413 / 415 -----------------------------------------------------------------

Deno.test("a body over 64 KiB with Content-Length is 413", async () => {
  const { browser, csrf } = await withCsrf();
  const body = JSON.stringify({ username: "ada", password: "x".repeat(64 * 1024) });
  const request = new Request(`${ORIGIN}/auth/signIn/credentials`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "Content-Length": String(body.length),
      Cookie: browser.cookieHeader(),
      "X-CSRF-Token": csrf,
    },
  });
  assert.equal(request.headers.get("Content-Length"), String(body.length));
  await assertError(await browser.handler(request), 413, "invalid_request");
});

Deno.test("a streamed body over 64 KiB without Content-Length is 413", async () => {
  const { browser, csrf } = await withCsrf();
  const chunk = new TextEncoder().encode(`{"x":"${"y".repeat(1000)}",`);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      // Endless: the handler must stop reading at the limit.
      sent += chunk.byteLength;
      controller.enqueue(chunk);
      if (sent > 1024 * 1024) controller.close();
    },
  });
  const request = new Request(`${ORIGIN}/auth/signIn/credentials`, {
    method: "POST",
    body: stream,
    headers: {
      "Content-Type": "application/json",
      Cookie: browser.cookieHeader(),
      "X-CSRF-Token": csrf,
    },
    duplex: "half",
  } as RequestInit);
  assert.equal(request.headers.get("Content-Length"), null);
  await assertError(await browser.handler(request), 413, "invalid_request");
  assert.ok(sent < 1024 * 1024, "the handler read past the limit");
});

Deno.test("an unsupported content type is 415", async () => {
  const { browser, csrf } = await withCsrf();
  for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/xml", null]) {
    const headers: Record<string, string> = {};
    if (type !== null) headers["Content-Type"] = type;
    const response = await post(browser, "/auth/signIn/credentials", csrf, {
      body: '{"username":"ada","password":"correct horse"}',
      headers,
    });
    await assertError(response, 415, "invalid_request");
  }
});

// --- 500 and AuthError from application code ------------------------------------

Deno.test("authorize throwing a plain Error is 500 server_error with no internal detail", async () => {
  const auth = makeAuth({
    credentials: {
      authorize: () => {
        throw new Error("database at 10.0.0.7 refused user ada: secret-detail");
      },
    },
  });
  const { browser, csrf } = await withCsrf(auth);
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse" },
    headers: { "X-CSRF-Token": csrf },
  });
  const body = await assertError(response, 500, "server_error");
  assert.equal(body.error_description, "The server could not complete the request.");
  assert.equal(setCookieValue(response, SESSION), undefined);
});

Deno.test("an AuthError thrown by authorize chooses the code and status", async () => {
  const auth = makeAuth({
    credentials: {
      authorize: () => {
        throw new AuthError("temporarily_unavailable", "Sign-in is paused.", { status: 503 });
      },
    },
  });
  const { browser, csrf } = await withCsrf(auth);
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse" },
    headers: { "X-CSRF-Token": csrf },
  });
  const body = await assertError(response, 503, "temporarily_unavailable");
  assert.equal(body.error_description, "Sign-in is paused.");
});

Deno.test("an AuthError thrown by onCreateUser chooses the code and status", async () => {
  const auth = makeAuth({
    signUp: {
      onCreateUser: () => {
        throw new AuthError("invalid_request", "That username is taken.", { status: 409 });
      },
    },
  });
  const { browser, csrf } = await withCsrf(auth);
  const response = await browser.fetch("POST", "/auth/signUp", {
    json: { name: "ada" },
    headers: { "X-CSRF-Token": csrf },
  });
  const body = await assertError(response, 409, "invalid_request");
  assert.equal(body.error_description, "That username is taken.");
  assert.equal(setCookieValue(response, SESSION), undefined);
});

// --- success table ---------------------------------------------------------------

Deno.test("POST /signIn/credentials answers 200 with the Session and sets the session cookie", async () => {
  const { browser, csrf } = await withCsrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse" },
    headers: { "X-CSRF-Token": csrf },
  });
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(Object.keys(body).sort(), ["expires", "user"]);
  assert.deepEqual(body.user, ADA);
  assert.ok(setCookieValue(response, SESSION));
  assert.ok(setCookieValue(response, CSRF));
});

Deno.test("POST /signUp answers 201 with the Session and sets the session cookie", async () => {
  const { browser, csrf } = await withCsrf();
  const response = await browser.fetch("POST", "/auth/signUp", {
    headers: { "X-CSRF-Token": csrf },
  });
  assert.equal(response.status, 201);
  assert.deepEqual((await response.json()).user, { sub: "new-user", name: "New" });
  assert.ok(setCookieValue(response, SESSION));
});

Deno.test("GET /session answers 200 with exactly user and expires", async () => {
  const { browser } = await signedIn();
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(Object.keys(body).sort(), ["expires", "user"]);
  assert.deepEqual(body.user, ADA);
});

Deno.test("POST and PATCH /session answer 200 with the updated Session and a new cookie", async () => {
  const { browser, csrf } = await signedIn();
  for (const method of ["POST", "PATCH"]) {
    const before = browser.cookies.get(SESSION);
    const response = await browser.fetch(method, "/auth/session", {
      json: { user: { name: `Ada ${method}` } },
      headers: { "X-CSRF-Token": csrf },
    });
    assert.equal(response.status, 200);
    assert.deepEqual((await response.json()).user, { ...ADA, name: `Ada ${method}` });
    const after = setCookieValue(response, SESSION);
    assert.ok(after);
    assert.notEqual(after, before);
  }
});

Deno.test("GET /csrfToken answers 200 with exactly { csrfToken } and sets the same value as cookie", async () => {
  const auth = makeAuth();
  const response = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/csrfToken`));
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(Object.keys(body), ["csrfToken"]);
  assert.equal(setCookieValue(response, CSRF), body.csrfToken);
});

Deno.test("POST /signOut answers 200 { ok: true } and clears the session and CSRF cookies", async () => {
  const { browser, csrf } = await signedIn();
  const response = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": csrf },
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ok: true });
  assert.match(setCookieLine(response, SESSION)!, /; Max-Age=0;/);
  assert.match(setCookieLine(response, CSRF)!, /; Max-Age=0;/);
});

Deno.test("GET /signIn/:oauth answers 302 to the provider with the four flow cookies", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const response = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/signIn/mock`));
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get("Location")!);
  assert.equal(`${location.origin}${location.pathname}`, mock.provider.authorizeURL);
  assert.equal(location.searchParams.get("code_challenge_method"), "S256");
  assert.equal(
    location.searchParams.get("redirect_uri"),
    `${ORIGIN}/auth/callback/mock`,
  );
  for (const name of ["state", "code_verifier", "redirect_to", "redirect_uri"]) {
    assert.ok(setCookieValue(response, `service-stack.${name}`), name);
  }
});

Deno.test("GET /signIn/:oauth with redirect=false answers 200 { url } with the same cookies", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/signIn/mock?redirect=false`),
  );
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(Object.keys(body), ["url"]);
  assert.ok(body.url.startsWith(mock.provider.authorizeURL));
  assert.equal(response.headers.getSetCookie().length, 4);
});

Deno.test("GET /callback/:oauth answers 302 to the stored redirectTo with a session", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const browser = new Browser(auth.handlers.ALL);
  const start = await browser.fetch("GET", "/auth/signIn/mock?redirectTo=/welcome");
  const approved = await mock.handler(new Request(start.headers.get("Location")!));
  const callback = new URL(approved.headers.get("Location")!);
  assert.equal(callback.origin, ORIGIN);
  const response = await browser.fetch("GET", `${callback.pathname}${callback.search}`);
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/welcome");
  assert.ok(browser.cookies.has(SESSION));
  assert.equal(browser.cookies.has("service-stack.state"), false);
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.sub, "mock-user-1");
});

// --- redirect=true ---------------------------------------------------------------

Deno.test("redirect=true answers 302 with Location = redirectTo", async () => {
  const { browser, csrf } = await withCsrf();
  const response = await browser.fetch(
    "POST",
    "/auth/signIn/credentials?redirect=true&redirectTo=%2Fhome%3Ftab%3D1",
    {
      json: { username: "ada", password: "correct horse" },
      headers: { "X-CSRF-Token": csrf },
    },
  );
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/home?tab=1");
  assert.equal(response.headers.get("Cache-Control"), "no-store");
  assert.ok(setCookieValue(response, SESSION));
  assert.equal(await response.text(), "");
});

Deno.test("redirect=true with a trusted absolute redirectTo redirects there", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const { browser, csrf } = await signedIn(auth);
  const response = await browser.fetch(
    "POST",
    `/auth/signOut?redirect=true&redirectTo=${encodeURIComponent(`${TRUSTED}/bye`)}`,
    { headers: { "X-CSRF-Token": csrf } },
  );
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), `${TRUSTED}/bye`);
});

Deno.test("redirect=true without redirectTo goes to a same-origin Referer", async () => {
  const { browser, csrf } = await signedIn();
  const response = await browser.fetch("POST", "/auth/signOut?redirect=true", {
    headers: { "X-CSRF-Token": csrf, Referer: `${ORIGIN}/settings?x=1` },
  });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), `${ORIGIN}/settings?x=1`);
});

Deno.test("redirect=true without redirectTo goes to a trusted Referer", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const { browser, csrf } = await signedIn(auth);
  const response = await browser.fetch("PATCH", "/auth/session?redirect=true", {
    json: { user: { name: "A" } },
    headers: { "X-CSRF-Token": csrf, Referer: `${TRUSTED}/profile` },
  });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), `${TRUSTED}/profile`);
});

Deno.test("redirect=true with an untrusted or missing Referer goes to /", async () => {
  for (const referer of ["https://evil.example/x", "not a url", null]) {
    const { browser, csrf } = await withCsrf();
    const headers: Record<string, string> = { "X-CSRF-Token": csrf };
    if (referer !== null) headers.Referer = referer;
    const response = await browser.fetch("POST", "/auth/signUp?redirect=true", { headers });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get("Location"), "/");
  }
});

Deno.test("redirect=false and a missing redirect answer JSON even with redirectTo", async () => {
  for (const query of ["?redirect=false&redirectTo=/x", "?redirectTo=/x"]) {
    const { browser, csrf } = await withCsrf();
    const response = await browser.fetch("POST", `/auth/signUp${query}`, {
      headers: { "X-CSRF-Token": csrf },
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("Location"), null);
  }
});

Deno.test("redirect=maybe is 400 invalid_request", async () => {
  for (const value of ["maybe", "TRUE", "1", ""]) {
    const { browser, csrf } = await withCsrf();
    const response = await browser.fetch("POST", `/auth/signUp?redirect=${value}`, {
      headers: { "X-CSRF-Token": csrf },
    });
    await assertError(response, 400, "invalid_request");
  }
});

Deno.test("repeated redirect query parameters are 400 invalid_request", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  for (const query of ["?redirect=true&redirect=true", "?redirectTo=/a&redirectTo=/b"]) {
    const { browser, csrf } = await withCsrf(auth);
    const response = await browser.fetch("POST", `/auth/signUp${query}`, {
      headers: { "X-CSRF-Token": csrf },
    });
    await assertError(response, 400, "invalid_request");
    const signIn = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/signIn/mock${query}`));
    await assertError(signIn, 400, "invalid_request");
  }
});
