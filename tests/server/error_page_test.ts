// Browser-facing failures with no trusted target: pages.error, else an
// escaped HTML page for browsers, else JSON; always logged. People read plain
// sentences there (and in the redirects they land on); developer text
// ("...; expected ...") stays in the logs and in JSON answers.
import assert from "node:assert/strict";
import { AuthError, type LogEntry } from "../../mod.ts";
import type { ErrorType } from "../../mod.ts";
import { errorPageResponse, escapeHtml, plainMessage, waitInWords } from "../../src/error_page.ts";
import { responseHeaders } from "../../src/http.ts";
import { createMockProvider } from "../../testing.ts";
import { assertError, Browser, makeAuth, ORIGIN } from "./_helpers.ts";

const HTML = { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

function auth(overrides: Parameters<typeof makeAuth>[0] = {}) {
  const mock = createMockProvider();
  return makeAuth({ oauth: [mock.provider], fetch: mock.fetch, ...overrides });
}

function get(handler: (r: Request) => Promise<Response>, path: string, headers = {}) {
  return handler(new Request(`http://localhost:8000${path}`, { headers }));
}

Deno.test("a callback without flow cookies shows a browser an HTML page with a way back", async () => {
  const entries: LogEntry[] = [];
  const instance = auth({
    logger: { level: "warn", log: (entry: LogEntry) => entries.push(entry) },
  });
  const response = await get(instance.handlers.ALL, "/auth/callback/mock?code=c&state=s", HTML);
  assert.equal(response.status, 400);
  assert.equal(response.headers.get("Content-Type"), "text/html; charset=utf-8");
  assert.equal(response.headers.get("X-Content-Type-Options"), "nosniff");
  assert.equal(response.headers.get("Cache-Control"), "no-store");
  assert.match(response.headers.get("Content-Security-Policy") ?? "", /default-src 'none'/);
  const page = await response.text();
  assert.match(page, /<a class="button" href="\/">Back to the start<\/a>/);
  assert.match(page, /invalid_request/);
  assert.match(page, /name="viewport"/);
  assert.doesNotMatch(page, /<script/i);
  assert.match(page, /This sign-in link is not valid or has expired\. Please start again\./);
  assert.doesNotMatch(page, /expected/i);
  // No flow of this provider: any flow cookies belong to another sign-in and are left alone.
  assert.deepEqual(response.headers.getSetCookie(), []);
  // The developer detail is in the log.
  const logged = entries.find((entry) => entry.message === "browser sign-in failed");
  assert.match(String(logged?.details?.description), /sign-in flow is missing.*; expected/);
});

Deno.test("with pages.error, a failed callback lands there with error and error_description", async () => {
  const instance = auth({ pages: { error: "/auth-error?from=app" } });
  const response = await get(instance.handlers.ALL, "/auth/callback/mock?code=c&state=s", HTML);
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get("Location")!, "http://x");
  assert.equal(location.pathname, "/auth-error");
  assert.equal(location.searchParams.get("from"), "app");
  assert.equal(location.searchParams.get("error"), "invalid_request");
  assert.equal(
    location.searchParams.get("error_description"),
    "This sign-in link is not valid or has expired. Please start again.",
  );
});

Deno.test("a failed callback answers JSON to a client that does not accept HTML", async () => {
  const instance = auth();
  const response = await get(instance.handlers.ALL, "/auth/callback/mock?code=c&state=s");
  await assertError(response, 400, "invalid_request");
});

Deno.test("an unknown provider on sign-in and callback gets the same browser treatment", async () => {
  const instance = auth();
  for (const path of ["/auth/signIn/nope", "/auth/callback/nope?code=c&state=s"]) {
    const page = await get(instance.handlers.ALL, path, HTML);
    assert.equal(page.status, 400);
    const text = await page.text();
    // A plain sentence that says what is wrong (issue 25), no developer text.
    assert.match(text, /This sign-in provider is unknown\./);
    assert.doesNotMatch(text, /expected|provider id|nope/i);
  }
  // JSON keeps the developer description.
  const json = await get(instance.handlers.ALL, "/auth/signIn/nope");
  assert.match((await json.json()).error_description, /; expected a configured provider id/);
});

