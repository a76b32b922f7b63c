// Linking provider accounts (with the mock provider of testing.ts): at
// sign-in (the linked sub, else a new random one; never by email), and while
// signed in through POST /link/:provider and its callback, with the
// negative cases: the two-session race, an account linked to someone else,
// a refused hook, no silent re-linking, a user with two-factor.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, memoryStore } from "../../mod.ts";
import { createMockProvider, type MockProvider } from "../../testing.ts";
import { decodeBase32 } from "../../src/two_factor/base32.ts";
import { totpCode } from "../../src/two_factor/totp.ts";
import { fetchByOrigin, pathOf, postedForm } from "../oauth/_flow_helpers.ts";
import { AccountBrowser, Clock, SECRET } from "./_helpers.ts";

const SESSION = "service-stack.session_token";

const USERS = [
  { sub: "gh-1", name: "Ada", email: "ada@example.com" },
  { sub: "gh-2", name: "Ada at work", email: "ada@work.example" },
  { sub: "gh-3", name: "Bob", email: "bob@example.com" },
];

function setup(config: Partial<AuthConfig> = {}) {
  const mock = createMockProvider({ users: USERS });
  const other = createMockProvider({
    id: "other",
    baseURL: "http://other.localhost",
    users: USERS,
  });
  const store = memoryStore();
  const events: { sub: string; provider: string }[] = [];
  const clock = new Clock();
  const auth = createAuth({
    oauth: [mock.provider, other.provider],
    secret: SECRET,
    logger: false,
    fetch: fetchByOrigin({
      "http://mock-oauth.localhost": mock.fetch,
      "http://other.localhost": other.fetch,
    }),
    accounts: { store },
    session: { store },
    events: { linkAccount: (event) => void events.push(event) },
    clock: clock.fn,
    ...config,
  } as AuthConfig);
  return { auth, mock, other, store, events, clock };
}

/** Visits the mock's authorization URL as `login`; the callback URL it redirects to. */
async function authorize(mock: MockProvider, url: string | URL, login: string): Promise<URL> {
  const authorization = new URL(url);
  authorization.searchParams.set("login_hint", login);
  const response = await mock.fetch(authorization.href);
  assert.equal(response.status, 302);
  return new URL(response.headers.get("Location")!);
}

async function signIn(
  browser: AccountBrowser,
  mock: MockProvider,
  login: string,
): Promise<Response> {
  const start = await browser.get(`/auth/signIn/${mock.provider.id}?redirectTo=%2Fhome`);
  assert.equal(start.status, 302);
  return await browser.get(pathOf(await authorize(mock, start.headers.get("Location")!, login)));
}

async function sessionSub(browser: AccountBrowser): Promise<string | undefined> {
  return (await (await browser.get("/auth/session")).json())?.user?.sub;
}

/** POST /link/:provider, then the provider as `login`: the callback's response. */
async function link(
  browser: AccountBrowser,
  mock: MockProvider,
  login: string,
  body: Record<string, unknown> = { redirectTo: "/settings" },
): Promise<Response> {
  const started = await browser.send("POST", `/auth/link/${mock.provider.id}`, body);
  assert.equal(started.status, 200, await started.clone().text());
  const { url } = await started.json();
  return await browser.get(pathOf(await authorize(mock, url, login)));
}

function errorOf(response: Response): { error: string | null; description: string | null } {
  const location = new URL(response.headers.get("Location")!, "http://localhost:8000");
  return {
    error: location.searchParams.get("error"),
    description: location.searchParams.get("error_description"),
  };
}

Deno.test("accounts: a first sign-in gets a new random sub, linked; the next sign-in signs that sub in", async () => {
  const { auth, mock, events } = setup();
  const browser = new AccountBrowser(auth.handlers.ALL);
  assert.equal((await signIn(browser, mock, "gh-1")).headers.get("Location"), "/home");
  const sub = await sessionSub(browser);
  assert.ok(sub && sub !== "gh-1" && /^[A-Za-z0-9_-]{22}$/.test(sub), "128 random bits");
  assert.deepEqual(events, [{ sub, provider: "mock" }]);
  const again = new AccountBrowser(auth.handlers.ALL);
  await signIn(again, mock, "gh-1");
  assert.equal(await sessionSub(again), sub);
  assert.equal(events.length, 1, "no second link event");
  const accounts = await auth.api.listAccounts(sub);
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0].providerAccountId, "gh-1");
  assert.ok(!("tokens" in accounts[0]));
});

Deno.test("accounts: the same email at two providers makes two users (linking never follows an email)", async () => {
  const { auth, mock, other } = setup();
  const one = new AccountBrowser(auth.handlers.ALL);
  await signIn(one, mock, "gh-1");
  const two = new AccountBrowser(auth.handlers.ALL);
  await signIn(two, other, "gh-1");
  assert.notEqual(await sessionSub(one), await sessionSub(two));
});

