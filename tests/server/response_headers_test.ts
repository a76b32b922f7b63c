// Response headers are built from scratch: with odd request headers sent,
// every route answers with exactly the expected set of header names and values.
import assert from "node:assert/strict";
import { createMockProvider } from "../../testing.ts";
import { Browser, makeAuth, ORIGIN } from "./_helpers.ts";
import { jsonResponse } from "../../src/http.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";
const TRUSTED = "https://app.example.com";
const JSON_TYPE = "application/json; charset=utf-8";

/** Request headers that must never come back. */
const ODD: Record<string, string> = {
  Authorization: "Bearer leaked-bearer-value",
  "X-Forwarded-Host": "evil.example",
  "X-Forwarded-Proto": "https",
  "X-Echo": "echo-me",
  "Access-Control-Request-Headers": "x-evil-header",
  "Access-Control-Request-Method": "DELETE",
  "X-Request-Id": "req-123",
  Accept: "text/html",
};

const GARBAGE_COOKIES = "tracker=abc123; other.session=zzz; weird=%%%";

/** The response's headers, Set-Cookie values reduced to `<cookie name>` or `<clear cookie name>`. */
function headerSet(response: Response): [string, string][] {
  return [...response.headers].map(([name, value]): [string, string] => {
    if (name !== "set-cookie") return [name, value];
    const cookie = value.slice(0, value.indexOf("="));
    return [name, value.includes("; Max-Age=0;") ? `<clear ${cookie}>` : `<${cookie}>`];
  }).sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1);
}

/** The expected set: the given headers plus `nosniff`, which every response carries. */
function expected(...entries: [string, string][]): [string, string][] {
  return [...entries, ["x-content-type-options", "nosniff"] as [string, string]].sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1
  );
}

async function setup() {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch, trustedOrigins: [TRUSTED] });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  return { auth, browser };
}

/** Sends a request with the odd headers, the browser's cookies plus garbage ones, and CSRF. */
function send(
  browser: Browser,
  method: string,
  path: string,
  init: { json?: unknown; origin?: string; cookies?: boolean } = {},
): Promise<Response> {
  const headers = new Headers(ODD);
  const own = init.cookies === false ? "" : `${browser.cookieHeader()}; `;
  headers.set("Cookie", `${own}${GARBAGE_COOKIES}`);
  const csrf = browser.cookies.get(CSRF);
  if (csrf) headers.set("X-CSRF-Token", csrf);
  if (init.origin) headers.set("Origin", init.origin);
  let body: string | undefined;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  return browser.handler(new Request(`${ORIGIN}${path}`, { method, headers, body }));
}

const BASE: [string, string][] = [["cache-control", "no-store"], ["content-type", JSON_TYPE]];

Deno.test("headers: GET /csrfToken answers exactly Cache-Control, Content-Type and its cookie", async () => {
  const { browser } = await setup();
  const response = await send(browser, "GET", "/auth/csrfToken");
  assert.equal(response.status, 200);
  assert.deepEqual(headerSet(response), expected(...BASE, ["set-cookie", `<${CSRF}>`]));
});

Deno.test("headers: GET /session answers exactly Cache-Control and Content-Type", async () => {
  const { browser } = await setup();
  const response = await send(browser, "GET", "/auth/session");
  assert.equal(response.status, 200);
  assert.deepEqual(headerSet(response), expected(...BASE));
});

Deno.test("headers: GET /session without a session answers exactly the JSON headers", async () => {
  const { browser } = await setup();
  const response = await send(browser, "GET", "/auth/session", { cookies: false });
  assert.equal(response.status, 200);
  assert.deepEqual(headerSet(response), expected(...BASE));
});

Deno.test("headers: GET /session with a bad session cookie adds only its clearing", async () => {
  const { browser } = await setup();
  browser.cookies.set(SESSION, "bad.token.value");
  const response = await send(browser, "GET", "/auth/session");
  assert.equal(response.status, 200);
  assert.deepEqual(headerSet(response), expected(...BASE, ["set-cookie", `<clear ${SESSION}>`]));
});

Deno.test("headers: POST /signIn/credentials answers exactly the JSON headers and two cookies", async () => {
  const { browser } = await setup();
  const response = await send(browser, "POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse" },
  });
  assert.equal(response.status, 200);
  assert.deepEqual(
    headerSet(response),
    expected(...BASE, ["set-cookie", `<${SESSION}>`], ["set-cookie", `<${CSRF}>`]),
  );
});

Deno.test("headers: PATCH /session answers exactly the JSON headers and the session cookie", async () => {
  const { browser } = await setup();
  const response = await send(browser, "PATCH", "/auth/session", {
    json: { user: { name: "Ada" } },
  });
  assert.equal(response.status, 200);
  assert.deepEqual(headerSet(response), expected(...BASE, ["set-cookie", `<${SESSION}>`]));
});

Deno.test("headers: POST /signUp answers exactly the JSON headers and two cookies", async () => {
  const { browser } = await setup();
  const response = await send(browser, "POST", "/auth/signUp", { json: {} });
  assert.equal(response.status, 201);
  assert.deepEqual(
    headerSet(response),
    expected(...BASE, ["set-cookie", `<${SESSION}>`], ["set-cookie", `<${CSRF}>`]),
  );
});