Deno.test("a refused redirectTo on sign-in never redirects to it, even with pages.error", async () => {
  const instance = auth({ pages: { error: "/oops" } });
  const response = await get(
    instance.handlers.ALL,
    "/auth/signIn/mock?redirectTo=https://evil.example/x",
    HTML,
  );
  assert.equal(response.status, 302);
  const location = response.headers.get("Location")!;
  assert.ok(location.startsWith("/oops?"), location);
  assert.equal(new URL(location, "http://x").searchParams.get("error"), "invalid_redirect_to");
});

Deno.test("redirect=false on sign-in always answers JSON errors", async () => {
  const instance = auth({ pages: { error: "/oops" } });
  const response = await get(instance.handlers.ALL, "/auth/signIn/nope?redirect=false", HTML);
  await assertError(response, 400, "invalid_request");
});

Deno.test("escapeHtml escapes markup and quotes", () => {
  assert.equal(
    escapeHtml(`<img src=x onerror="alert('1')">&`),
    "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;",
  );
});

Deno.test("config: pages.error must be a path or an absolute http(s) URL", () => {
  for (const bad of ["//evil.example", "javascript:alert(1)", "oops", "/a\nb", 5]) {
    assert.throws(() => auth({ pages: { error: bad as string } }), TypeError, "pages.error");
  }
  assert.throws(() => auth({ pages: { home: "/" } as never }), TypeError, "pages.home");
  auth({ pages: { error: "https://app.example.com/auth-error" } });
});

/** POSTs the credentials form as a browser navigation does: form body, Accept: text/html. */
async function postForm(browser: Browser, password: string, headers: Record<string, string> = {}) {
  const token = await browser.csrf();
  return await browser.fetch("POST", "/auth/signIn/credentials?redirect=true", {
    form: { username: "ada", password, csrfToken: token },
    headers: { ...HTML, Referer: `${ORIGIN}/login`, ...headers },
  });
}

Deno.test("a throttled form sign-in shows a page that says how long to wait", async () => {
  const browser = new Browser(makeAuth().handlers.ALL);
  for (let i = 0; i < 5; i++) {
    const refused = await postForm(browser, "wrong");
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
  }
  const response = await postForm(browser, "correct horse");
  assert.equal(response.status, 429);
  assert.equal(response.headers.get("Retry-After"), "900");
  assert.equal(response.headers.get("Content-Type"), "text/html; charset=utf-8");
  const page = await response.text();
  assert.match(page, /<title>Too many attempts<\/title>/);
  assert.match(page, /Please wait 15 minutes before you try again\./);
  assert.doesNotMatch(page, /expected/i);
  // The link goes back to the form's page (a same-origin Referer).
  assert.match(page, /<a class="button" href="http:\/\/localhost:8000\/login">Go back<\/a>/);
});

Deno.test("a failed form sign-in shows a plain page; a script's form post still gets JSON", async () => {
  const browser = new Browser(makeAuth().handlers.ALL);
  const page = await postForm(browser, "wrong");
  assert.equal(page.status, 401);
  const text = await page.text();
  assert.match(text, /The sign-in was refused\. Please check your details and try again\./);
  assert.doesNotMatch(text, /expected/i);
  // fetch() with a form body does not ask for HTML: the JSON answer is unchanged.
  await assertError(await postForm(browser, "wrong", { Accept: "*/*" }), 401, "access_denied");
  // A foreign Referer is never linked to.
  const foreign = await postForm(browser, "wrong", { Referer: "https://evil.example/x" });
  assert.match(await foreign.text(), /<a class="button" href="\/">Back to the start<\/a>/);
});

Deno.test("a form post without the CSRF cookie shows a plain page, not the developer text", async () => {
  const instance = makeAuth();
  const response = await instance.handlers.ALL(
    new Request(`${ORIGIN}/auth/signOut`, {
      method: "POST",
      headers: { ...HTML, "Content-Type": "application/x-www-form-urlencoded" },
      body: "csrfToken=x",
    }),
  );
  assert.equal(response.status, 403);
  const page = await response.text();
  assert.match(page, /This page has expired\. Please reload it and try again\./);
  assert.doesNotMatch(page, /expected|X-CSRF-Token/);
});

Deno.test("a description the app chose is shown to people as it is", async () => {
  const instance = makeAuth({
    credentials: {
      authorize: () => {
        throw new AuthError("access_denied", "Your account is suspended.", { status: 403 });
      },
    },
  });
  const page = await postForm(new Browser(instance.handlers.ALL), "whatever");
  assert.equal(page.status, 403);
  assert.equal(page.headers.get("Content-Type"), "text/html; charset=utf-8");
  assert.match(await page.text(), /<p class="message">Your account is suspended\.<\/p>/);
});