Deno.test("accounts: callbacks.signIn may put an unlinked account on the app's own user", async () => {
  const { auth, mock } = setup({
    callbacks: { signIn: ({ user }) => ({ ...user, sub: "app-user-7" }) },
  });
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  assert.equal(await sessionSub(browser), "app-user-7");
  assert.equal((await auth.api.listAccounts("app-user-7")).length, 1);
});

Deno.test("accounts: callbacks.signIn naming another user for a linked account is refused, nothing changed", async () => {
  let steal = false;
  const { auth, mock, store } = setup({
    callbacks: { signIn: ({ user }) => steal ? { ...user, sub: "someone-else" } : user },
  });
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const sub = await sessionSub(browser);
  steal = true;
  const thief = new AccountBrowser(auth.handlers.ALL);
  const response = await signIn(thief, mock, "gh-1");
  assert.equal(errorOf(response).error, "access_denied");
  assert.equal(await sessionSub(thief), undefined);
  assert.equal((await store.getAccount("mock", "gh-1"))?.sub, sub);
  assert.deepEqual(await store.listAccounts("someone-else"), []);
});

Deno.test("accounts: a sign-in refused by callbacks.signIn stores nothing", async () => {
  const { auth, mock, store, events } = setup({ callbacks: { signIn: () => null } });
  const browser = new AccountBrowser(auth.handlers.ALL);
  const response = await signIn(browser, mock, "gh-1");
  assert.equal(errorOf(response).error, "access_denied");
  assert.equal(await store.getAccount("mock", "gh-1"), null);
  assert.deepEqual(events, []);
});

Deno.test("accounts: POST /link/:provider links a second account to the signed-in user and keeps the session", async () => {
  const { auth, mock, other, events } = setup();
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const sub = await sessionSub(browser);
  const before = browser.cookies.get("service-stack.session_token");
  const done = await link(browser, mock, "gh-2");
  assert.equal(done.status, 302);
  assert.equal(done.headers.get("Location"), "/settings");
  assert.equal(await sessionSub(browser), sub, "same user");
  assert.equal(browser.cookies.get("service-stack.session_token"), before, "same session");
  await link(browser, other, "gh-3");
  const listed = await (await browser.get("/auth/accounts")).json();
  assert.deepEqual(
    listed.accounts.map((a: { provider: string; providerAccountId: string }) =>
      `${a.provider}:${a.providerAccountId}`
    ),
    ["mock:gh-1", "mock:gh-2", "other:gh-3"],
  );
  for (const account of listed.accounts) {
    assert.deepEqual(Object.keys(account).sort(), [
      "createdAt",
      "provider",
      "providerAccountId",
      "scope",
      "updatedAt",
    ]);
    assert.ok(!Number.isNaN(Date.parse(account.createdAt)));
  }
  assert.deepEqual(events.map((e) => e.sub), [sub, sub, sub]);
  // Without providerAccountId: the account updated last at that provider.
  const token = await auth.api.getAccessToken({ sub: sub! }, "mock");
  assert.ok(token);
  const byId = await auth.api.getAccessToken({ sub: sub! }, "mock", { providerAccountId: "gh-2" });
  assert.equal(byId?.accessToken, token.accessToken);
});

Deno.test("accounts: a link asks for more scopes and records what was granted", async () => {
  const { auth, mock } = setup();
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const started = await browser.send("POST", "/auth/link/mock", { scope: "repo read:org" });
  const { url } = await started.json();
  const scope = new URL(url).searchParams.get("scope")!.split(" ");
  assert.ok(scope.includes("repo") && scope.includes("read:org") && scope.includes("openid"));
  const bad = await browser.send("POST", "/auth/link/mock", { scope: "bad\nscope" });
  assert.equal(bad.status, 400);
});

Deno.test("accounts: POST /link/:provider needs a session, the CSRF token and a known provider", async () => {
  const { auth, mock } = setup();
  const anonymous = new AccountBrowser(auth.handlers.ALL);
  assert.equal((await anonymous.send("POST", "/auth/link/mock", {})).status, 401);
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const noCsrf = await auth.handlers.ALL(
    new Request("http://localhost:8000/auth/link/mock", {
      method: "POST",
      headers: { Cookie: browser.cookieHeader(), "Content-Type": "application/json" },
      body: "{}",
    }),
  );
  assert.equal(noCsrf.status, 403);
  assert.equal((await browser.send("POST", "/auth/link/nope", {})).status, 400);
});

