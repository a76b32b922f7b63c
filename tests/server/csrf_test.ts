// Every way a CSRF check can fail, the form-field variant, and the Origin
// and CORS checks that run before it.
import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { contextOf } from "../../src/create_auth.ts";
import { createHandler } from "../../src/handler.ts";
import { decodeBase64Url, encodeBase64Url } from "../../src/jose/base64url.ts";
import { assertError, Browser, Clock, makeAuth, ORIGIN } from "./_helpers.ts";

const CSRF = "service-stack.csrf_token";
const TRUSTED = "https://app.example.com";
const OTHER_SECRET = "another-secret-0123456789abcdef-0123456789abcdef";

async function signedIn(auth = makeAuth()) {
  const browser = new Browser(auth.handlers.ALL);
  assert.equal((await browser.signIn()).status, 200);
  return browser;
}

/** POST /signOut with exactly this Cookie header and X-CSRF-Token (null: not sent). */
function signOut(
  auth: ReturnType<typeof makeAuth>,
  cookie: string,
  header: string | null,
  extra: Record<string, string> = {},
): Promise<Response> {
  const headers = new Headers(extra);
  if (cookie !== "") headers.set("Cookie", cookie);
  if (header !== null) headers.set("X-CSRF-Token", header);
  return auth.handlers.ALL(new Request(`${ORIGIN}/auth/signOut`, { method: "POST", headers }));
}

Deno.test("CSRF: a header without the cookie is 403 invalid_csrf_token", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  await assertError(await signOut(auth, "", token), 403, "invalid_csrf_token");
});

Deno.test("CSRF: the cookie without the header is 403 invalid_csrf_token", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.csrf();
  await assertError(await signOut(auth, browser.cookieHeader(), null), 403, "invalid_csrf_token");
  await assertError(await signOut(auth, browser.cookieHeader(), ""), 403, "invalid_csrf_token");
});

Deno.test("CSRF: a header that differs from the cookie is 403 even when both are valid", async () => {
  const auth = makeAuth();
  const one = new Browser(auth.handlers.ALL);
  const two = new Browser(auth.handlers.ALL);
  await one.csrf();
  const other = await two.csrf();
  await assertError(await signOut(auth, one.cookieHeader(), other), 403, "invalid_csrf_token");
});

Deno.test("CSRF: a token signed with another secret is 403", async () => {
  const auth = makeAuth();
  const foreign = makeAuth({ secret: OTHER_SECRET });
  const forged = await new Browser(foreign.handlers.ALL).csrf();
  await assertError(
    await signOut(auth, `${CSRF}=${forged}`, forged),
    403,
    "invalid_csrf_token",
  );
});

Deno.test("CSRF: a token with an altered payload is 403", async () => {
  const auth = makeAuth();
  const token = await new Browser(auth.handlers.ALL).csrf();
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(new TextDecoder().decode(decodeBase64Url(payload)));
  claims.exp += 3600;
  const altered = `${header}.${
    encodeBase64Url(new TextEncoder().encode(JSON.stringify(claims)))
  }.${signature}`;
  await assertError(await signOut(auth, `${CSRF}=${altered}`, altered), 403, "invalid_csrf_token");
});

Deno.test("CSRF: an expired token is 403", async () => {
  const clock = new Clock();
  const auth = makeAuth({ clock: clock.fn });
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  clock.advance(2 * 60 * 60 + 10);
  await assertError(
    await signOut(auth, browser.cookieHeader(), token),
    403,
    "invalid_csrf_token",
  );
});

Deno.test("CSRF: a token just before its expiry still works", async () => {
  const clock = new Clock();
  const auth = makeAuth({ clock: clock.fn });
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  clock.advance(2 * 60 * 60 - 10);
  assert.equal((await signOut(auth, browser.cookieHeader(), token)).status, 200);
});

Deno.test("CSRF: a token bound to another session is 403", async () => {
  const auth = makeAuth();
  const alice = await signedIn(auth);
  const mallory = await signedIn(auth);
  const stolen = alice.cookies.get(CSRF)!;
  mallory.cookies.set(CSRF, stolen);
  await assertError(
    await signOut(auth, mallory.cookieHeader(), stolen),
    403,
    "invalid_csrf_token",
  );
});

