// The rules, the order of checks, the headers and the failures of the rate limiter, through
// the handlers (the address given as Deno.serve gives it).
import assert from "node:assert/strict";
import { AuthError, createAuth, type LogEntry, memoryStore, type SessionStore } from "../../mod.ts";
import { Clock, from, fullAuth, request, SECRET, statuses } from "./_helpers.ts";

const ADA = from("203.0.113.7");

/** Every limited route this branch serves: method, path, rule, max, window. */
const LIMITED: readonly [string, string, string, number, number][] = [
  ["POST", "signIn/credentials", "/signIn/credentials", 30, 60],
  ["POST", "callback/email", "/callback/email", 30, 60],
  ["POST", "passkey/signIn", "/passkey/signIn", 30, 60],
  ["POST", "twoFactor/verify", "/twoFactor/verify", 30, 60],
  ["POST", "password/reset", "/password/reset", 30, 60],
  ["POST", "signUp", "/signUp", 10, 3600],
  ["POST", "signIn/email", "/signIn/email", 10, 3600],
  ["POST", "password/forgot", "/password/forgot", 10, 3600],
  ["POST", "email/verify", "/email/verify", 10, 3600],
  ["POST", "email/change", "/email/change", 10, 3600],
  ["GET", "signIn/github", "/signIn/:oauth", 60, 60],
  ["POST", "passkey/register/options", "/passkey/register/options", 60, 60],
  ["POST", "passkey/signIn/options", "/passkey/signIn/options", 60, 60],
];

Deno.test("every route that signs in, sends a message or creates something has its default rule", async () => {
  const auth = fullAuth();
  for (const [method, path, rule, max, window] of LIMITED) {
    const response = await auth.handlers.ALL(request(path, { method }), ADA);
    await response.body?.cancel();
    assert.equal(response.headers.get("RateLimit-Policy"), `"${rule}";q=${max};w=${window}`, path);
    assert.equal(response.headers.get("RateLimit"), `"${rule}";r=${max - 1};t=${window}`, path);
  }
});

Deno.test("routes that do not sign in, send or create are not limited and carry no RateLimit headers", async () => {
  const auth = fullAuth();
  const free: [string, string][] = [
    ["GET", "session"],
    ["GET", "csrfToken"],
    ["GET", "callback/email?token=x"],
    ["GET", "callback/github?code=x&state=y"],
    ["POST", "signOut"],
    ["GET", "password/reset?token=x"],
  ];
  for (const [method, path] of free) {
    for (let i = 0; i < 70; i++) {
      const response = await auth.handlers.ALL(request(path, { method }), ADA);
      await response.body?.cancel();
      assert.notEqual(response.status, 429, path);
      assert.equal(response.headers.get("RateLimit-Policy"), null, path);
      assert.equal(response.headers.get("RateLimit"), null, path);
    }
  }
});

Deno.test("the 31st credentials sign-in in a minute is 429 temporarily_unavailable with Retry-After, and the window restarts", async () => {
  const clock = new Clock();
  const auth = fullAuth({ clock: clock.fn });
  const send = () => auth.handlers.ALL(request("signIn/credentials"), ADA);
  assert.ok((await statuses(30, send)).every((status) => status === 403));
  clock.advance(20);
  const refused = await send();
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("Retry-After"), "40");
  assert.equal(refused.headers.get("RateLimit"), '"/signIn/credentials";r=0;t=40');
  assert.equal((await refused.json()).error, "temporarily_unavailable");
  clock.advance(40);
  const again = await send();
  await again.body?.cancel();
  assert.equal(again.status, 403);
  assert.equal(again.headers.get("RateLimit"), '"/signIn/credentials";r=29;t=60');
});

Deno.test("every request to a limited route counts, those refused by CSRF, Origin or body checks too", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signUp": { max: 3 } } } });
  const send = (init: RequestInit) => auth.handlers.ALL(request("signUp", init), ADA);
  assert.equal((await send({})).status, 403); // no CSRF token
  assert.equal((await send({ headers: { Origin: "https://evil.example" } })).status, 403);
  assert.equal(
    (await send({ body: "not json", headers: { "Content-Type": "text/plain" } })).status,
    403,
  );
  assert.equal((await send({})).status, 429);
});

Deno.test("path and method come first: a 404 or 405 is not counted and has no RateLimit headers", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signUp": { max: 1 } } } });
  for (let i = 0; i < 5; i++) {
    const wrongMethod = await auth.handlers.ALL(request("signUp", { method: "GET" }), ADA);
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get("RateLimit-Policy"), null);
    const onlyGet = await auth.handlers.GET(request("signUp"), ADA);
    assert.equal(onlyGet.status, 405);
    const preflight = await auth.handlers.ALL(request("signUp", { method: "OPTIONS" }), ADA);
    assert.equal(preflight.headers.get("RateLimit-Policy"), null);
  }
  assert.equal((await auth.handlers.ALL(request("signUp"), ADA)).status, 403);
  assert.equal((await auth.handlers.ALL(request("signUp"), ADA)).status, 429);
});