Deno.test("accounts: a link callback in another session (the session changed since the start) is refused, nothing linked", async () => {
  const { auth, mock, store } = setup();
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const started = await browser.send("POST", "/auth/link/mock", { redirectTo: "/settings" });
  const { url } = await started.json();
  // Between start and callback, the browser's session becomes someone else's.
  const other = new AccountBrowser(auth.handlers.ALL);
  await signIn(other, mock, "gh-3");
  browser.cookies.set(SESSION, other.cookies.get(SESSION)!);
  const bob = await sessionSub(browser);
  const response = await browser.get(pathOf(await authorize(mock, url, "gh-2")));
  assert.equal(errorOf(response).error, "access_denied");
  assert.equal(await store.getAccount("mock", "gh-2"), null);
  assert.equal(await sessionSub(browser), bob, "still Bob, nothing switched");
  // And without any session at all.
  const alone = new AccountBrowser(auth.handlers.ALL);
  await signIn(alone, mock, "gh-1");
  const again = await (await alone.send("POST", "/auth/link/mock", {})).json();
  await alone.send("POST", "/auth/signOut");
  const signedOut = await alone.get(pathOf(await authorize(mock, again.url, "gh-2")));
  assert.equal(errorOf(signedOut).error, "access_denied");
  assert.equal(await store.getAccount("mock", "gh-2"), null);
});

Deno.test("accounts: linking an account that is another user's is refused with a plain description, nothing changed", async () => {
  const { auth, mock, store } = setup();
  const bob = new AccountBrowser(auth.handlers.ALL);
  await signIn(bob, mock, "gh-3");
  const bobSub = await sessionSub(bob);
  const ada = new AccountBrowser(auth.handlers.ALL);
  await signIn(ada, mock, "gh-1");
  const adaSub = await sessionSub(ada);
  const response = await link(ada, mock, "gh-3");
  assert.deepEqual(errorOf(response), {
    error: "access_denied",
    description: "This Mock account is linked to another user.",
  });
  assert.equal((await store.getAccount("mock", "gh-3"))?.sub, bobSub);
  assert.equal((await store.listAccounts(adaSub!)).length, 1);
  assert.equal(await sessionSub(ada), adaSub);
});

Deno.test("accounts: a link refused by callbacks.signIn (link: true) stores nothing", async () => {
  const seen: unknown[] = [];
  const { auth, mock, store, events } = setup({
    callbacks: {
      signIn: (params) => {
        seen.push({ link: params.link, sub: params.user.sub });
        return params.link ? null : params.user;
      },
    },
  });
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const sub = await sessionSub(browser);
  const response = await link(browser, mock, "gh-2");
  assert.equal(errorOf(response).error, "access_denied");
  assert.equal(await store.getAccount("mock", "gh-2"), null);
  assert.deepEqual(seen.at(-1), { link: true, sub });
  assert.equal(events.length, 1);
});

Deno.test("accounts: re-linking one's own account replaces its tokens and scope (re-consent)", async () => {
  const { auth, mock, store } = setup();
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const before = await store.getAccount("mock", "gh-1");
  const done = await link(browser, mock, "gh-1");
  assert.equal(done.headers.get("Location"), "/settings", done.headers.get("Location")!);
  const after = await store.getAccount("mock", "gh-1");
  assert.notEqual(after?.tokens, before?.tokens);
  assert.equal(after?.createdAt, before?.createdAt);
});

Deno.test("accounts: DELETE /accounts/:provider/:id is 404 for another user's account and for unknown ones", async () => {
  const { auth, mock, store } = setup();
  const bob = new AccountBrowser(auth.handlers.ALL);
  await signIn(bob, mock, "gh-3");
  const ada = new AccountBrowser(auth.handlers.ALL);
  await signIn(ada, mock, "gh-1");
  assert.equal((await ada.send("DELETE", "/auth/accounts/mock/gh-3")).status, 404);
  assert.equal((await ada.send("DELETE", "/auth/accounts/mock/nobody")).status, 404);
  assert.ok(await store.getAccount("mock", "gh-3"));
  assert.equal((await ada.send("DELETE", "/auth/accounts/mock/gh-1")).status, 204);
  assert.equal(await store.getAccount("mock", "gh-1"), null);
  assert.equal(await auth.api.unlinkAccount("x", "mock", "gh-3"), false);
  assert.equal((await new AccountBrowser(auth.handlers.ALL).get("/auth/accounts")).status, 401);
});