Deno.test("CSRF: a token minted before sign-in is refused after sign-in", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  const before = await browser.csrf();
  assert.equal((await browser.signIn()).status, 200);
  assert.notEqual(browser.cookies.get(CSRF), before);
  browser.cookies.set(CSRF, before);
  await assertError(await signOut(auth, browser.cookieHeader(), before), 403, "invalid_csrf_token");
});

Deno.test("CSRF: a token bound to a session is refused once there is no session", async () => {
  const auth = makeAuth();
  const browser = await signedIn(auth);
  const bound = browser.cookies.get(CSRF)!;
  await assertError(await signOut(auth, `${CSRF}=${bound}`, bound), 403, "invalid_csrf_token");
});

Deno.test("CSRF: sign-in sets a fresh token bound to the new session that works at once", async () => {
  const auth = makeAuth();
  const browser = await signedIn(auth);
  const fresh = browser.cookies.get(CSRF)!;
  assert.equal((await signOut(auth, browser.cookieHeader(), fresh)).status, 200);
});

Deno.test("CSRF: the form field csrfToken works for form posts", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  const signIn = await browser.fetch("POST", "/auth/signIn/credentials", {
    form: { username: "ada", password: "correct horse", csrfToken: token },
  });
  assert.equal(signIn.status, 200);
  const update = await browser.fetch("POST", "/auth/session", {
    form: { name: "Ada Form", csrfToken: browser.cookies.get(CSRF)! },
  });
  assert.equal(update.status, 200);
  assert.equal((await update.json()).user.name, "Ada Form");
  const out = await browser.fetch("POST", "/auth/signOut", {
    form: { csrfToken: browser.cookies.get(CSRF)! },
  });
  assert.equal(out.status, 200);
});

Deno.test("CSRF: a wrong form field csrfToken is 403", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.csrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    form: { username: "ada", password: "correct horse", csrfToken: "nope" },
  });
  await assertError(response, 403, "invalid_csrf_token");
});

Deno.test("CSRF: a csrfToken in a JSON body or in the query is not accepted", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  const json = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse", csrfToken: token },
  });
  await assertError(json, 403, "invalid_csrf_token");
  const query = await browser.fetch("POST", `/auth/signOut?csrfToken=${token}`);
  await assertError(query, 403, "invalid_csrf_token");
});

Deno.test("CSRF: every mutating route requires it", async () => {
  const auth = makeAuth();
  const browser = await signedIn(auth);
  const routes: [string, string, unknown][] = [
    ["POST", "/auth/signIn/credentials", { username: "ada", password: "correct horse" }],
    ["POST", "/auth/signUp", {}],
    ["POST", "/auth/session", { user: { name: "x" } }],
    ["PATCH", "/auth/session", { user: { name: "x" } }],
    ["POST", "/auth/signOut", {}],
  ];
  for (const [method, path, json] of routes) {
    await assertError(await browser.fetch(method, path, { json }), 403, "invalid_csrf_token");
  }
});

// --- Origin and CORS --------------------------------------------------------------

/** A POST whose body sends its first bytes and then never ends. */
function stalledPost(path: string, type: string, headers: Record<string, string>): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        new TextEncoder().encode(type.includes("json") ? '{"user":' : "csrfToken="),
      );
    },
  });
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": type, ...headers },
    body,
  });
}

