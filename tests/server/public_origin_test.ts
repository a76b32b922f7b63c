// The service's own origin: `baseURL` (or env URL) decides it alone; without
// it, the request URL does, or the nearest trusted proxy's element.
import assert from "node:assert/strict";
import type { LogEntry } from "../../mod.ts";
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
  const cases: [Parameters<typeof makeAuth>[0], Record<string, string>][] = [
    [
      { trustedProxyHeaders: "x-forwarded" },
      { "X-Forwarded-Host": "evil.example, app.example.com", "X-Forwarded-Proto": "http, https" },
    ],
    [
      { trustedProxyHeaders: "forwarded" },
      { Forwarded: "host=evil.example;proto=https, host=app.example.com;proto=https" },
    ],
    [
      { trustedProxyHeaders: true },
      { Forwarded: "host=evil.example;proto=https, host=app.example.com;proto=https" },
    ],
  ];
  for (const [config, headers] of cases) {
    const response = await withMock(config).handlers.ALL(
      new Request("http://internal:8080/auth/signIn/mock", { headers }),
    );
    assert.equal(redirectURI(response), `${PUBLIC}/auth/callback/mock`, JSON.stringify(headers));
  }
});

// A header family the proxy does not set never decides the origin.

function logged() {
  const entries: LogEntry[] = [];
  return { entries, logger: { log: (entry: LogEntry) => entries.push(entry) } };
}

async function signInRedirectURI(
  auth: ReturnType<typeof makeAuth>,
  url: string,
  headers: Record<string, string>,
): Promise<string | null> {
  const response = await auth.handlers.ALL(new Request(`${url}/auth/signIn/mock`, { headers }));
  assert.equal(response.status, 302);
  return redirectURI(response);
}

Deno.test("true: a client's Forwarded next to the proxy's X-Forwarded-* is ignored with both, and warned once", async () => {
  const log = logged();
  const auth = withMock({ trustedProxyHeaders: true, logger: log.logger });
  const headers = {
    Forwarded: "proto=https;host=evil.example",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.7",
  };
  for (let i = 0; i < 3; i++) {
    assert.equal(
      await signInRedirectURI(auth, "http://app.example.com", headers),
      "http://app.example.com/auth/callback/mock",
    );
  }
  const warnings = log.entries.filter((entry) =>
    /both Forwarded and X-Forwarded/.test(entry.message)
  );
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].level, "warn");
});

Deno.test("true: a proxy that sets only X-Forwarded-Proto never lets a client's X-Forwarded-Host decide", async () => {
  const log = logged();
  const auth = withMock({ trustedProxyHeaders: true, logger: log.logger });
  const headers = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" };
  assert.equal(
    await signInRedirectURI(auth, "http://app.example.com", headers),
    `${PUBLIC}/auth/callback/mock`,
  );
  await signInRedirectURI(auth, "http://app.example.com", headers);
  const warnings = log.entries.filter((entry) =>
    /X-Forwarded-Host is not read/.test(entry.message)
  );
  assert.equal(warnings.length, 1);
});

