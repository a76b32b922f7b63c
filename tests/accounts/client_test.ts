// The browser client's linkAccount, accounts.list and accounts.unlink,
// against the real handlers (a fetch that keeps cookies as a browser does).
import assert from "node:assert/strict";
import { createAuthClient } from "../../client.ts";
import { type AuthConfig, createAuth, memoryStore } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { pathOf } from "../oauth/_flow_helpers.ts";
import { stubLocation } from "../client/fake_auth_server.ts";
import { AccountBrowser, SECRET } from "./_helpers.ts";

const USERS = [{ sub: "gh-1", name: "Ada" }, { sub: "gh-2", name: "Ada at work" }];

async function signedInClient() {
  const mock = createMockProvider({ users: USERS });
  const store = memoryStore();
  const auth = createAuth({
    oauth: [mock.provider],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
    accounts: { store },
  } as AuthConfig);
  const browser = new AccountBrowser(auth.handlers.ALL);
  const start = await browser.get("/auth/signIn/mock");
  const callback = await mock.fetch(start.headers.get("Location")!);
  await browser.get(pathOf(new URL(callback.headers.get("Location")!)));
  // The client's fetch: the browser's cookies go along, the answers' cookies are kept.
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), "http://localhost:8000"), init);
    request.headers.set("Cookie", browser.cookieHeader());
    const response = await auth.handlers.ALL(request);
    browser.store(response);
    return response;
  };
  const client = createAuthClient({ baseURL: "http://localhost:8000", fetch: fetchFn });
  return { client, mock, browser, store };
}

Deno.test("client: linkAccount posts the scope and redirectTo, then navigates to the provider", async () => {
  const { client, mock, browser, store } = await signedInClient();
  const location = stubLocation();
  try {
    const result = await client.linkAccount("mock", { scope: "email", redirectTo: "/settings" });
    assert.equal(result.error, null);
    const url = new URL(result.data!.url);
    assert.equal(url.origin, "http://mock-oauth.localhost");
    assert.deepEqual(location.assigned, [result.data!.url]);
    url.searchParams.set("login_hint", "gh-2");
    const callback = await mock.fetch(url.href);
    const done = await browser.get(pathOf(new URL(callback.headers.get("Location")!)));
    assert.equal(done.headers.get("Location"), "/settings");
    assert.ok(await store.getAccount("mock", "gh-2"));
  } finally {
    location.restore();
  }
});

Deno.test("client: accounts.list and accounts.unlink", async () => {
  const { client } = await signedInClient();
  const listed = await client.accounts.list();
  assert.equal(listed.error, null);
  assert.deepEqual(listed.data!.accounts.map((a) => a.providerAccountId), ["gh-1"]);
  assert.deepEqual(await client.accounts.unlink("mock", "gh-1"), {
    data: { ok: true },
    error: null,
  });
  assert.deepEqual((await client.accounts.list()).data!.accounts, []);
  const again = await client.accounts.unlink("mock", "gh-1");
  assert.equal(again.error?.status, 404);
  assert.equal((await client.accounts.unlink("", "x")).error?.error, "invalid_request");
});

Deno.test("client: linkAccount with redirect: false only resolves the URL; a bad redirectTo is refused", async () => {
  const { client } = await signedInClient();
  const location = stubLocation();
  try {
    const result = await client.linkAccount("mock", { redirect: false });
    assert.ok(result.data?.url.startsWith("http://mock-oauth.localhost/"));
    assert.deepEqual(location.assigned, []);
    const bad = await client.linkAccount("mock", { redirectTo: "//evil.example" });
    assert.equal(bad.error?.error, "invalid_redirect_to");
  } finally {
    location.restore();
  }
});