Deno.test("the rate limit comes before the Origin check: an untrusted Origin over the limit gets 429, not 403", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signIn/credentials": { max: 1 } } } });
  const evil = { headers: { Origin: "https://evil.example" } };
  const first = await auth.handlers.ALL(request("signIn/credentials", evil), ADA);
  assert.equal(first.status, 403);
  assert.equal((await first.json()).error, "access_denied");
  assert.equal(first.headers.get("RateLimit"), '"/signIn/credentials";r=0;t=60');
  const second = await auth.handlers.ALL(request("signIn/credentials", evil), ADA);
  assert.equal(second.status, 429);
});

Deno.test("every response of a limited route carries both headers: success, 4xx and 429", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signIn/credentials": { max: 3 } } } });
  const csrf = await auth.handlers.ALL(request("csrfToken", { method: "GET" }), ADA);
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers.getSetCookie()[0].split(";")[0];
  const headers = { Cookie: cookie, "X-CSRF-Token": csrfToken };
  const signIn = (password: string) =>
    auth.handlers.ALL(
      request("signIn/credentials", {
        headers,
        body: JSON.stringify({ username: "ada", password }),
      }),
      ADA,
    );
  const seen: number[] = [];
  for (const password of ["correct horse", "wrong", "correct horse", "correct horse"]) {
    const response = await signIn(password);
    await response.body?.cancel();
    seen.push(response.status);
    assert.equal(response.headers.get("RateLimit-Policy"), '"/signIn/credentials";q=3;w=60');
    assert.match(response.headers.get("RateLimit")!, /^"\/signIn\/credentials";r=\d+;t=\d+$/);
  }
  assert.deepEqual(seen, [200, 401, 200, 429]);
});

Deno.test("two addresses have separate budgets, and each rule is its own budget", async () => {
  const auth = fullAuth({
    rateLimit: { rules: { "/signUp": { max: 2 }, "/signIn/email": { max: 2 } } },
  });
  const signUp = (address: string) => auth.handlers.ALL(request("signUp"), from(address));
  assert.deepEqual(await statuses(3, () => signUp("198.51.100.1")), [403, 403, 429]);
  assert.deepEqual(await statuses(3, () => signUp("198.51.100.2")), [403, 403, 429]);
  const email = () => auth.handlers.ALL(request("signIn/email"), from("198.51.100.1"));
  assert.deepEqual(await statuses(3, email), [403, 403, 429]);
});

Deno.test("rateLimit: false turns every rule off, with no headers", async () => {
  const auth = fullAuth({ rateLimit: false });
  for (let i = 0; i < 40; i++) {
    const response = await auth.handlers.ALL(request("signIn/credentials"), ADA);
    await response.body?.cancel();
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("RateLimit-Policy"), null);
  }
});

Deno.test("rules merge over the defaults by name: changed, turned off, and the rest kept", async () => {
  const auth = fullAuth({
    rateLimit: {
      rules: {
        "/signUp": { max: 2, window: 120 },
        "/signIn/email": { max: 4 },
        "/signIn/:oauth": false,
      },
    },
  });
  const policy = async (path: string, method = "POST") => {
    const response = await auth.handlers.ALL(request(path, { method }), ADA);
    await response.body?.cancel();
    return response.headers.get("RateLimit-Policy");
  };
  assert.equal(await policy("signUp"), '"/signUp";q=2;w=120');
  assert.equal(await policy("signIn/email"), '"/signIn/email";q=4;w=3600');
  assert.equal(await policy("signIn/github", "GET"), null);
  assert.equal(await policy("signIn/credentials"), '"/signIn/credentials";q=30;w=60');
});

Deno.test("rules of routes other features bring are known: /link/:provider, /signIn/sso, /apiKeys", () => {
  fullAuth({
    rateLimit: {
      rules: { "/link/:provider": { max: 5 }, "/signIn/sso": false, "/apiKeys": { window: 60 } },
    },
  });
});

Deno.test("an unknown rule name is a createAuth TypeError that names the known rules", () => {
  assert.throws(
    () => fullAuth({ rateLimit: { rules: { "/signin/credentials": { max: 5 } } } }),
    (error: unknown) =>
      error instanceof TypeError && error.message.includes('"/signin/credentials"') &&
      error.message.includes("/signIn/credentials, ") && error.message.includes("/apiKeys"),
  );
});