Deno.test('"x-forwarded-proto": a client\'s X-Forwarded-Host or Forwarded never decides the host', async () => {
  const auth = withMock({ trustedProxyHeaders: "x-forwarded-proto" });
  for (
    const headers of [
      { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" } as Record<
        string,
        string
      >,
      { "X-Forwarded-Proto": "https", Forwarded: "host=evil.example;proto=https" },
    ]
  ) {
    assert.equal(
      await signInRedirectURI(auth, "http://app.example.com", headers),
      `${PUBLIC}/auth/callback/mock`,
    );
  }
});

Deno.test('"x-forwarded": a client\'s Forwarded header never decides anything', async () => {
  const auth = withMock({ trustedProxyHeaders: "x-forwarded" });
  const headers = {
    Forwarded: "proto=http;host=evil.example",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "app.example.com",
  };
  assert.equal(
    await signInRedirectURI(auth, "http://internal:8080", headers),
    `${PUBLIC}/auth/callback/mock`,
  );
});

Deno.test('"forwarded": a client\'s X-Forwarded-* never decides, not even the half Forwarded lacks', async () => {
  const auth = withMock({ trustedProxyHeaders: "forwarded" });
  const headers = {
    Forwarded: "for=203.0.113.7;proto=https",
    "X-Forwarded-Host": "evil.example",
    "X-Forwarded-Proto": "http",
  };
  assert.equal(
    await signInRedirectURI(auth, "http://app.example.com", headers),
    `${PUBLIC}/auth/callback/mock`,
  );
  assert.equal(
    await signInRedirectURI(auth, "http://app.example.com", { "X-Forwarded-Host": "evil.example" }),
    "http://app.example.com/auth/callback/mock",
  );
});

Deno.test("trustedProxyHeaders refuses values other than a boolean or a header family", () => {
  for (const bad of ["yes", "Forwarded", "x-forwarded-host", 1, null, ["forwarded"]]) {
    assert.throws(
      () => makeAuth({ trustedProxyHeaders: bad as never }),
      (error: unknown) =>
        error instanceof TypeError &&
        /trustedProxyHeaders is invalid; expected/.test(error.message),
      String(bad),
    );
  }
});

// Without baseURL, the Host header decides: said once per instance on a public host.

Deno.test("without baseURL, the first request on a public host logs one warning per instance", async () => {
  const log = logged();
  const auth = makeAuth({ logger: log.logger });
  for (let i = 0; i < 3; i++) {
    await auth.handlers.ALL(new Request("https://app.example.com/auth/session"));
    await auth.handlers.ALL(new Request("https://other.example.com/auth/session"));
  }
  const warnings = log.entries.filter((entry) => /no baseURL is set/.test(entry.message));
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].level, "warn");
  assert.match(warnings[0].message, /expected baseURL \(or AUTH_URL\)/);
  // Another instance warns for itself.
  const second = logged();
  await makeAuth({ logger: second.logger }).handlers.ALL(
    new Request("https://app.example.com/auth/session"),
  );
  assert.equal(second.entries.filter((entry) => /no baseURL/.test(entry.message)).length, 1);
});

Deno.test("without baseURL, loopback hosts log no warning", async () => {
  const log = logged();
  const auth = makeAuth({ logger: log.logger });
  for (
    const origin of [
      "http://localhost:8000",
      "http://127.0.0.1:3000",
      "http://[::1]:8000",
      "http://app.localhost",
    ]
  ) {
    await auth.handlers.ALL(new Request(`${origin}/auth/session`));
  }
  assert.deepEqual(log.entries.filter((entry) => /no baseURL/.test(entry.message)), []);
});

Deno.test("with baseURL or env URL, no origin warning is logged", async () => {
  for (const config of [{ baseURL: PUBLIC }, { env: { AUTH_URL: PUBLIC } }]) {
    const log = logged();
    const auth = makeAuth({ ...config, logger: log.logger });
    await auth.handlers.ALL(new Request("https://evil.example/auth/session"));
    assert.deepEqual(log.entries.filter((entry) => /baseURL/.test(entry.message)), []);
  }
});

Deno.test("without baseURL, each request's own origin and scheme decide, however requests alternate", async () => {
  const auth = withMock();
  const log = logged();
  const logging = makeAuth({ logger: log.logger });
  for (let i = 0; i < 2; i++) {
    for (
      const origin of [
        "http://localhost:8000",
        "https://localhost:8000",
        "http://127.0.0.1:8000",
        "https://127.0.0.1:8000",
      ]
    ) {
      const response = await auth.handlers.ALL(new Request(`${origin}/auth/signIn/mock`));
      assert.equal(redirectURI(response), `${origin}/auth/callback/mock`);
      const secure = response.headers.getSetCookie().every((line) => /;\s*Secure/i.test(line));
      assert.equal(secure, origin.startsWith("https:"), origin);
      await logging.handlers.ALL(new Request(`${origin}/auth/session`));
    }
  }
  assert.deepEqual(log.entries.filter((entry) => /no baseURL/.test(entry.message)), []);
  // A public host after loopback ones is still warned about.
  await logging.handlers.ALL(new Request("https://app.example.com/auth/session"));
  assert.equal(log.entries.filter((entry) => /no baseURL/.test(entry.message)).length, 1);
});