/** Rejects when `promise` has not settled within `ms`: a held response fails the test. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("CSRF: a form post with no CSRF cookie is 403 at once, before its never-ending body", async () => {
  const auth = makeAuth();
  for (
    const path of ["/auth/signIn/credentials", "/auth/signOut", "/auth/signUp", "/auth/session"]
  ) {
    for (const headers of [{}, { "X-CSRF-Token": "forged" }] as Record<string, string>[]) {
      const request = stalledPost(path, "application/x-www-form-urlencoded", headers);
      // The default 10 s body deadline never comes into play: the answer is immediate.
      await assertError(await within(1_000, auth.handlers.ALL(request)), 403, "invalid_csrf_token");
    }
  }
});

Deno.test("CSRF: with the cookie, a body that never ends is answered 408 after the body deadline", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  const cookie = browser.cookieHeader();
  const handler = createHandler({ ...contextOf(auth), bodyTimeoutMs: 50 });
  const cases = [
    // The form body is read first to find its csrfToken field.
    stalledPost("/auth/signIn/credentials", "application/x-www-form-urlencoded", {
      Cookie: cookie,
    }),
    // The header passes the CSRF check; the route's own body read stalls.
    stalledPost("/auth/signIn/credentials", "application/json", {
      Cookie: cookie,
      "X-CSRF-Token": token,
    }),
  ];
  for (const request of cases) {
    const started = performance.now();
    await assertError(await within(1_000, handler(request)), 408, "invalid_request");
    assert.ok(performance.now() - started < 1_000);
  }
});

Deno.test("Origin: an untrusted Origin is refused with 403 access_denied before the CSRF check", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const browser = await signedIn(auth);
  for (const origin of ["https://evil.example", "null", "https://app.example.com.evil.example"]) {
    const withoutCsrf = await signOut(auth, browser.cookieHeader(), null, { Origin: origin });
    await assertError(withoutCsrf, 403, "access_denied");
    const withCsrf = await signOut(auth, browser.cookieHeader(), browser.cookies.get(CSRF)!, {
      Origin: origin,
    });
    await assertError(withCsrf, 403, "access_denied");
  }
  // The session survived every refused attempt.
  assert.equal((await browser.fetch("GET", "/auth/session")).status, 200);
});

Deno.test("Origin: a trusted origin gets Access-Control-Allow-Origin, -Credentials and Vary: Origin", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const browser = await signedIn(auth);
  const response = await browser.fetch("GET", "/auth/session", { headers: { Origin: TRUSTED } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("Access-Control-Allow-Origin"), TRUSTED);
  assert.equal(response.headers.get("Access-Control-Allow-Credentials"), "true");
  assert.equal(response.headers.get("Vary"), "Origin");
});

Deno.test("Origin: a refused origin gets Vary: Origin and no CORS grant", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/session`, { headers: { Origin: "https://evil.example" } }),
  );
  assert.equal(response.headers.get("Vary"), "Origin");
  assert.equal(response.headers.get("Access-Control-Allow-Origin"), null);
  assert.equal(response.headers.get("Access-Control-Allow-Credentials"), null);
});

Deno.test("Origin: the request's own origin needs no CORS headers", async () => {
  const auth = makeAuth();
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/csrfToken`, { headers: { Origin: ORIGIN } }),
  );
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("Access-Control-Allow-Origin"), null);
  assert.equal(response.headers.get("Vary"), null);
});

Deno.test("OPTIONS: a preflight from a trusted origin is 204 with the allowed methods and headers", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/session`, {
      method: "OPTIONS",
      headers: {
        Origin: TRUSTED,
        "Access-Control-Request-Method": "PATCH",
        "Access-Control-Request-Headers": "content-type, x-csrf-token",
      },
    }),
  );
  assert.equal(response.status, 204);
  assert.deepEqual([...response.headers], [
    ["access-control-allow-credentials", "true"],
    ["access-control-allow-headers", "Content-Type, X-CSRF-Token, Authorization"],
    ["access-control-allow-methods", "GET, POST, PATCH"],
    ["access-control-allow-origin", TRUSTED],
    ["access-control-max-age", "600"],
    ["vary", "Origin"],
    ["x-content-type-options", "nosniff"],
  ]);
  assert.equal(await response.text(), "");
});

Deno.test("OPTIONS: a preflight from an untrusted origin is 403 access_denied", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/signOut`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    }),
  );
  await assertError(response, 403, "access_denied");
  assert.equal(response.headers.get("Access-Control-Allow-Methods"), null);
});

Deno.test("OPTIONS: an unknown path is 404 even from a trusted origin", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/nope`, { method: "OPTIONS", headers: { Origin: TRUSTED } }),
  );
  await assertError(response, 404, "invalid_request");
});

Deno.test("Origin: a trustedOrigins function decides per request", async () => {
  const auth = createAuth({
    oauth: [],
    secret: "function-secret-0123456789abcdef-0123456789",
    env: {},
    logger: false,
    trustedOrigins: (request) =>
      new URL(request.url).hostname === "localhost" ? ["https://dev.example"] : [],
  });
  const trusted = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/csrfToken`, { headers: { Origin: "https://dev.example" } }),
  );
  assert.equal(trusted.status, 200);
  const refused = await auth.handlers.ALL(
    new Request("http://prod.internal/auth/csrfToken", {
      headers: { Origin: "https://dev.example" },
    }),
  );
  await assertError(refused, 403, "access_denied");
});
