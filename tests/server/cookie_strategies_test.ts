// Cookie strategies and attributes as exact Set-Cookie lines, produced by the
// handlers. A fixed clock makes Expires deterministic.
import assert from "node:assert/strict";
import { createMockProvider } from "../../testing.ts";
import { type AuthConfig, createAuth } from "../../mod.ts";
import { Browser, Clock, HTTPS_ORIGIN, makeAuth, ORIGIN, SECRET } from "./_helpers.ts";

const START = Date.UTC(2026, 0, 1); // Thu, 01 Jan 2026 00:00:00 GMT
const IN_30_DAYS = "Sat, 31 Jan 2026 00:00:00 GMT";
const IN_2_HOURS = "Thu, 01 Jan 2026 02:00:00 GMT";
const IN_10_MINUTES = "Thu, 01 Jan 2026 00:10:00 GMT";
const EPOCH = "Thu, 01 Jan 1970 00:00:00 GMT";
const TOKEN = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*){2,4}$/;

/** Set-Cookie lines with each non-empty value checked as a JOSE token and replaced by `<token>`. */
function lines(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => {
    const eq = line.indexOf("=");
    const end = line.indexOf(";");
    const value = line.slice(eq + 1, end);
    if (value === "") return line;
    assert.match(value, TOKEN);
    return `${line.slice(0, eq)}=<token>${line.slice(end)}`;
  });
}

function instance(overrides: Partial<AuthConfig> = {}) {
  const clock = new Clock(START);
  const mock = createMockProvider();
  return makeAuth({ clock: clock.fn, oauth: [mock.provider], fetch: mock.fetch, ...overrides });
}

async function signInLines(handler: Browser["handler"], origin: string): Promise<string[]> {
  const browser = new Browser(handler, origin);
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  return lines(response);
}

