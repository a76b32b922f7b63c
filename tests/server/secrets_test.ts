// Secrets: rotation through a list or PREVIOUS_SECRETS, single-key modes,
// and a warning for secrets with little entropy.
import assert from "node:assert/strict";
import type { LogEntry } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { Browser, makeAuth, SECRET } from "./_helpers.ts";

const NEW = "new-secret-0123456789abcdef-0123456789abcdef";

async function cookieFrom(auth: ReturnType<typeof makeAuth>): Promise<string> {
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  return browser.cookieHeader();
}

function sessionOf(auth: ReturnType<typeof makeAuth>, cookie: string) {
  return auth.api.getSession(
    new Request("http://localhost:8000/", { headers: { Cookie: cookie } }),
  );
}

Deno.test("rotation: with [new, old] old sessions still read and new ones are issued with the new secret", async () => {
  const before = makeAuth({ secret: SECRET });
  const oldCookie = await cookieFrom(before);
  const rotated = makeAuth({ secret: [NEW, SECRET] });
  assert.equal((await sessionOf(rotated, oldCookie))?.user.sub, "user-1");
  const newCookie = await cookieFrom(rotated);
  // Only the new secret made it: an instance with the old one alone cannot read it.
  assert.equal(await sessionOf(before, newCookie), null);
  assert.equal((await sessionOf(makeAuth({ secret: NEW }), newCookie))?.user.sub, "user-1");
});

Deno.test("rotation: env SECRET plus PREVIOUS_SECRETS reads tokens of every listed secret", async () => {
  const oldCookie = await cookieFrom(makeAuth({ secret: SECRET }));
  const auth = makeAuth({
    secret: undefined,
    env: { AUTH_SECRET: NEW, AUTH_PREVIOUS_SECRETS: `x-${NEW},\n${SECRET}` },
  });
  assert.equal((await sessionOf(auth, oldCookie))?.user.sub, "user-1");
});

Deno.test("a configured secret is the whole key list: env PREVIOUS_SECRETS is not read", async () => {
  const oldCookie = await cookieFrom(makeAuth({ secret: SECRET }));
  const env = { AUTH_SECRET: SECRET, AUTH_PREVIOUS_SECRETS: SECRET, PREVIOUS_SECRETS: SECRET };
  assert.equal(await sessionOf(makeAuth({ secret: NEW, env }), oldCookie), null);
  assert.equal(await sessionOf(makeAuth({ secret: [NEW], env }), oldCookie), null);
  // The same env without a configured secret reads it.
  const fromEnv = makeAuth({ secret: undefined, env: { ...env, AUTH_SECRET: NEW } });
  assert.equal((await sessionOf(fromEnv, oldCookie))?.user.sub, "user-1");
});

Deno.test("a configured secret wins over env SECRET: tokens of the env secret are not read", async () => {
  const envCookie = await cookieFrom(makeAuth({ secret: undefined, env: { AUTH_SECRET: SECRET } }));
  const auth = makeAuth({ secret: NEW, env: { AUTH_SECRET: SECRET } });
  assert.equal(await sessionOf(auth, envCookie), null);
  const newCookie = await cookieFrom(auth);
  assert.equal((await sessionOf(makeAuth({ secret: NEW }), newCookie))?.user.sub, "user-1");
});

Deno.test("a configured secret that is too short throws even when env has a valid one", () => {
  assert.throws(
    () => makeAuth({ secret: "short", env: { AUTH_SECRET: SECRET } }),
    (error: unknown) => error instanceof TypeError && /secret is invalid/.test(error.message),
  );
});

Deno.test("rotation: a dropped secret's sessions are no longer read", async () => {
  const oldCookie = await cookieFrom(makeAuth({ secret: SECRET }));
  assert.equal(await sessionOf(makeAuth({ secret: [NEW] }), oldCookie), null);
});

Deno.test("rotation: an empty secret list throws a TypeError", () => {
  assert.throws(() => makeAuth({ secret: [] }), TypeError);
});

Deno.test("single key: one AES-GCM CryptoKey in encrypted mode serves sessions, CSRF and OAuth flows", async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  const mock = createMockProvider();
  const auth = makeAuth({
    secret: key,
    jwt: { mode: "encrypted" },
    oauth: [mock.provider],
    fetch: mock.fetch,
  });
  const browser = new Browser(auth.handlers.ALL);
  assert.equal((await browser.signIn()).status, 200);
  const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
  assert.equal(start.status, 302);
  const back = new URL((await mock.fetch(start.headers.get("Location")!)).headers.get("Location")!);
  const landed = await browser.fetch("GET", `${back.pathname}${back.search}`);
  assert.equal(
    new URL(landed.headers.get("Location")!, "http://x").searchParams.get("error"),
    null,
  );
  // The PKCE verifier never travels readable: the flow cookie is a JWE.
  assert.equal(browser.cookies.get("service-stack.code_verifier"), undefined);
  const signedOut = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  assert.equal(signedOut.status, 200);
});

Deno.test("single key: one HMAC key in signed mode keeps the PKCE verifier unreadable", async () => {
  const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  const mock = createMockProvider();
  const auth = makeAuth({
    secret: key,
    jwt: { mode: "signed" },
    oauth: [mock.provider],
    fetch: mock.fetch,
  });
  const browser = new Browser(auth.handlers.ALL);
  const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
  const verifier = browser.cookies.get("service-stack.code_verifier")!;
  assert.equal(verifier.split(".").length, 5, "a JWE, not a readable JWS");
  const back = new URL((await mock.fetch(start.headers.get("Location")!)).headers.get("Location")!);
  const landed = await browser.fetch("GET", `${back.pathname}${back.search}`);
  assert.equal(
    new URL(landed.headers.get("Location")!, "http://x").searchParams.get("error"),
    null,
  );
  assert.equal(
    (await (await browser.fetch("GET", "/auth/session")).json()).user.sub,
    "mock-user-1",
  );
});

Deno.test("a secret with little entropy is accepted but logged as a warning, without the secret", () => {
  for (const weak of ["a".repeat(32), "ab".repeat(16), "password".repeat(4)]) {
    const entries: LogEntry[] = [];
    makeAuth({
      secret: weak,
      logger: { level: "warn", log: (entry: LogEntry) => entries.push(entry) },
    });
    const warning = entries.find((entry) => entry.level === "warn");
    assert.ok(warning, weak);
    assert.ok(!JSON.stringify(entries).includes(weak.slice(0, 16)));
  }
  const entries: LogEntry[] = [];
  makeAuth({
    secret: SECRET,
    logger: { level: "warn", log: (entry: LogEntry) => entries.push(entry) },
  });
  assert.deepEqual(entries, []);
});
