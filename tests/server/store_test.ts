// Sessions that really end: with session.store, sign-out revokes everywhere,
// apps can list and end sessions, each OAuth state is single-use, failed
// credentials are throttled, and a failing store fails closed.
import assert from "node:assert/strict";
import { type LogEntry, memoryStore, type SessionStore } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { ADA, assertError, assertNoSession, Browser, Clock, makeAuth } from "./_helpers.ts";

const SESSION = "service-stack.session_token";

function withStore(
  store: SessionStore = memoryStore(),
  overrides: Parameters<typeof makeAuth>[0] = {},
) {
  return makeAuth({ session: { store }, ...overrides });
}

function getSession(auth: ReturnType<typeof makeAuth>, cookie: string) {
  return auth.handlers.ALL(
    new Request("http://localhost:8000/auth/session", { headers: { Cookie: cookie } }),
  );
}

async function signOut(browser: Browser) {
  return await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
}

Deno.test("store: a cookie copied before sign-out is no session afterwards", async () => {
  const auth = withStore();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const copied = browser.cookieHeader();
  assert.equal((await (await getSession(auth, copied)).json()).user.sub, ADA.sub);
  assert.equal((await signOut(browser)).status, 200);
  await assertNoSession(await getSession(auth, copied));
  // The replayer fetches a fresh CSRF token with the copied cookie: still no session.
  const thief = new Browser(auth.handlers.ALL);
  for (const pair of copied.split("; ")) {
    const [name, value] = pair.split("=");
    thief.cookies.set(name, value);
  }
  const patch = await thief.fetch("PATCH", "/auth/session", {
    json: { user: { name: "Eve" } },
    headers: { "X-CSRF-Token": await thief.csrf() },
  });
  await assertError(patch, 401, "invalid_session_token");
});

Deno.test("store: without a store, a copied cookie outlives sign-out (stateless, as documented)", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const copied = browser.cookieHeader();
  await signOut(browser);
  assert.equal((await getSession(auth, copied)).status, 200);
  assert.notEqual(await (await getSession(auth, copied)).json(), null);
});

Deno.test("store: sign-out on one instance revokes on another that had the token cached", async () => {
  const store = memoryStore();
  const a = withStore(store);
  const b = withStore(store);
  const browser = new Browser(a.handlers.ALL);
  await browser.signIn();
  const cookie = browser.cookieHeader();
  assert.equal((await getSession(b, cookie)).status, 200); // b verifies and caches it
  await signOut(browser);
  await assertNoSession(await getSession(b, cookie));
});

Deno.test("store: revokeSessions ends every session of a user; listSessions shows them with current", async () => {
  const auth = withStore();
  const laptop = new Browser(auth.handlers.ALL);
  const phone = new Browser(auth.handlers.ALL);
  await laptop.fetch("GET", "/auth/csrfToken", { headers: { "User-Agent": "Laptop" } });
  await laptop.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "correct horse" },
    headers: {
      "X-CSRF-Token": laptop.cookies.get("service-stack.csrf_token")!,
      "User-Agent": "Laptop",
    },
  });
  await phone.signIn();
  const request = new Request("http://localhost:8000/", {
    headers: { Cookie: laptop.cookieHeader() },
  });
  const sessions = await auth.api.listSessions(ADA.sub, { request });
  assert.equal(sessions.length, 2);
  assert.deepEqual(sessions.map((s) => s.current).sort(), [false, true]);
  assert.equal(sessions.find((s) => s.current)?.userAgent, "Laptop");
  assert.match(sessions[0].createdAt, /^\d{4}-\d\d-\d\dT.*Z$/);
  assert.equal(await auth.api.revokeSessions(ADA.sub), 2);
  await assertNoSession(await getSession(auth, laptop.cookieHeader()));
  await assertNoSession(await getSession(auth, phone.cookieHeader()));
  assert.deepEqual(await auth.api.listSessions(ADA.sub), []);
});

