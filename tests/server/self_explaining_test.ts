// Mistakes explain themselves (issue 25): a 404 names the instance's basePath and, for a route
// whose feature is not configured, the option that turns it on; the path asked for is never
// repeated (DECISIONS, HTTP contract); DEBUG=1 logs the redirect_uri sent to a provider.
import assert from "node:assert/strict";
import { createAuth, type LogEntry, memoryStore } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { SECRET } from "./_helpers.ts";

function bare(overrides: Record<string, unknown> = {}) {
  return createAuth({ oauth: [], secret: SECRET, logger: false, env: {}, ...overrides });
}

async function notFound(
  handler: (request: Request) => Promise<Response>,
  path: string,
  method = "GET",
): Promise<string> {
  const response = await handler(new Request(`http://localhost${path}`, { method }));
  assert.equal(response.status, 404, path);
  const body = await response.json();
  assert.equal(body.error, "invalid_request");
  return body.error_description;
}

Deno.test("404: an app mounted under a prefix is told the basePath it has", async () => {
  const auth = bare();
  const description = await notFound(auth.handlers.ALL, "/api/auth/session");
  assert.equal(description, 'The route is unknown; expected a path under basePath "/auth".');
  // The prefix asked for is not repeated.
  const other = await notFound(auth.handlers.ALL, "/zqx-prefix/auth/session");
  assert.doesNotMatch(other, /zqx/);
  assert.match(other, /basePath "\/auth"/);
});

Deno.test("404: an unknown route names the configured basePath, never the path asked for", async () => {
  const auth = bare({ basePath: "/api/auth" });
  for (const path of ["/api/auth/nope", "/api/auth/nope%3Cscript%3E", "/elsewhere/x"]) {
    const description = await notFound(auth.handlers.ALL, path);
    assert.match(description, /basePath "\/api\/auth"/, path);
    assert.doesNotMatch(description, /nope|script|elsewhere/, path);
  }
});

Deno.test("404: a route of a feature that is not configured names the option to set", async () => {
  const auth = bare();
  const cases: [string, string, RegExp][] = [
    [
      "POST",
      "/auth/signIn/credentials",
      /expected credentials\.authorize in the createAuth config/,
    ],
    ["POST", "/auth/signUp", /expected signUp\.onCreateUser in/],
    ["POST", "/auth/signIn/email", /expected email: \{ send, findUser \} in/],
    ["GET", "/auth/callback/email", /expected email: \{ send, findUser \} in/],
    ["GET", "/auth/passkeys", /expected passkeys: \{ store, findUser \} in/],
    ["POST", "/auth/passkey/signIn/options", /expected passkeys: \{ store, findUser \} in/],
    ["POST", "/auth/twoFactor/verify", /expected twoFactor: \{ load, save \} in/],
    ["GET", "/auth/twoFactor", /expected twoFactor: \{ load, save \} in/],
  ];
  for (const [method, path, expected] of cases) {
    const description = await notFound(auth.handlers.ALL, path, method);
    assert.match(description, /^The route is off; /, path);
    assert.match(description, expected, path);
  }
});

Deno.test("404: password reset with email but no credentials.resetPassword names both", async () => {
  const auth = bare({
    email: { send: () => {}, findUser: () => null },
    session: { store: memoryStore() },
  });
  const description = await notFound(auth.handlers.ALL, "/auth/password/forgot", "POST");
  assert.match(
    description,
    /expected email and credentials\.resetPassword in the createAuth config/,
  );
  // The email routes themselves are on.
  const link = await auth.handlers.ALL(new Request("http://localhost/auth/callback/email"));
  assert.notEqual(link.status, 404);
  await link.body?.cancel();
});

Deno.test("a configured feature's route is served, not the 404 (the hint is only for routes off)", async () => {
  const auth = bare({ credentials: { authorize: () => null } });
  const response = await auth.handlers.ALL(
    new Request("http://localhost/auth/signIn/credentials", { method: "POST" }),
  );
  assert.equal(response.status, 403); // CSRF, after routing
  await response.body?.cancel();
});

Deno.test("DEBUG=1 logs the redirect_uri sent to the provider when a sign-in starts", async () => {
  const mock = createMockProvider();
  const entries: LogEntry[] = [];
  const auth = createAuth({
    oauth: [mock.provider],
    fetch: mock.fetch,
    secret: SECRET,
    env: { DEBUG: "1" },
    logger: { log: (entry) => entries.push(entry) },
  });
  const response = await auth.handlers.ALL(new Request("http://localhost:8000/auth/signIn/mock"));
  assert.equal(response.status, 302);
  const sent = new URL(response.headers.get("Location")!).searchParams.get("redirect_uri");
  const started = entries.find((entry) => entry.message === "oauth sign-in started");
  assert.ok(started, "a debug entry for the sign-in");
  assert.equal(started.level, "debug");
  assert.equal(started.details?.redirectURI, "http://localhost:8000/auth/callback/mock");
  assert.equal(started.details?.redirectURI, sent);
});

Deno.test("without DEBUG the redirect_uri is not logged (warn level by default)", async () => {
  const mock = createMockProvider();
  const entries: LogEntry[] = [];
  const auth = createAuth({
    oauth: [mock.provider],
    fetch: mock.fetch,
    secret: SECRET,
    env: {},
    logger: { log: (entry) => entries.push(entry) },
  });
  const response = await auth.handlers.ALL(new Request("http://localhost:8000/auth/signIn/mock"));
  assert.equal(response.status, 302);
  assert.equal(entries.some((entry) => entry.message === "oauth sign-in started"), false);
});

Deno.test("an unknown provider's HTML error page says the provider is unknown", async () => {
  const auth = bare();
  const response = await auth.handlers.ALL(
    new Request("http://localhost/auth/signIn/nope", { headers: { Accept: "text/html" } }),
  );
  assert.equal(response.status, 400);
  const page = await response.text();
  assert.match(page, /This sign-in provider is unknown\./);
  assert.doesNotMatch(page, /nope/);
});