Deno.test("headers: POST /signOut answers exactly the JSON headers and two clearings", async () => {
  const { browser } = await setup();
  const response = await send(browser, "POST", "/auth/signOut");
  assert.equal(response.status, 200);
  assert.deepEqual(
    headerSet(response),
    expected(...BASE, ["set-cookie", `<clear ${SESSION}>`], ["set-cookie", `<clear ${CSRF}>`]),
  );
});

Deno.test("headers: redirect=true answers exactly Cache-Control, Location and the cookies", async () => {
  const { browser } = await setup();
  const response = await send(browser, "POST", "/auth/signOut?redirect=true&redirectTo=/bye");
  assert.equal(response.status, 302);
  assert.deepEqual(
    headerSet(response),
    expected(
      ["cache-control", "no-store"],
      ["location", "/bye"],
      ["set-cookie", `<clear ${SESSION}>`],
      ["set-cookie", `<clear ${CSRF}>`],
    ),
  );
});

Deno.test("headers: GET /signIn/:oauth answers exactly Cache-Control, Location and four flow cookies", async () => {
  const { browser } = await setup();
  const response = await send(browser, "GET", "/auth/signIn/mock");
  assert.equal(response.status, 302);
  const location = response.headers.get("Location")!;
  assert.equal(
    new URL(location).searchParams.get("redirect_uri"),
    `${ORIGIN}/auth/callback/mock`,
  );
  assert.deepEqual(
    headerSet(response),
    expected(
      ["cache-control", "no-store"],
      ["location", location],
      ...["state", "code_verifier", "redirect_to", "redirect_uri"].map((
        name,
      ): [string, string] => ["set-cookie", `<service-stack.${name}>`]),
    ),
  );
});

Deno.test("headers: 404 and 405 answer exactly the error headers (405 adds Allow)", async () => {
  const { browser } = await setup();
  const notFound = await send(browser, "GET", "/auth/nope");
  assert.equal(notFound.status, 404);
  assert.deepEqual(headerSet(notFound), expected(...BASE));
  const wrongMethod = await send(browser, "DELETE", "/auth/session");
  assert.equal(wrongMethod.status, 405);
  assert.deepEqual(headerSet(wrongMethod), expected(...BASE, ["allow", "GET, POST, PATCH"]));
});

Deno.test("headers: a same-origin OPTIONS answers exactly Allow", async () => {
  const { browser } = await setup();
  const response = await send(browser, "OPTIONS", "/auth/session");
  assert.equal(response.status, 204);
  assert.deepEqual(headerSet(response), expected(["allow", "GET, POST, PATCH, OPTIONS"]));
});

Deno.test("headers: a trusted cross-origin request adds exactly the CORS grant and Vary", async () => {
  const { browser } = await setup();
  const response = await send(browser, "GET", "/auth/session", { origin: TRUSTED });
  assert.equal(response.status, 200);
  assert.deepEqual(
    headerSet(response),
    expected(
      ...BASE,
      ["access-control-allow-credentials", "true"],
      ["access-control-allow-origin", TRUSTED],
      ["vary", "Origin"],
    ),
  );
});

Deno.test("headers: an untrusted cross-origin request answers exactly the error headers and Vary", async () => {
  const { browser } = await setup();
  const response = await send(browser, "POST", "/auth/signOut", {
    origin: "https://evil.example",
  });
  assert.equal(response.status, 403);
  assert.deepEqual(headerSet(response), expected(...BASE, ["vary", "Origin"]));
});

Deno.test("headers: a 500 answers exactly the error headers", async () => {
  const auth = makeAuth({
    credentials: {
      authorize: () => {
        throw new Error("boom");
      },
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.csrf();
  const response = await send(browser, "POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse" },
  });
  assert.equal(response.status, 500);
  assert.deepEqual(headerSet(response), expected(...BASE));
});

Deno.test("headers: no response body echoes a request header value", async () => {
  const { browser } = await setup();
  const responses = await Promise.all([
    send(browser, "GET", "/auth/session"),
    send(browser, "GET", "/auth/nope"),
    send(browser, "POST", "/auth/signOut", { origin: "https://evil.example" }),
    send(browser, "POST", "/auth/signIn/credentials", { json: { username: "x" } }),
  ]);
  for (const response of responses) {
    const text = await response.text();
    for (const value of [...Object.values(ODD), "abc123", "evil.example", "%%%"]) {
      assert.ok(!text.includes(value), `body echoes ${value}: ${text}`);
    }
  }
});

Deno.test("a response's header list is its own: what one collected never shows in the next", () => {
  const lists: unknown[] = [];
  const RealResponse = globalThis.Response;
  // A Response that keeps the list it was given, as some implementations do.
  globalThis.Response = class extends RealResponse {
    constructor(body?: BodyInit | null, init?: ResponseInit) {
      super(body, init);
      lists.push(init?.headers);
    }
  } as typeof Response;
  try {
    const first = jsonResponse({ setCookies: ["a=1"], headers: [["Vary", "Origin"]] }, {}, 200);
    const second = jsonResponse(undefined, {}, 200);
    (lists[0] as [string, string][]).push(["X-Leak", "1"]);
    const third = jsonResponse(undefined, {}, 200);
    assert.equal(first.headers.get("Set-Cookie"), "a=1");
    assert.equal(second.headers.get("Set-Cookie"), null);
    assert.equal(third.headers.get("X-Leak"), null);
    assert.notEqual(lists[1], lists[2]);
  } finally {
    globalThis.Response = RealResponse;
  }
});