Deno.test("store: revokeSession ends one device only, and emits sessionRevoked", async () => {
  const revoked: unknown[] = [];
  const auth = withStore(memoryStore(), {
    events: { sessionRevoked: (e) => void revoked.push(e) },
  });
  const one = new Browser(auth.handlers.ALL);
  const two = new Browser(auth.handlers.ALL);
  await one.signIn();
  await two.signIn();
  const request = new Request("http://localhost:8000/", {
    headers: { Cookie: one.cookieHeader() },
  });
  const id = (await auth.api.listSessions(ADA.sub, { request })).find((s) => s.current)!.id;
  assert.equal(await auth.api.revokeSession(id), true);
  assert.equal(await auth.api.revokeSession(id), false);
  await assertNoSession(await getSession(auth, one.cookieHeader()));
  assert.equal((await getSession(auth, two.cookieHeader())).status, 200);
  assert.notEqual(await (await getSession(auth, two.cookieHeader())).json(), null);
  assert.deepEqual(revoked, [{ sessionId: id }]);
});

Deno.test("store: signing in again revokes the browser's previous session instead of leaving a device", async () => {
  const auth = withStore();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const first = browser.cookieHeader();
  await browser.signIn();
  assert.equal((await auth.api.listSessions(ADA.sub)).length, 1);
  await assertNoSession(await getSession(auth, first));
});

Deno.test("store: the list/revoke API without a store throws a TypeError naming session.store", async () => {
  const auth = makeAuth();
  await assert.rejects(() => auth.api.listSessions("x"), TypeError, "session.store");
  await assert.rejects(() => auth.api.revokeSession("x"), TypeError, "session.store");
  await assert.rejects(() => auth.api.revokeSessions("x"), TypeError, "session.store");
});

async function callbackURL(
  auth: ReturnType<typeof makeAuth>,
  mock: ReturnType<typeof createMockProvider>,
) {
  const browser = new Browser(auth.handlers.ALL);
  const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
  const back = new URL((await mock.fetch(start.headers.get("Location")!)).headers.get("Location")!);
  return { browser, path: `${back.pathname}${back.search}`, cookie: browser.cookieHeader() };
}

function landedError(response: Response): string | null {
  return new URL(response.headers.get("Location")!, "http://x").searchParams.get(
    "error_description",
  );
}

/** The `error` code a callback redirect carries (the description is a plain sentence for people). */
function landedCode(response: Response): string | null {
  return new URL(response.headers.get("Location")!, "http://x").searchParams.get("error");
}

Deno.test("store: a callback replayed with the same flow cookies is refused", async () => {
  const mock = createMockProvider();
  const auth = withStore(memoryStore(), { oauth: [mock.provider], fetch: mock.fetch });
  const { path, cookie } = await callbackURL(auth, mock);
  const request = () =>
    new Request(`http://localhost:8000${path}`, { headers: { Cookie: cookie } });
  const first = await auth.handlers.ALL(request());
  assert.equal(landedError(first), null);
  const replay = await auth.handlers.ALL(request());
  // People read a plain sentence; the code says what failed.
  assert.equal(
    new URL(replay.headers.get("Location")!, "http://x").searchParams.get("error"),
    "invalid_request",
  );
  assert.equal(replay.headers.getSetCookie().some((l) => l.startsWith(`${SESSION}=e`)), false);
});

Deno.test("store: two callbacks with one state at once: exactly one gets a session", async () => {
  const mock = createMockProvider();
  const store = memoryStore();
  const a = withStore(store, { oauth: [mock.provider], fetch: mock.fetch });
  const b = withStore(store, { oauth: [mock.provider], fetch: mock.fetch });
  const { path, cookie } = await callbackURL(a, mock);
  const responses = await Promise.all(
    [a, b].map((auth) =>
      auth.handlers.ALL(
        new Request(`http://localhost:8000${path}`, { headers: { Cookie: cookie } }),
      )
    ),
  );
  const won = responses.filter((r) => landedError(r) === null);
  assert.equal(won.length, 1);
});

