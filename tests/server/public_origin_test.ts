// The service's own origin: `baseURL` (or env URL) decides it alone; without
// it, the request URL does, or the nearest trusted proxy's element.
import assert from "node:assert/strict";
import { createMockProvider } from "../../testing.ts";
import { assertError, Browser, makeAuth } from "./_helpers.ts";

const PUBLIC = "https://app.example.com";

function redirectURI(response: Response): string | null {
  return new URL(response.headers.get("Location")!).searchParams.get("redirect_uri");
}

function withMock(overrides: Parameters<typeof makeAuth>[0] = {}) {
  const mock = createMockProvider();
  return makeAuth({ oauth: [mock.provider], fetch: mock.fetch, ...overrides });
}

Deno.test("baseURL: a hostile Host never reaches redirect_uri", async () => {
  const auth = withMock({ baseURL: PUBLIC });
  for (
    const host of ["http://evil.example", "http://localhost:3000", "https://app.example.com.evil"]
  ) {
    const response = await auth.handlers.ALL(new Request(`${host}/auth/signIn/mock`));
    assert.equal(response.status, 302);
    assert.equal(redirectURI(response), `${PUBLIC}/auth/callback/mock`);
  }
});

Deno.test("baseURL: proxy headers never change the origin, even when trusted", async () => {
  const auth = withMock({ baseURL: PUBLIC, trustedProxyHeaders: true });
  const response = await auth.handlers.ALL(
    new Request("http://internal:8080/auth/signIn/mock", {
      headers: {
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "http",
        Forwarded: "host=evil.example;proto=http",
      },
    }),
  );
  assert.equal(redirectURI(response), `${PUBLIC}/auth/callback/mock`);
});

Deno.test("baseURL https: cookies are __Host- and Secure although the app sees http://localhost", async () => {
  const auth = makeAuth({ baseURL: PUBLIC });
  const response = await auth.handlers.ALL(new Request("http://localhost:3000/auth/csrfToken"));
  const line = response.headers.getSetCookie()[0];
  assert.match(line, /^__Host-service-stack\.csrf_token=/);
  assert.match(line, /; Secure/);
});

Deno.test("baseURL: a POST from the public origin passes the Origin check behind a rewriting host (Next.js)", async () => {
  const auth = makeAuth({ baseURL: PUBLIC });
  // Next.js reports request.url as localhost; the browser sends the public Origin.
  const browser = new Browser(auth.handlers.ALL, "http://localhost:3000");
  const csrf = await browser.fetch("GET", "/auth/csrfToken");
  const { csrfToken } = await csrf.json();
  const cookie = browser.cookieHeader();
  const response = await auth.handlers.ALL(
    new Request("http://localhost:3000/auth/signIn/credentials", {
      method: "POST",
      headers: {
        Origin: PUBLIC,
        Cookie: cookie,
        "X-CSRF-Token": csrfToken,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ username: "ada", password: "correct horse" }),
    }),
  );
  assert.equal(response.status, 200);
});

Deno.test("baseURL: the request's own host is no longer same-origin", async () => {
  const auth = makeAuth({ baseURL: PUBLIC });
  const response = await auth.handlers.ALL(
    new Request("http://evil.example/auth/csrfToken", {
      headers: { Origin: "http://evil.example" },
    }),
  );
  await assertError(response, 403, "access_denied");
});

Deno.test("baseURL: a redirectTo on the request's host is not on the service's origin", async () => {
  const auth = withMock({ baseURL: PUBLIC });
  const refused = await auth.handlers.ALL(
    new Request("http://evil.example/auth/signIn/mock?redirectTo=http://evil.example/x"),
  );
  await assertError(refused, 400, "invalid_redirect_to");
  const allowed = await auth.handlers.ALL(
    new Request(`http://evil.example/auth/signIn/mock?redirectTo=${PUBLIC}/x`),
  );
  assert.equal(allowed.status, 302);
});

Deno.test("baseURL from the environment (AUTH_URL) works like the option, and the option wins", async () => {
  const fromEnv = withMock({ env: { AUTH_URL: PUBLIC } });
  const response = await fromEnv.handlers.ALL(new Request("http://localhost/auth/signIn/mock"));
  assert.equal(redirectURI(response), `${PUBLIC}/auth/callback/mock`);
  const both = withMock({ env: { AUTH_URL: "https://other.example" }, baseURL: PUBLIC });
  const second = await both.handlers.ALL(new Request("http://localhost/auth/signIn/mock"));
  assert.equal(redirectURI(second), `${PUBLIC}/auth/callback/mock`);
});

Deno.test("baseURL that is not a bare origin throws a TypeError at createAuth", () => {
  for (
    const bad of [
      "https://app.example.com/auth",
      "https://app.example.com?x=1",
      "https://app.example.com#x",
      "https://user:pw@app.example.com",
      "ftp://app.example.com",
      "app.example.com",
      "",
    ]
  ) {
    assert.throws(() => makeAuth({ baseURL: bad }), TypeError, bad);
  }
  assert.throws(() => makeAuth({ env: { AUTH_URL: "https://a.example/path" } }), TypeError);
  makeAuth({ baseURL: "https://app.example.com/" });
});

Deno.test("without baseURL, the request's Host decides and proxy headers are ignored", async () => {
  const auth = withMock();
  const response = await auth.handlers.ALL(
    new Request("http://localhost:8000/auth/signIn/mock", {
      headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
    }),
  );
  assert.equal(redirectURI(response), "http://localhost:8000/auth/callback/mock");
});

Deno.test("trusted proxy headers: redirect_uri uses the element the proxy appended, not the client's", async () => {
  const auth = withMock({ trustedProxyHeaders: true });
  const cases: Record<string, string>[] = [
    { "X-Forwarded-Host": "evil.example, app.example.com", "X-Forwarded-Proto": "http, https" },
    { Forwarded: "host=evil.example;proto=https, host=app.example.com;proto=https" },
  ];
  for (const headers of cases) {
    const response = await auth.handlers.ALL(
      new Request("http://internal:8080/auth/signIn/mock", { headers }),
    );
    assert.equal(redirectURI(response), `${PUBLIC}/auth/callback/mock`);
  }
});
