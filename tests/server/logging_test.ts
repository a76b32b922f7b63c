// Logging: entries never carry the secret, a token or cookie value, a
// password or a client secret; appName, LOG_LEVEL, DEBUG and logger: false work.
import assert from "node:assert/strict";
import type { AuthConfig, LogEntry } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { Browser, makeAuth, ORIGIN, SECRET } from "./_helpers.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";
const PASSWORD = "correct horse";
const CLIENT_SECRET = "mock-client-secret";
const WRONG_CLIENT_SECRET = "wrong-client-secret";

/** Everything a scenario saw that must never reach a log. */
class Secrets {
  values = new Set<string>([SECRET, PASSWORD, CLIENT_SECRET, WRONG_CLIENT_SECRET]);

  add(value: string | null | undefined): void {
    if (!value) return;
    this.values.add(value);
    // A JOSE token's parts are secret-bearing on their own (payloads, ciphertexts, signatures).
    for (const part of value.split(".")) if (part.length >= 16) this.values.add(part);
  }

  response(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      this.add(line.slice(line.indexOf("=") + 1, line.indexOf(";")));
    }
    const location = response.headers.get("Location");
    if (location) {
      for (const [, value] of new URL(location, ORIGIN).searchParams) {
        if (value.length >= 16) this.add(value);
      }
    }
    return response;
  }

  assertAbsent(entries: unknown[]): void {
    const text = JSON.stringify(entries);
    for (const value of this.values) {
      assert.ok(!text.includes(value), `a log entry contains ${JSON.stringify(value)}: ${text}`);
    }
  }
}

function capture(overrides: Partial<AuthConfig> = {}, level: LogEntry["level"] = "debug") {
  const entries: LogEntry[] = [];
  const secrets = new Secrets();
  const mock = createMockProvider();
  const auth = makeAuth({
    oauth: [mock.provider],
    fetch: mock.fetch,
    logger: { appName: "shop", level, log: (entry) => entries.push(entry) },
    ...overrides,
  });
  const browser = new Browser((request) =>
    auth.handlers.ALL(request).then((r) => secrets.response(r))
  );
  return { entries, secrets, auth, browser, mock };
}

async function signInFlow(browser: Browser): Promise<void> {
  await browser.signIn();
  await browser.fetch("GET", "/auth/session");
  await browser.fetch("PATCH", "/auth/session", {
    json: { user: { name: "Ada" } },
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
  await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
}

Deno.test("logging: a successful sign-in, update and sign-out leak nothing", async () => {
  const { entries, secrets, browser } = capture();
  await signInFlow(browser);
  secrets.assertAbsent(entries);
});

Deno.test("logging: a failed sign-in is logged without the password or username", async () => {
  const { entries, secrets, browser } = capture();
  const token = await browser.csrf();
  secrets.add("hunter2-wrong-password");
  await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada-the-user", password: "hunter2-wrong-password" },
    headers: { "X-CSRF-Token": token },
  });
  assert.ok(entries.some((entry) => entry.message === "credentials sign-in refused"));
  secrets.add("ada-the-user");
  secrets.assertAbsent(entries);
});

Deno.test("logging: a tampered session is logged at debug without the token", async () => {
  const { entries, secrets, browser } = capture();
  await browser.signIn();
  const token = browser.cookies.get(SESSION)!;
  const tampered = `${token.slice(0, -8)}AAAAAAAA`;
  secrets.add(tampered);
  browser.cookies.set(SESSION, tampered);
  await browser.fetch("GET", "/auth/session");
  assert.ok(entries.some((entry) => entry.level === "debug"));
  secrets.assertAbsent(entries);
});

Deno.test("logging: authorize throwing an Error that quotes the password never logs it", async () => {
  const { entries, secrets, browser } = capture({
    credentials: {
      authorize: ({ username, password }) => {
        throw new Error(`login failed for ${username} with password ${password}`);
      },
    },
  });
  const response = await browser.signIn();
  assert.equal(response.status, 500);
  assert.ok(entries.some((entry) => entry.level === "error"), "the failure is logged");
  secrets.assertAbsent(entries);
});