Deno.test("store: without a store, a callback replayed with the same flow cookies is refused in this process", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const { path, cookie } = await callbackURL(auth, mock);
  const request = () =>
    new Request(`http://localhost:8000${path}`, { headers: { Cookie: cookie } });
  const first = await auth.handlers.ALL(request());
  assert.equal(landedError(first), null);
  assert.equal(first.headers.getSetCookie().some((l) => l.startsWith(`${SESSION}=e`)), true);
  const tokenRequests = () => mock.requests.filter((r) => r.endpoint === "token").length;
  const replay = await auth.handlers.ALL(request());
  assert.equal(landedCode(replay), "invalid_request");
  assert.equal(replay.headers.getSetCookie().some((l) => l.startsWith(`${SESSION}=e`)), false);
  // The provider was not asked again: its single-use code is not the only guard.
  assert.equal(tokenRequests(), 1);
});

Deno.test("store: a state's mark lives as long as its flow cookies, so it ends at the same time on every try", async () => {
  const mock = createMockProvider();
  const clock = new Clock(Date.now());
  const ttls: number[] = [];
  const inner = memoryStore({ clock: clock.fn });
  const ends: number[] = [];
  const store: SessionStore = {
    ...inner,
    consume: (key, ttl) => {
      ttls.push(ttl);
      ends.push(clock.now / 1000 + ttl);
      return inner.consume(key, ttl);
    },
  };
  const auth = withStore(store, { oauth: [mock.provider], fetch: mock.fetch, clock: clock.fn });
  const { path, cookie } = await callbackURL(auth, mock);
  const request = () =>
    new Request(`http://localhost:8000${path}`, { headers: { Cookie: cookie } });
  clock.advance(100);
  assert.equal(landedError(await auth.handlers.ALL(request())), null);
  clock.advance(200);
  assert.equal(landedCode(await auth.handlers.ALL(request())), "invalid_request");
  // 600 s of flow cookie (from a whole second), 60 s of margin for the JOSE clock tolerance,
  // minus the time passed: the same end both times.
  assert.ok(ttls[0] > 559 && ttls[0] <= 560, String(ttls[0]));
  assert.ok(Math.abs(ends[0] - ends[1]) < 0.001, `${ends}`);
});

Deno.test("store: a flood of distinct usernames signs nobody out and unlocks no username", async () => {
  // maxEntries (deprecated) bounds each kind on its own: once it was one room for all of them.
  const auth = withStore(memoryStore({ maxEntries: 50 }), {
    credentials: {
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? ADA : null,
      throttle: { maxAttempts: 3, window: 900 },
    },
  });
  const user = new Browser(auth.handlers.ALL);
  assert.equal((await user.signIn()).status, 200);
  const attacker = new Browser(auth.handlers.ALL);
  const token = await attacker.csrf();
  const attempt = (username: string) =>
    attacker.fetch("POST", "/auth/signIn/credentials", {
      json: { username, password: "wrong" },
      headers: { "X-CSRF-Token": token },
    });
  for (let i = 0; i < 3; i++) await attempt("grace");
  await assertError(await attempt("grace"), 429, "temporarily_unavailable");
  for (let i = 0; i < 500; i++) await (await attempt(`flood-${i}`)).body?.cancel();
  assert.equal((await (await getSession(auth, user.cookieHeader())).json()).user.sub, ADA.sub);
  await assertError(await attempt("grace"), 429, "temporarily_unavailable");
});

Deno.test("store: a flood of completed flows stops no sign-in and lets no callback be replayed", async () => {
  const mock = createMockProvider();
  const clock = new Clock(Date.now());
  const store = memoryStore({ maxEntries: 10, clock: clock.fn });
  const auth = withStore(store, { oauth: [mock.provider], fetch: mock.fetch, clock: clock.fn });
  const tokenRequests = () => mock.requests.filter((r) => r.endpoint === "token").length;
  const completed: { path: string; cookie: string }[] = [];
  for (let i = 0; i < 40; i++) {
    const flow = await callbackURL(auth, mock);
    clock.advance(2);
    const response = await auth.handlers.ALL(
      new Request(`http://localhost:8000${flow.path}`, { headers: { Cookie: flow.cookie } }),
    );
    assert.equal(landedError(response), null, `sign-in ${i}`);
    completed.push(flow);
  }
  // A new sign-in still works.
  const fresh = await callbackURL(auth, mock);
  const signedIn = await auth.handlers.ALL(
    new Request(`http://localhost:8000${fresh.path}`, { headers: { Cookie: fresh.cookie } }),
  );
  assert.equal(landedError(signedIn), null);
  // No completed callback can be replayed, whether its mark was kept or dropped.
  const before = tokenRequests();
  for (const { path, cookie } of [...completed, fresh]) {
    const replay = await auth.handlers.ALL(
      new Request(`http://localhost:8000${path}`, { headers: { Cookie: cookie } }),
    );
    assert.equal(landedCode(replay), "invalid_request");
  }
  assert.equal(tokenRequests(), before);
});

