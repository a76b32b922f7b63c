// Browser-facing failures with no trusted target: pages.error, else an
// escaped HTML page for browsers, else JSON; always logged.
import assert from "node:assert/strict";
import type { LogEntry } from "../../mod.ts";
import { escapeHtml } from "../../src/error_page.ts";
import { createMockProvider } from "../../testing.ts";
import { assertError, makeAuth } from "./_helpers.ts";

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
  assert.match(page, /<a href="\/">/);
  assert.match(page, /invalid_request/);
  assert.match(page, /name="viewport"/);
  assert.doesNotMatch(page, /<script/i);
  // No flow of this provider: any flow cookies belong to another sign-in and are left alone.
  assert.deepEqual(response.headers.getSetCookie(), []);
  assert.ok(entries.some((entry) => entry.message === "browser sign-in failed"));
});

Deno.test("with pages.error, a failed callback lands there with error and error_description", async () => {
  const instance = auth({ pages: { error: "/auth-error?from=app" } });
  const response = await get(instance.handlers.ALL, "/auth/callback/mock?code=c&state=s", HTML);
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get("Location")!, "http://x");
  assert.equal(location.pathname, "/auth-error");
  assert.equal(location.searchParams.get("from"), "app");
  assert.equal(location.searchParams.get("error"), "invalid_request");
  assert.match(location.searchParams.get("error_description")!, /sign-in flow/);
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
    assert.match(await page.text(), /provider is unknown/);
  }
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