Deno.test("invalid rateLimit values are createAuth TypeErrors", () => {
  const invalid: unknown[] = [
    true,
    "off",
    { rules: [] },
    { rules: { "/signUp": { max: 0 } } },
    { rules: { "/signUp": { max: 1.5 } } },
    { rules: { "/signUp": { window: -1 } } },
    { rules: { "/signUp": { max: 1, burst: 2 } } },
    { rules: { "/signUp": true } },
    { key: "x-forwarded-for" },
    { limit: 3 },
  ];
  for (const rateLimit of invalid) {
    assert.throws(() => fullAuth({ rateLimit } as never), TypeError, JSON.stringify(rateLimit));
  }
});

Deno.test("key(request, route) chooses what to count by; null falls back to the address", async () => {
  const routes: string[] = [];
  const auth = fullAuth({
    rateLimit: {
      rules: { "/signUp": { max: 1 } },
      key: (request, route) => {
        routes.push(route);
        return request.headers.get("X-Tenant");
      },
    },
  });
  const send = (tenant?: string) =>
    auth.handlers.ALL(request("signUp", { headers: tenant ? { "X-Tenant": tenant } : {} }), ADA);
  assert.deepEqual(await statuses(2, () => send("a")), [403, 429]);
  assert.deepEqual(await statuses(2, () => send("b")), [403, 429]);
  assert.deepEqual(await statuses(2, () => send()), [403, 429]);
  assert.deepEqual(new Set(routes), new Set(["/signUp"]));
  // With a key, no address is needed.
  const noAddress = await auth.handlers.ALL(request("signUp", { headers: { "X-Tenant": "a" } }));
  assert.equal(noAddress.status, 429);
});

Deno.test("a key function that throws or returns a non-string is a logged 500; an AuthError passes through", async () => {
  const log: LogEntry[] = [];
  const throwing = fullAuth({
    rateLimit: {
      key: () => {
        throw new Error("db down");
      },
    },
  }, log);
  const response = await throwing.handlers.ALL(request("signUp"), ADA);
  assert.equal(response.status, 500);
  assert.ok(!(await response.text()).includes("db down"));
  const wrong = fullAuth({ rateLimit: { key: () => 42 as never } }, log);
  assert.equal((await wrong.handlers.ALL(request("signUp"), ADA)).status, 500);
  assert.ok(log.some((entry) => entry.level === "error"));
  const chosen = fullAuth({
    rateLimit: {
      key: () => {
        throw new AuthError("access_denied", "No tenant.", { status: 403 });
      },
    },
  });
  assert.equal((await chosen.handlers.ALL(request("signUp"), ADA)).status, 403);
});

Deno.test("without an address or a key the per-address rules are skipped, with one warning per instance", async () => {
  const log: LogEntry[] = [];
  const auth = fullAuth({ rateLimit: { rules: { "/signUp": { max: 1 } } } }, log);
  for (let i = 0; i < 5; i++) {
    const response = await auth.handlers.ALL(request("signUp"));
    await response.body?.cancel();
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("RateLimit-Policy"), null);
    await (await auth.handlers.ALL(request("signIn/credentials"))).body?.cancel();
    await (await auth.handlers.ALL(request("signUp"), { remoteAddr: {} })).body?.cancel();
  }
  const warnings = log.filter((entry) =>
    entry.level === "warn" && /client address/.test(entry.message)
  );
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].message, /remoteAddr/);
});

Deno.test("a browser over the limit gets an HTML page that says how long to wait", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signIn/:oauth": { max: 1 } } } });
  const open = () =>
    auth.handlers.ALL(
      request("signIn/github", { method: "GET", headers: { Accept: "text/html" } }),
      ADA,
    );
  assert.equal((await open()).status, 302);
  const page = await open();
  assert.equal(page.status, 429);
  assert.match(page.headers.get("Content-Type")!, /^text\/html/);
  assert.equal(page.headers.get("Retry-After"), "60");
  assert.equal(page.headers.get("RateLimit"), '"/signIn/:oauth";r=0;t=60');
  assert.match(await page.text(), /Please wait 1 minute before you try again/);
  // A form post from a page gets the page too; a script (no text/html) gets JSON.
  const form = await auth.handlers.ALL(
    request("signUp", {
      headers: { Accept: "text/html", "Content-Type": "application/x-www-form-urlencoded" },
    }),
    ADA,
  );
  await form.body?.cancel();
  const script = await auth.handlers.ALL(request("signIn/github", { method: "GET" }), ADA);
  assert.equal(script.status, 429);
  assert.equal((await script.json()).error, "temporarily_unavailable");
});