Deno.test("a stale callback in a signed-in browser does not say Sign-in failed", async () => {
  const instance = auth();
  const browser = new Browser(instance.handlers.ALL);
  assert.equal((await browser.signIn()).status, 200);
  // Back to an old callback URL: no flow cookies any more, a valid session.
  const response = await browser.fetch("GET", "/auth/callback/mock?code=c&state=s", {
    headers: HTML,
  });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/");
  assert.doesNotMatch(await response.text(), /Sign-in failed/);
  assert.equal(browser.cookies.has("service-stack.session_token"), true);
  // The same callback without the session is the error page.
  browser.cookies.clear();
  const failed = await browser.fetch("GET", "/auth/callback/mock?code=c&state=s", {
    headers: HTML,
  });
  assert.equal(failed.status, 400);
  assert.match(await failed.text(), /Sign-in failed/);
});

Deno.test("a failed callback lands on its target with a plain error_description", async () => {
  const mock = createMockProvider();
  const entries: LogEntry[] = [];
  const instance = makeAuth({
    oauth: [mock.provider],
    fetch: mock.fetch,
    logger: { level: "warn", log: (entry: LogEntry) => entries.push(entry) },
  });
  const browser = new Browser(instance.handlers.ALL);
  const start = await browser.fetch("GET", "/auth/signIn/mock?redirectTo=%2Fhome");
  const consent = await mock.fetch(start.headers.get("Location")!);
  const callback = new URL(consent.headers.get("Location")!);
  callback.searchParams.set("iss", "https://evil.example");
  const landed = await browser.fetch("GET", `${callback.pathname}${callback.search}`);
  const location = new URL(landed.headers.get("Location")!, ORIGIN);
  assert.equal(location.pathname, "/home");
  assert.equal(location.searchParams.get("error"), "invalid_request");
  assert.doesNotMatch(location.searchParams.get("error_description")!, /expected|iss/);
  const logged = entries.find((entry) => entry.message === "oauth callback failed");
  assert.match(String(logged?.details?.description), /iss parameter.*; expected/);
});

const CODES: readonly ErrorType[] = [
  "invalid_request",
  "unauthorized_client",
  "access_denied",
  "unsupported_response_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_session_token",
  "invalid_csrf_token",
  "invalid_redirect_to",
];

Deno.test("every error code and status has a plain sentence without developer text", () => {
  for (const code of CODES) {
    for (const status of [undefined, 400, 401, 403, 404, 405, 408, 413, 415, 429, 500, 502, 503]) {
      const error = new AuthError(code, "Something; expected something else.", { status });
      const message = plainMessage(error);
      assert.match(message, /^[A-Z].*\.$/, `${code} ${status}`);
      assert.doesNotMatch(message, /expected|_/, `${code} ${status}`);
    }
  }
});

Deno.test("the wait is said in words, rounded up", () => {
  assert.equal(waitInWords(0), "1 second");
  assert.equal(waitInWords(1), "1 second");
  assert.equal(waitInWords(45), "45 seconds");
  assert.equal(waitInWords(60), "1 minute");
  assert.equal(waitInWords(61), "2 minutes");
  assert.equal(waitInWords(900), "15 minutes");
  assert.equal(waitInWords(3600), "1 hour");
  assert.equal(waitInWords(5400), "2 hours");
  const out = responseHeaders();
  const error = new AuthError("temporarily_unavailable", "x; expected y.", { status: 429 });
  assert.match(plainMessage(error, out), /Please wait a while/);
  out.headers.push(["Retry-After", "30"]);
  assert.match(plainMessage(error, out), /Please wait 30 seconds/);
});

Deno.test("the error page is styled inline and loads nothing", async () => {
  const error = new AuthError("invalid_request", "x <b>; expected y.");
  const response = errorPageResponse(responseHeaders(), error, { home: "/?a=1&b=<2>" });
  assert.equal(
    response.headers.get("Content-Security-Policy"),
    "default-src 'none'; style-src 'unsafe-inline'",
  );
  const page = await response.text();
  assert.match(page, /<style>[^<]*--accent:#2f5bd3[^<]*<\/style>/);
  assert.doesNotMatch(page, /<script|<link|@import|url\(|src=/i);
  assert.match(page, /href="\/\?a=1&amp;b=&lt;2&gt;"/);
  assert.doesNotMatch(page, /<b>|expected/);
});