Deno.test("accounts: a user with two-factor links without a second step; a sign-in saves nothing before its step", async () => {
  const records = new Map<string, string>();
  const { auth, mock, store, clock } = setup({
    twoFactor: {
      load: (sub) => records.get(sub) ?? null,
      save: (sub, value) => void (value === null ? records.delete(sub) : records.set(sub, value)),
    },
  });
  const browser = new AccountBrowser(auth.handlers.ALL);
  await signIn(browser, mock, "gh-1");
  const sub = (await sessionSub(browser))!;
  const { secret } = await (await browser.send("POST", "/auth/twoFactor/enroll")).json();
  const code = () => totpCode(decodeBase32(secret), clock.fn() / 1000);
  const confirmed = await browser.send("POST", "/auth/twoFactor/confirm", { code: await code() });
  assert.equal(confirmed.status, 200);
  // Linking while signed in needs no second step: the session passed it.
  const linked = await link(browser, mock, "gh-2");
  assert.equal(linked.headers.get("Location"), "/settings");
  assert.equal((await store.getAccount("mock", "gh-2"))?.sub, sub);
  // A sign-in stops at the second step; its new tokens wait for it.
  const before = (await store.getAccount("mock", "gh-1"))!;
  const other = new AccountBrowser(auth.handlers.ALL);
  clock.advance(5);
  const first = await signIn(other, mock, "gh-1");
  assert.match(first.headers.get("Location")!, /twoFactor/);
  assert.equal(
    (await store.getAccount("mock", "gh-1"))?.tokens,
    before.tokens,
    "nothing saved yet",
  );
  clock.advance(30);
  const verified = await other.send("POST", "/auth/twoFactor/verify", { code: await code() });
  assert.equal(verified.status, 200, await verified.clone().text());
  assert.equal((await verified.json()).user.sub, sub);
  assert.notEqual((await store.getAccount("mock", "gh-1"))?.tokens, before.tokens, "saved now");
});

Deno.test("accounts: without accounts the api methods reject with a TypeError naming the option", async () => {
  const auth = createAuth({ oauth: [], secret: SECRET, logger: false });
  for (
    const call of [
      () => auth.api.listAccounts("u"),
      () => auth.api.unlinkAccount("u", "github", "1"),
      () => auth.api.getAccessToken({ sub: "u" }, "github"),
    ]
  ) {
    await assert.rejects(
      call,
      (error: unknown) => error instanceof TypeError && error.message.includes("accounts"),
    );
  }
  const response = await auth.handlers.ALL(new Request("http://localhost:8000/auth/accounts"));
  assert.equal(response.status, 404);
});

Deno.test("accounts: a form_post provider's link callback answers 303 to the GET callback, which links", async () => {
  const post = createMockProvider({
    id: "post",
    baseURL: "http://post.localhost",
    users: USERS,
    responseMode: "form_post",
  });
  const store = memoryStore();
  const auth = createAuth({
    oauth: [{ ...post.provider, responseMode: "form_post" }],
    secret: SECRET,
    logger: false,
    fetch: post.fetch,
    accounts: { store },
  } as AuthConfig);
  const browser = new AccountBrowser(auth.handlers.ALL);
  // Sign in through the form_post page: its form posts to the callback.
  const start = await browser.get("/auth/signIn/post?redirectTo=%2Fhome");
  const page = await post.fetch(withLogin(start.headers.get("Location")!, "gh-1"));
  const { action, fields } = await postedForm(page);
  await browser.handler(formPost(action, fields, browser)).then((r) => browser.store(r));
  const sub = await sessionSub(browser);
  assert.ok(sub);
  const started = await browser.send("POST", "/auth/link/post", { redirectTo: "/settings" });
  const { url } = await started.json();
  const linkPage = await post.fetch(withLogin(url, "gh-2"));
  const posted = await postedForm(linkPage);
  // The cross-site POST carries no Lax session cookie: only the flow cookies.
  const flowOnly = [...browser.cookies].filter(([name]) => !name.endsWith("session_token"));
  const crossSite = await auth.handlers.ALL(
    new Request(posted.action, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "http://post.localhost",
        Cookie: flowOnly.map(([n, v]) => `${n}=${v}`).join("; "),
      },
      body: posted.fields.toString(),
    }),
  );
  assert.equal(crossSite.status, 303);
  const next = new URL(crossSite.headers.get("Location")!, "http://localhost:8000");
  assert.equal(next.pathname, "/auth/callback/post");
  assert.equal(await store.getAccount("post", "gh-2"), null, "nothing linked by the POST");
  const done = await browser.get(pathOf(next));
  assert.equal(done.headers.get("Location"), "/settings");
  assert.equal((await store.getAccount("post", "gh-2"))?.sub, sub);
});

function withLogin(url: string, login: string): string {
  const target = new URL(url);
  target.searchParams.set("login_hint", login);
  return target.href;
}

function formPost(action: string, fields: URLSearchParams, browser: AccountBrowser): Request {
  return new Request(action, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: browser.cookieHeader(),
    },
    body: fields.toString(),
  });
}