/** A store whose `hit` fails (or never answers); every other method is a memory store's. */
function brokenStore(hit: () => Promise<never>): SessionStore & { hits_: number } {
  const base = memoryStore();
  const store = Object.create(base) as SessionStore & { hits_: number };
  store.hits_ = 0;
  store.hit = () => {
    store.hits_++;
    return hit();
  };
  return store;
}

Deno.test("a failing store fails closed: 503 temporarily_unavailable, the route never runs", async () => {
  let authorized = 0;
  const store = brokenStore(() => Promise.reject(new Error("connection refused")));
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    env: {},
    logger: false,
    credentials: { authorize: () => (authorized++, { sub: "1" }), throttle: false },
    session: { store },
  });
  const response = await auth.handlers.ALL(request("signIn/credentials"), ADA);
  assert.equal(response.status, 503);
  assert.equal((await response.json()).error, "temporarily_unavailable");
  assert.equal(response.headers.get("RateLimit-Policy"), '"/signIn/credentials";q=30;w=60');
  assert.equal(authorized, 0);
  assert.equal(store.hits_, 1);
});

Deno.test("a store that does not answer within session.storeTimeout fails closed with 503", async () => {
  const store = brokenStore(() => new Promise<never>(() => {}));
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    env: {},
    logger: false,
    signUp: { onCreateUser: () => ({ sub: "1" }) },
    session: { store, storeTimeout: 50 },
  });
  const response = await auth.handlers.ALL(request("signUp"), ADA);
  assert.equal(response.status, 503);
  await response.body?.cancel();
});

/** A memory store that counts its calls by method. */
function countingStore(): { store: SessionStore; calls: Map<string, number> } {
  const base = memoryStore();
  const calls = new Map<string, number>();
  const store = new Proxy(base, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.set(String(name), (calls.get(String(name)) ?? 0) + 1);
        return value.apply(target, args);
      };
    },
  });
  return { store, calls };
}

Deno.test("a limited route costs exactly one store call more than the same route unlimited", async () => {
  const total = async (rateLimit: false | undefined) => {
    const { store, calls } = countingStore();
    const auth = createAuth({
      oauth: [],
      secret: SECRET,
      env: {},
      logger: false,
      credentials: { authorize: () => ({ sub: "1" }) },
      session: { store },
      rateLimit,
    });
    const csrf = await auth.handlers.ALL(request("csrfToken", { method: "GET" }), ADA);
    const { csrfToken } = await csrf.json();
    const cookie = csrf.headers.getSetCookie()[0].split(";")[0];
    calls.clear();
    const response = await auth.handlers.ALL(
      request("signIn/credentials", {
        headers: { Cookie: cookie, "X-CSRF-Token": csrfToken },
        body: JSON.stringify({ username: "ada", password: "pw" }),
      }),
      ADA,
    );
    assert.equal(response.status, 200);
    await response.body?.cancel();
    return { count: [...calls.values()].reduce((a, b) => a + b, 0), hits: calls.get("hit") ?? 0 };
  };
  const limited = await total(undefined);
  const free = await total(false);
  assert.equal(limited.count, free.count + 1);
  assert.equal(limited.hits, free.hits + 1);
});

Deno.test("the per-username throttle stays as it is beside the per-address rule", async () => {
  const auth = fullAuth();
  const csrf = await auth.handlers.ALL(request("csrfToken", { method: "GET" }), ADA);
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers.getSetCookie()[0].split(";")[0];
  const guess = (address: string) =>
    auth.handlers.ALL(
      request("signIn/credentials", {
        headers: { Cookie: cookie, "X-CSRF-Token": csrfToken },
        body: JSON.stringify({ username: "ada", password: "guess" }),
      }),
      from(address),
    );
  // Five guesses from five addresses, then a sixth from a fresh one: the username is throttled.
  const seen = [];
  for (let i = 1; i <= 6; i++) {
    const response = await guess(`192.0.2.${i}`);
    await response.body?.cancel();
    seen.push(response.status);
  }
  assert.deepEqual(seen, [401, 401, 401, 401, 401, 429]);
});

Deno.test("a route a feature adds later only needs its rule: POST /apiKeys is limited, GET /apiKeys is not", async () => {
  const auth = fullAuth({ apiKeys: { store: memoryStore() } } as never);
  const create = await auth.handlers.ALL(request("apiKeys"), ADA);
  await create.body?.cancel();
  assert.equal(create.headers.get("RateLimit-Policy"), '"/apiKeys";q=10;w=3600');
  const list = await auth.handlers.ALL(request("apiKeys", { method: "GET" }), ADA);
  await list.body?.cancel();
  assert.equal(list.headers.get("RateLimit-Policy"), null);
});