Deno.test("logging: onCreateUser throwing an Error that quotes the payload never logs it", async () => {
  const { entries, secrets, browser } = capture({
    signUp: {
      onCreateUser: (payload) => {
        throw new TypeError(`cannot store ${JSON.stringify(payload)}`);
      },
    },
  });
  const token = await browser.csrf();
  secrets.add("sign-up-password-value");
  await browser.fetch("POST", "/auth/signUp", {
    json: { email: "a@example.com", password: "sign-up-password-value" },
    headers: { "X-CSRF-Token": token },
  });
  assert.ok(entries.some((entry) => entry.level === "error"));
  secrets.assertAbsent(entries);
});

Deno.test("logging: a CSRF failure leaks neither the token nor the cookie", async () => {
  const { entries, secrets, browser } = capture();
  await browser.signIn();
  secrets.add("forged-csrf-token-value-123456");
  await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": "forged-csrf-token-value-123456" },
  });
  secrets.assertAbsent(entries);
});

Deno.test("logging: an OAuth sign-in leaks neither the code, the state nor the client secret", async () => {
  const { entries, secrets, browser, mock } = capture();
  const start = await browser.fetch("GET", "/auth/signIn/mock");
  const approved = secrets.response(
    await mock.handler(new Request(start.headers.get("Location")!)),
  );
  const callback = new URL(approved.headers.get("Location")!);
  const done = await browser.fetch("GET", `${callback.pathname}${callback.search}`);
  assert.equal(done.status, 302);
  assert.ok(entries.some((entry) => entry.message === "oauth sign-in completed"));
  secrets.assertAbsent(entries);
});

Deno.test("logging: a failed token exchange leaks no client secret", async () => {
  const mock = createMockProvider();
  const { entries, secrets, browser } = capture({
    oauth: [{ ...mock.provider, clientSecret: WRONG_CLIENT_SECRET }],
    fetch: mock.fetch,
  });
  const start = await browser.fetch("GET", "/auth/signIn/mock");
  const approved = secrets.response(
    await mock.handler(new Request(start.headers.get("Location")!)),
  );
  const callback = new URL(approved.headers.get("Location")!);
  const done = await browser.fetch("GET", `${callback.pathname}${callback.search}`);
  assert.equal(done.status, 302);
  assert.match(done.headers.get("Location")!, /error=/);
  assert.ok(entries.some((entry) => entry.message === "oauth callback failed"));
  secrets.assertAbsent(entries);
});

Deno.test("logging: a profile function throwing an Error that quotes the access token never logs it", async () => {
  const mock = createMockProvider();
  const tokens: string[] = [];
  const { entries, secrets, browser } = capture({
    oauth: [{
      ...mock.provider,
      profile: (_profile, context) => {
        tokens.push(context.tokens.access_token);
        throw new Error(`no profile for token ${context.tokens.access_token}`);
      },
    }],
    fetch: mock.fetch,
  });
  const start = await browser.fetch("GET", "/auth/signIn/mock");
  const approved = await mock.handler(new Request(start.headers.get("Location")!));
  const callback = new URL(approved.headers.get("Location")!);
  await browser.fetch("GET", `${callback.pathname}${callback.search}`);
  assert.equal(tokens.length, 1);
  secrets.add(tokens[0]);
  assert.ok(entries.some((entry) => entry.level === "error"));
  secrets.assertAbsent(entries);
});

Deno.test("logging: a trustedOrigins function throwing an Error that quotes the cookie never logs it", async () => {
  const { entries, secrets, browser } = capture({
    trustedOrigins: (request) => {
      throw new Error(`cannot decide for ${request.headers.get("Cookie")}`);
    },
  });
  await browser.signIn();
  const response = await browser.fetch("GET", "/auth/session", {
    headers: { Origin: "https://other.example" },
  });
  assert.equal(response.status, 500);
  assert.ok(entries.some((entry) => entry.level === "error"));
  secrets.assertAbsent(entries);
});

Deno.test("logging: every entry carries the custom logger's appName", async () => {
  const { entries, browser } = capture();
  await signInFlow(browser);
  const token = await browser.csrf();
  await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username: "ada", password: "wrong" },
    headers: { "X-CSRF-Token": token },
  });
  browser.cookies.set(SESSION, "a.b.c.d.e");
  await browser.fetch("GET", "/auth/session");
  assert.ok(entries.length >= 2);
  for (const entry of entries) assert.equal(entry.appName, "shop");
});

Deno.test("logging: entries have a level, a message and an ISO time", async () => {
  const { entries, browser } = capture();
  await browser.signIn();
  browser.cookies.set(SESSION, "x.y.z");
  await browser.fetch("GET", "/auth/session");
  assert.ok(entries.length > 0);
  for (const entry of entries) {
    assert.ok(["debug", "info", "warn", "error"].includes(entry.level));
    assert.equal(typeof entry.message, "string");
    assert.equal(new Date(entry.time).toISOString(), entry.time);
  }
});