Deno.test("throttle: five failed sign-ins for a username, then 429 with Retry-After; others unaffected", async () => {
  const auth = withStore();
  const browser = new Browser(auth.handlers.ALL);
  const attempt = async (username: string, password: string) =>
    await browser.fetch("POST", "/auth/signIn/credentials", {
      json: { username, password },
      headers: { "X-CSRF-Token": await browser.csrf() },
    });
  for (let i = 0; i < 5; i++) {
    await assertError(await attempt("ada", "wrong"), 401, "access_denied");
  }
  const blocked = await attempt("ada", "correct horse");
  assert.equal(blocked.headers.get("Retry-After"), "900");
  await assertError(blocked, 429, "temporarily_unavailable");
  // The username is compared case-insensitively; another username is not throttled.
  await assertError(await attempt("ADA", "correct horse"), 429, "temporarily_unavailable");
  await assertError(await attempt("bob", "wrong"), 401, "access_denied");
});

Deno.test("throttle: a success clears the count; successes never count", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  for (let i = 0; i < 4; i++) {
    await browser.fetch("POST", "/auth/signIn/credentials", {
      json: { username: "ada", password: "wrong" },
      headers: { "X-CSRF-Token": await browser.csrf() },
    });
  }
  assert.equal((await browser.signIn()).status, 200);
  for (let i = 0; i < 20; i++) assert.equal((await browser.signIn()).status, 200);
});

Deno.test("throttle: attempts in flight count, so parallel sign-ins beyond the limit are 429, never 401", async () => {
  const auth = makeAuth();
  const parallel = await Promise.all(
    Array.from({ length: 20 }, () => new Browser(auth.handlers.ALL).signIn()),
  );
  const statuses = parallel.map((r) => r.status);
  assert.ok(statuses.filter((status) => status === 200).length >= 1);
  assert.deepEqual(statuses.filter((status) => status !== 200 && status !== 429), []);
});

Deno.test("throttle: shared through the store across instances, per process without one", async () => {
  const store = memoryStore();
  const [a, b] = [withStore(store), withStore(store)];
  const fail = async (auth: ReturnType<typeof makeAuth>) => {
    const browser = new Browser(auth.handlers.ALL);
    return await browser.fetch("POST", "/auth/signIn/credentials", {
      json: { username: "ada", password: "wrong" },
      headers: { "X-CSRF-Token": await browser.csrf() },
    });
  };
  for (let i = 0; i < 5; i++) await fail(i % 2 ? a : b);
  assert.equal((await fail(b)).status, 429);
  const [c, d] = [makeAuth(), makeAuth()];
  for (let i = 0; i < 5; i++) await fail(c);
  assert.equal((await fail(c)).status, 429);
  assert.equal((await fail(d)).status, 401);
});

Deno.test("throttle: configurable, and false turns it off", async () => {
  const strict = makeAuth({
    credentials: { authorize: () => null, throttle: { maxAttempts: 2, window: 60 } },
  });
  const off = makeAuth({ credentials: { authorize: () => null, throttle: false } });
  for (
    const [auth, statuses] of [[strict, [401, 401, 429]], [off, [
      401,
      401,
      401,
      401,
      401,
      401,
    ]]] as const
  ) {
    const browser = new Browser(auth.handlers.ALL);
    const seen = [];
    for (const _ of statuses) seen.push((await browser.signIn()).status);
    assert.deepEqual(seen, statuses);
  }
  assert.throws(
    () => makeAuth({ credentials: { authorize: () => null, throttle: { maxAttempts: 0 } } }),
    TypeError,
  );
});