Deno.test("over HTTP the session and CSRF cookies use the standard strategy: no prefix, no Secure", async () => {
  const auth = instance();
  assert.deepEqual(await signInLines(auth.handlers.ALL, ORIGIN), [
    `service-stack.session_token=<token>; Path=/; Max-Age=2592000; Expires=${IN_30_DAYS}; HttpOnly; SameSite=Lax`,
    `service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("over HTTPS every cookie is __Host- with Path=/ and no Domain", async () => {
  const auth = instance();
  assert.deepEqual(await signInLines(auth.handlers.ALL, HTTPS_ORIGIN), [
    `__Host-service-stack.session_token=<token>; Path=/; Max-Age=2592000; Expires=${IN_30_DAYS}; Secure; HttpOnly; SameSite=Lax`,
    `__Host-service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; Secure; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("GET /csrfToken sets exactly one CSRF cookie line per scheme", async () => {
  const auth = instance();
  const http = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/csrfToken`));
  assert.deepEqual(lines(http), [
    `service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; HttpOnly; SameSite=Strict`,
  ]);
  const https = await auth.handlers.ALL(new Request(`${HTTPS_ORIGIN}/auth/csrfToken`));
  assert.deepEqual(lines(https), [
    `__Host-service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; Secure; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("the OAuth flow cookies live 10 minutes, Lax, __Host- over HTTPS only", async () => {
  const auth = instance();
  const names = ["state", "code_verifier", "redirect_to", "redirect_uri"];
  const http = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/signIn/mock`));
  assert.deepEqual(
    lines(http),
    names.map((name) =>
      `service-stack.${name}=<token>; Path=/; Max-Age=600; Expires=${IN_10_MINUTES}; HttpOnly; SameSite=Lax`
    ),
  );
  const https = await auth.handlers.ALL(new Request(`${HTTPS_ORIGIN}/auth/signIn/mock`));
  assert.deepEqual(
    lines(https),
    names.map((name) =>
      `__Host-service-stack.${name}=<token>; Path=/; Max-Age=600; Expires=${IN_10_MINUTES}; Secure; HttpOnly; SameSite=Lax`
    ),
  );
});

Deno.test("sign-out clears with the same name, Path and Secure as the cookie it removes", async () => {
  const auth = instance();
  for (
    const [origin, session, csrf, secure] of [
      [ORIGIN, "service-stack.session_token", "service-stack.csrf_token", ""],
      [
        HTTPS_ORIGIN,
        "__Host-service-stack.session_token",
        "__Host-service-stack.csrf_token",
        "; Secure",
      ],
    ]
  ) {
    const browser = new Browser(auth.handlers.ALL, origin);
    await browser.signIn();
    const response = await browser.fetch("POST", "/auth/signOut", {
      headers: { "X-CSRF-Token": browser.cookies.get(csrf)! },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(lines(response), [
      `${session}=; Path=/; Max-Age=0; Expires=${EPOCH}${secure}; HttpOnly; SameSite=Lax`,
      `${csrf}=; Path=/; Max-Age=0; Expires=${EPOCH}${secure}; HttpOnly; SameSite=Strict`,
    ]);
  }
});

Deno.test("cookies.prefix replaces service-stack in every name, under the strategy prefixes", async () => {
  const auth = instance({ cookies: { prefix: "app" } });
  assert.deepEqual(await signInLines(auth.handlers.ALL, ORIGIN), [
    `app.session_token=<token>; Path=/; Max-Age=2592000; Expires=${IN_30_DAYS}; HttpOnly; SameSite=Lax`,
    `app.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; HttpOnly; SameSite=Strict`,
  ]);
  assert.deepEqual(await signInLines(auth.handlers.ALL, HTTPS_ORIGIN), [
    `__Host-app.session_token=<token>; Path=/; Max-Age=2592000; Expires=${IN_30_DAYS}; Secure; HttpOnly; SameSite=Lax`,
    `__Host-app.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; Secure; HttpOnly; SameSite=Strict`,
  ]);
  const flow = await auth.handlers.ALL(new Request(`${HTTPS_ORIGIN}/auth/signIn/mock`));
  assert.ok(lines(flow).every((line) => line.startsWith("__Host-app.")));
});

Deno.test("cookies.overrides change a cookie's name and attributes", async () => {
  const auth = instance({
    cookies: {
      overrides: {
        sessionToken: {
          name: "sid",
          attributes: { domain: "example.com", sameSite: "strict", priority: "high" },
        },
        csrfToken: { name: "xsrf", attributes: { strategy: "standard", partitioned: true } },
      },
    },
  });
  assert.deepEqual(await signInLines(auth.handlers.ALL, HTTPS_ORIGIN), [
    `__Secure-service-stack.sid=<token>; Path=/; Domain=example.com; Max-Age=2592000; Expires=${IN_30_DAYS}; Secure; HttpOnly; SameSite=Strict; Priority=High`,
    `service-stack.xsrf=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; Secure; HttpOnly; SameSite=Strict; Partitioned`,
  ]);
  // Over HTTP: no prefix, no Secure, no Partitioned; the other attributes stay.
  assert.deepEqual(await signInLines(auth.handlers.ALL, ORIGIN), [
    `service-stack.sid=<token>; Path=/; Domain=example.com; Max-Age=2592000; Expires=${IN_30_DAYS}; HttpOnly; SameSite=Strict; Priority=High`,
    `service-stack.xsrf=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("an overridden session cookie name is the one read back", async () => {
  const auth = instance({ cookies: { overrides: { sessionToken: { name: "sid" } } } });
  const browser = new Browser(auth.handlers.ALL, HTTPS_ORIGIN);
  await browser.signIn();
  assert.ok(browser.cookies.has("__Host-service-stack.sid"));
  assert.equal((await browser.fetch("GET", "/auth/session")).status, 200);
});

Deno.test("trustedProxyHeaders: true with X-Forwarded-Proto: https switches to the secure names", async () => {
  const auth = instance({ trustedProxyHeaders: true });
  const handler = (request: Request) => {
    const headers = new Headers(request.headers);
    headers.set("X-Forwarded-Proto", "https");
    return auth.handlers.ALL(new Request(request, { headers }));
  };
  assert.deepEqual(await signInLines(handler, "http://internal:8080"), [
    `__Host-service-stack.session_token=<token>; Path=/; Max-Age=2592000; Expires=${IN_30_DAYS}; Secure; HttpOnly; SameSite=Lax`,
    `__Host-service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; Secure; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("trustedProxyHeaders: true with Forwarded proto=https switches to the secure names", async () => {
  const auth = instance({ trustedProxyHeaders: true });
  const response = await auth.handlers.ALL(
    new Request("http://internal:8080/auth/csrfToken", {
      headers: { Forwarded: "for=203.0.113.7;proto=https;host=app.example.com" },
    }),
  );
  assert.deepEqual(lines(response), [
    `__Host-service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; Secure; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("trustedProxyHeaders: false ignores X-Forwarded-Proto and Forwarded", async () => {
  const auth = instance();
  const response = await auth.handlers.ALL(
    new Request("http://internal:8080/auth/csrfToken", {
      headers: { "X-Forwarded-Proto": "https", Forwarded: "proto=https" },
    }),
  );
  assert.deepEqual(lines(response), [
    `service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("trustedProxyHeaders: true with X-Forwarded-Proto: http downgrades an https URL", async () => {
  const auth = instance({ trustedProxyHeaders: true });
  const response = await auth.handlers.ALL(
    new Request(`${HTTPS_ORIGIN}/auth/csrfToken`, { headers: { "X-Forwarded-Proto": "http" } }),
  );
  assert.deepEqual(lines(response), [
    `service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=${IN_2_HOURS}; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("Expires follows the clock of each response", async () => {
  const clock = new Clock(START);
  const auth = createAuth({ oauth: [], secret: SECRET, env: {}, logger: false, clock: clock.fn });
  clock.advance(24 * 60 * 60);
  const response = await auth.handlers.ALL(new Request(`${ORIGIN}/auth/csrfToken`));
  assert.deepEqual(lines(response), [
    "service-stack.csrf_token=<token>; Path=/; Max-Age=7200; Expires=Fri, 02 Jan 2026 02:00:00 GMT; HttpOnly; SameSite=Strict",
  ]);
});
