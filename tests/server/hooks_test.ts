// callbacks.signIn links or refuses a sign-in before the session exists;
// events are told after the fact and never change the response.
import assert from "node:assert/strict";
import { AuthError, type LogEntry } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { EVENT_TIMEOUT_MS } from "../../src/config/hooks.ts";
import { contextOf } from "../../src/create_auth.ts";
import { createHandler } from "../../src/handler.ts";
import { ADA, assertError, Browser, makeAuth } from "./_helpers.ts";

async function oauthSignIn(
  auth: ReturnType<typeof makeAuth>,
  mock: ReturnType<typeof createMockProvider>,
) {
  const browser = new Browser(auth.handlers.ALL);
  const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
  const consent = await mock.fetch(start.headers.get("Location")!);
  const back = new URL(consent.headers.get("Location")!);
  const landed = await browser.fetch("GET", `${back.pathname}${back.search}`);
  return { browser, landed };
}

Deno.test("callbacks.signIn: the returned user is the one stored (account linking)", async () => {
  const seen: unknown[] = [];
  const auth = makeAuth({
    callbacks: {
      signIn: ({ user, provider, profile, tokens, request }) => {
        seen.push({ provider, profile, tokens, url: request.url });
        return { sub: `account-for-${user.sub}`, name: user.name };
      },
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  assert.deepEqual((await response.json()).user, { sub: "account-for-user-1", name: "Ada" });
  assert.deepEqual(seen, [{
    provider: "credentials",
    profile: undefined,
    tokens: undefined,
    url: "http://localhost:8000/auth/signIn/credentials",
  }]);
});

Deno.test("callbacks.signIn returning null refuses credentials with 401 and sets no session", async () => {
  const auth = makeAuth({ callbacks: { signIn: () => null } });
  const browser = new Browser(auth.handlers.ALL);
  await assertError(await browser.signIn(), 401, "access_denied");
  assert.equal(browser.cookies.has("service-stack.session_token"), false);
});

Deno.test("callbacks.signIn throwing an AuthError chooses the answer; anything else is a 500", async () => {
  const chosen = makeAuth({
    callbacks: {
      signIn: () => {
        throw new AuthError("access_denied", "Your account is suspended.", { status: 403 });
      },
    },
  });
  const body = await assertError(
    await new Browser(chosen.handlers.ALL).signIn(),
    403,
    "access_denied",
  );
  assert.equal(body.error_description, "Your account is suspended.");
  const broken = makeAuth({
    callbacks: {
      signIn: () => {
        throw new Error("db down");
      },
    },
  });
  await assertError(await new Browser(broken.handlers.ALL).signIn(), 500, "server_error");
});

Deno.test("callbacks.signIn's user obeys the user-field rules", async () => {
  const auth = makeAuth({
    callbacks: { signIn: ({ user }) => ({ ...user, email: "a@x.example,b@y.example" }) },
  });
  await assertError(await new Browser(auth.handlers.ALL).signIn(), 400, "invalid_request");
});

Deno.test("callbacks.signIn on an OAuth callback sees the profile and tokens; null lands with access_denied", async () => {
  const mock = createMockProvider();
  const seen: { provider: string; sub: unknown; token: boolean }[] = [];
  const auth = makeAuth({
    oauth: [mock.provider],
    fetch: mock.fetch,
    callbacks: {
      signIn: ({ provider, profile, tokens }) => {
        seen.push({ provider, sub: profile?.sub, token: typeof tokens?.access_token === "string" });
        return null;
      },
    },
  });
  const { browser, landed } = await oauthSignIn(auth, mock);
  assert.equal(landed.status, 302);
  assert.equal(
    new URL(landed.headers.get("Location")!, "http://x").searchParams.get("error"),
    "access_denied",
  );
  assert.equal(browser.cookies.has("service-stack.session_token"), false);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].provider, mock.provider.id);
  assert.equal(seen[0].token, true);
  assert.equal(typeof seen[0].sub, "string");
});

Deno.test("events: signIn, sessionUpdate, signOut and signUp are told after the fact", async () => {
  const events: [string, unknown][] = [];
  const auth = makeAuth({
    events: {
      signIn: ({ user, provider }) => void events.push(["signIn", { sub: user.sub, provider }]),
      sessionUpdate: ({ session }) => void events.push(["sessionUpdate", session.user.name]),
      signOut: ({ session }) => void events.push(["signOut", session?.user.sub]),
      signUp: ({ user }) => void events.push(["signUp", user.sub]),
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  await browser.fetch("PATCH", "/auth/session", {
    json: { user: { name: "Ada L." } },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  await browser.fetch("POST", "/auth/signUp", {
    json: { name: "Bo" },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  assert.deepEqual(events, [
    ["signIn", { sub: ADA.sub, provider: "credentials" }],
    ["sessionUpdate", "Ada L."],
    ["signOut", ADA.sub],
    ["signUp", "new-user"],
  ]);
});

Deno.test("events: a throwing handler is logged and the response is unchanged", async () => {
  const entries: LogEntry[] = [];
  const auth = makeAuth({
    events: {
      signIn: () => {
        throw new Error("audit sink down: secret-detail");
      },
    },
    logger: { level: "debug", log: (entry: LogEntry) => entries.push(entry) },
  });
  const response = await new Browser(auth.handlers.ALL).signIn();
  assert.equal(response.status, 200);
  assert.ok(entries.some((entry) => entry.message === "events.signIn threw"));
  assert.ok(!JSON.stringify(entries).includes("secret-detail"));
});

/** Rejects when `promise` has not settled within `ms`: a hanging response fails the test, never stalls it. */
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

Deno.test("events: a handler that never finishes holds neither sign-in nor sign-out past the bound", async () => {
  const entries: LogEntry[] = [];
  const never = () => new Promise<void>(() => {});
  const auth = makeAuth({
    events: { signIn: never, signOut: never },
    logger: { level: "warn", log: (entry: LogEntry) => entries.push(entry) },
  });
  // The same instance with a short bound, so the test stays fast.
  const browser = new Browser(createHandler({ ...contextOf(auth), eventTimeoutMs: 50 }));
  const started = performance.now();
  const signedIn = await within(1_000, browser.signIn());
  assert.equal(signedIn.status, 200);
  assert.equal((await signedIn.json()).user.sub, ADA.sub);
  const signedOut = await within(
    1_000,
    browser.fetch("POST", "/auth/signOut", { headers: { "X-CSRF-Token": await browser.csrf() } }),
  );
  assert.equal(signedOut.status, 200);
  assert.deepEqual(await signedOut.json(), { ok: true });
  assert.ok(performance.now() - started < 1_000);
  const late = entries.filter((entry) => entry.level === "warn" && entry.details?.event);
  assert.deepEqual(late.map((entry) => entry.details?.event), ["signIn", "signOut"]);
  assert.match(late[0].message, /^events\.signIn did not finish in time/);
  // The event's payload (user, request) never reaches the log.
  assert.ok(!JSON.stringify(entries).includes(ADA.email!));
});

Deno.test("events: a handler that fails after the bound is still logged and ignored", async () => {
  const entries: LogEntry[] = [];
  let fail: (error: Error) => void = () => {};
  const auth = makeAuth({
    events: { signIn: () => new Promise<void>((_, reject) => fail = reject) },
    logger: { level: "warn", log: (entry: LogEntry) => entries.push(entry) },
    // The entries are compared exactly: no warning about requests without a client address.
    rateLimit: false,
  });
  const browser = new Browser(createHandler({ ...contextOf(auth), eventTimeoutMs: 20 }));
  const response = await within(1_000, browser.signIn());
  assert.equal(response.status, 200);
  await response.body?.cancel();
  fail(new Error("audit sink down"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(entries.map((entry) => entry.message), [
    "events.signIn did not finish in time; the response went on",
    "events.signIn threw",
  ]);
});

Deno.test("events: a handler that finishes within the bound is awaited and nothing is logged", async () => {
  const entries: LogEntry[] = [];
  const order: string[] = [];
  const auth = makeAuth({
    events: {
      signIn: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push("event");
      },
    },
    logger: { level: "debug", log: (entry: LogEntry) => entries.push(entry) },
  });
  const response = await new Browser(auth.handlers.ALL).signIn();
  order.push("response");
  assert.equal(response.status, 200);
  await response.body?.cancel();
  assert.deepEqual(order, ["event", "response"]);
  assert.ok(!entries.some((entry) => entry.message.startsWith("events.")));
  // The default bound: about a second and a half.
  assert.equal(contextOf(auth).eventTimeoutMs, EVENT_TIMEOUT_MS);
  assert.ok(EVENT_TIMEOUT_MS >= 1_000 && EVENT_TIMEOUT_MS <= 2_000);
});

Deno.test("config: callbacks and events are checked at createAuth", () => {
  assert.throws(
    () => makeAuth({ callbacks: { signIn: 5 } as never }),
    TypeError,
    "callbacks.signIn",
  );
  assert.throws(
    () => makeAuth({ callbacks: { session: () => null } as never }),
    TypeError,
    "callbacks.session",
  );
  assert.throws(
    () => makeAuth({ events: { login: () => {} } as never }),
    TypeError,
    "events.login",
  );
  assert.throws(() => makeAuth({ events: { signOut: "x" } as never }), TypeError, "events.signOut");
});

Deno.test("the same sub from two providers: the hook tells them apart, so they never become one user", async () => {
  const github = createMockProvider({
    id: "gh",
    baseURL: "http://gh.localhost",
    users: [{ sub: "583231", name: "Ada" }],
  });
  const gitlab = createMockProvider({
    id: "gl",
    baseURL: "http://gl.localhost",
    users: [{ sub: "583231", name: "Eve" }],
  });
  const auth = makeAuth({
    oauth: [github.provider, gitlab.provider],
    fetch: (input, init) =>
      String(input instanceof Request ? input.url : input).startsWith("http://gh.localhost")
        ? github.fetch(input, init)
        : gitlab.fetch(input, init),
    callbacks: { signIn: ({ user, provider }) => ({ ...user, sub: `${provider}|${user.sub}` }) },
  });
  const subs: string[] = [];
  for (const mock of [github, gitlab]) {
    const { browser } = await oauthSignIn(auth, mock);
    subs.push((await (await browser.fetch("GET", "/auth/session")).json()).user.sub);
  }
  assert.deepEqual(subs, ["gh|583231", "gl|583231"]);
});