/** A store whose every call fails in a chosen way. */
function broken(mode: "reject" | "hang" | "garbage"): SessionStore {
  const inner = memoryStore();
  const fail = (value: unknown) => {
    if (mode === "reject") return Promise.reject(new Error("connection refused"));
    if (mode === "hang") return new Promise(() => {});
    return Promise.resolve(value);
  };
  return {
    saveSession: (s) =>
      mode === "garbage" ? inner.saveSession(s) : fail(undefined) as Promise<void>,
    getSession: () => fail({ id: 5 }) as never,
    deleteSession: () => fail("yes") as never,
    listSessions: () => fail("nope") as never,
    deleteSessions: () => fail("x") as never,
    consume: () => fail("maybe") as never,
    hit: () => fail(null) as never,
    hits: () => fail(undefined) as never,
    resetHits: () => fail(undefined) as never,
  };
}

for (const mode of ["reject", "hang"] as const) {
  Deno.test(`store ${mode}s: sign-in is 503 with no session cookie; GET /session is 503; logged`, async () => {
    const entries: LogEntry[] = [];
    const auth = withStore(broken(mode), {
      session: { store: broken(mode), storeTimeout: 50 },
      logger: { level: "error", log: (entry: LogEntry) => entries.push(entry) },
    });
    const browser = new Browser(auth.handlers.ALL);
    const signIn = await browser.signIn();
    await assertError(signIn, 503, "temporarily_unavailable");
    assert.equal(browser.cookies.has(SESSION), false);
    assert.ok(entries.some((entry) => entry.message === "session store failed"));
  });
}

Deno.test("store failing after sign-in: reads fail closed, sign-out clears cookies but answers 503", async () => {
  let down = false;
  const inner = memoryStore();
  const flaky = Object.fromEntries(
    Object.entries(inner).map(([name, method]) => [
      name,
      (...args: unknown[]) =>
        down
          ? Promise.reject(new Error("down"))
          : (method as (...a: unknown[]) => unknown)(...args),
    ]),
  ) as unknown as SessionStore;
  const auth = withStore(flaky, { logger: false });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const cookie = browser.cookieHeader();
  down = true;
  await assertError(await getSession(auth, cookie), 503, "temporarily_unavailable");
  const request = new Request("http://localhost:8000/", { headers: { Cookie: cookie } });
  assert.equal(await auth.api.getSession(request), null);
  const out = await auth.handlers.ALL(
    new Request("http://localhost:8000/auth/signOut", {
      method: "POST",
      headers: { Cookie: cookie, "X-CSRF-Token": browser.cookies.get("service-stack.csrf_token")! },
    }),
  );
  assert.equal(out.status, 503);
  down = false;
  assert.equal((await getSession(auth, cookie)).status, 200, "the session was not revoked");
});

Deno.test("store answering garbage grants no session: a logged 503", async () => {
  const entries: LogEntry[] = [];
  const auth = withStore(broken("garbage"), {
    logger: { level: "error", log: (entry: LogEntry) => entries.push(entry) },
  });
  const browser = new Browser(auth.handlers.ALL);
  // Saving works, but every answer read back is garbage: the throttle check fails closed first.
  await assertError(await browser.signIn(), 503, "temporarily_unavailable");
  assert.equal(browser.cookies.has(SESSION), false);
  assert.ok(entries.some((entry) => entry.message === "session store failed"));
});

Deno.test("config: session.store must be a SessionStore and storeTimeout whole milliseconds", () => {
  assert.throws(
    () => makeAuth({ session: { store: {} as SessionStore } }),
    TypeError,
    "session.store",
  );
  assert.throws(
    () => makeAuth({ session: { store: memoryStore(), storeTimeout: 0 } }),
    TypeError,
    "storeTimeout",
  );
});