function levelAuth(env: Record<string, string>) {
  const entries: LogEntry[] = [];
  const auth = makeAuth({
    env,
    logger: { log: (entry) => entries.push(entry) },
    // The entries are counted exactly: no warning about requests without a client address.
    rateLimit: false,
    credentials: {
      authorize: ({ password }) => {
        if (password === "explode") throw new Error("boom");
        return null;
      },
    },
  });
  return { entries, browser: new Browser(auth.handlers.ALL) };
}

/** A wrong password (info), a tampered session (debug) and a throwing authorize (error). */
async function mixedLevels(browser: Browser): Promise<void> {
  for (const password of ["wrong", "explode"]) {
    const token = await browser.csrf();
    await browser.fetch("POST", "/auth/signIn/credentials", {
      json: { username: "ada", password },
      headers: { "X-CSRF-Token": token },
    });
  }
  browser.cookies.set(SESSION, "a.b.c.d.e");
  await browser.fetch("GET", "/auth/session");
}

function levels(entries: LogEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.level))].sort();
}

Deno.test("logging: LOG_LEVEL=error keeps only errors", async () => {
  const { entries, browser } = levelAuth({ LOG_LEVEL: "error" });
  await mixedLevels(browser);
  assert.deepEqual(levels(entries), ["error"]);
});

Deno.test("logging: AUTH_LOG_LEVEL=info keeps info and above, drops debug", async () => {
  const { entries, browser } = levelAuth({ AUTH_LOG_LEVEL: "info" });
  await mixedLevels(browser);
  assert.deepEqual(levels(entries), ["error", "info"]);
});

Deno.test("logging: DEBUG=1 turns on debug entries", async () => {
  const { entries, browser } = levelAuth({ DEBUG: "1" });
  await mixedLevels(browser);
  assert.deepEqual(levels(entries), ["debug", "error", "info"]);
});

Deno.test("logging: DEBUG=1 leaks nothing either", async () => {
  const entries: LogEntry[] = [];
  const secrets = new Secrets();
  const auth = makeAuth({
    env: { DEBUG: "1" },
    logger: { log: (entry) => entries.push(entry) },
  });
  const browser = new Browser((request) =>
    auth.handlers.ALL(request).then((r) => secrets.response(r))
  );
  await signInFlow(browser);
  browser.cookies.set(SESSION, "a.b.c.d.e");
  await browser.fetch("GET", "/auth/session");
  assert.ok(entries.some((entry) => entry.level === "debug"));
  secrets.assertAbsent(entries);
});

Deno.test("logging: without LOG_LEVEL or DEBUG only warnings and errors are written", async () => {
  const { entries, browser } = levelAuth({});
  await mixedLevels(browser);
  assert.deepEqual(levels(entries), ["error"]);
});

Deno.test("logging: the logger's own level wins over LOG_LEVEL", async () => {
  const entries: LogEntry[] = [];
  const auth = makeAuth({
    env: { LOG_LEVEL: "debug" },
    logger: { level: "error", log: (entry) => entries.push(entry) },
  });
  await mixedLevels(new Browser(auth.handlers.ALL));
  assert.deepEqual(levels(entries), []);
});

/** Replaces the console methods while `fn` runs and returns what they received. */
async function consoleCalls(fn: () => Promise<void>): Promise<unknown[][]> {
  const calls: unknown[][] = [];
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const saved = methods.map((name) => console[name]);
  for (const name of methods) console[name] = (...args: unknown[]) => calls.push(args);
  try {
    await fn();
  } finally {
    methods.forEach((name, i) => (console[name] = saved[i]));
  }
  return calls;
}

Deno.test("logging: logger: false writes nothing to the console, even with DEBUG on", async () => {
  const auth = makeAuth({
    logger: false,
    env: { DEBUG: "1", LOG_LEVEL: "debug" },
    credentials: {
      authorize: () => {
        throw new Error("boom");
      },
    },
  });
  const calls = await consoleCalls(async () => {
    const browser = new Browser(auth.handlers.ALL);
    await browser.signIn();
    browser.cookies.set(SESSION, "a.b.c.d.e");
    await browser.fetch("GET", "/auth/session");
  });
  assert.deepEqual(calls, []);
});

Deno.test("logging: the default console logger writes errors without the password", async () => {
  const auth = makeAuth({
    logger: true,
    credentials: {
      authorize: ({ password }) => {
        throw new Error(`rejected ${password}`);
      },
    },
  });
  const calls = await consoleCalls(async () => {
    await new Browser(auth.handlers.ALL).signIn();
  });
  assert.ok(calls.length > 0, "the error reached the console");
  assert.ok(!JSON.stringify(calls).includes(PASSWORD));
});

Deno.test("logging: entries keep dotted names readable and are timed by the instance clock", async () => {
  const entries: LogEntry[] = [];
  const auth = makeAuth({
    clock: () => Date.UTC(2030, 4, 6, 7, 8, 9),
    credentials: {
      authorize: () => {
        throw new Error("database down");
      },
    },
    logger: { level: "debug", log: (entry: LogEntry) => entries.push(entry) },
  } as Partial<AuthConfig>);
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.signIn();
  assert.equal(response.status, 500);
  await response.body?.cancel();
  const entry = entries.find((item) => item.level === "error");
  assert.ok(entry, "the failure is logged");
  assert.match(entry.message, /credentials\.authorize/);
  assert.equal(entry.time, "2030-05-06T07:08:09.000Z");
});

Deno.test("logging: a compact token in a message is redacted", async () => {
  const { redact } = await import("../../src/logger.ts");
  const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
  assert.equal(redact(`bad token ${token} seen`), "bad token [redacted] seen");
  assert.equal(redact("credentials.authorize threw"), "credentials.authorize threw");
});

Deno.test("logging: a refused sign-in names the client address only behind trusted proxy headers", async () => {
  for (const trusted of [true, false]) {
    const entries: LogEntry[] = [];
    const auth = makeAuth({
      trustedProxyHeaders: trusted,
      logger: { level: "info", log: (entry: LogEntry) => entries.push(entry) },
    } as Partial<AuthConfig>);
    const browser = new Browser(auth.handlers.ALL);
    const token = await browser.csrf();
    const response = await browser.fetch("POST", "/auth/signIn/credentials", {
      json: { username: "ada", password: "wrong" },
      headers: { "X-CSRF-Token": token, "X-Forwarded-For": "10.0.0.1, 203.0.113.7" },
    });
    assert.equal(response.status, 401);
    await response.body?.cancel();
    const refused = entries.find((entry) => entry.message === "credentials sign-in refused");
    assert.ok(refused, "the refusal is logged");
    assert.equal(refused.details?.client, trusted ? "203.0.113.7" : undefined);
  }
});

Deno.test("logging: an error's name stays readable while token-like values are redacted", async () => {
  const { createLogger } = await import("../../src/logger.ts");
  const entries: LogEntry[] = [];
  const logger = createLogger({ log: (entry) => entries.push(entry) }, { debug: false });
  const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
  const key = "0123456789abcdef0123456789abcdef";
  class MaxRetriesPerRequestError extends Error {
    override name = "MaxRetriesPerRequestError";
  }
  // As the store guard logs it: the name in the details.
  logger.log("error", "session store call failed", {
    error: "MaxRetriesPerRequestError",
    key,
  });
  // As logger.error logs it: the name in the message, beside a message quoting a token.
  logger.error("store failed", new MaxRetriesPerRequestError(`retried with ${token}`));
  logger.log("error", `DOMException and TypeError beside ${key}`);
  assert.equal(entries[0].details?.error, "MaxRetriesPerRequestError");
  assert.equal(entries[0].details?.key, "[redacted]");
  assert.equal(
    entries[1].message,
    "store failed: MaxRetriesPerRequestError: retried with [redacted]",
  );
  assert.equal(entries[2].message, "DOMException and TypeError beside [redacted]");
  const text = JSON.stringify(entries);
  assert.ok(!text.includes(token) && !text.includes(key), text);
});

Deno.test("logging: a value that merely ends in Error is still redacted when it is token-like", async () => {
  const { redact } = await import("../../src/logger.ts");
  // Not an error class's name: digits first, underscores, or a lower-case start.
  for (
    const value of [
      "4f9c2b7e1d0a8c3b5e6f7a9dError",
      "abc_def_ghi_jkl_mno_pqrError",
      "xq7Zp2Lm9Kt4Wv8Rs1NbError",
    ]
  ) {
    assert.equal(redact(`seen ${value}`), "seen [redacted]", value);
  }
});
