// A provider that misbehaves at its token or user-info endpoint: every
// failure ends in a 302 to the flow's target with `error` and
// `error_description`, no session, and never a crash or a hang.
import assert from "node:assert/strict";
import { AuthError, createAuth, type LogEntry } from "../../mod.ts";
import { readProviderText, timedFetch } from "../../src/oauth/provider_fetch.ts";
import {
  assertErrorRedirect,
  assertFlowCookiesCleared,
  Browser,
  callbackWithCode,
  type Endpoint,
  FAKE,
  getSession,
  json,
  ORIGIN,
  scriptedFetch,
  SECRET,
  setupFake,
} from "./_flow_helpers.ts";

const HTML = { "Content-Type": "text/html; charset=utf-8" };
const OVER_LIMIT = 256 * 1024 + 1;

/** Runs a flow against the fake provider and asserts the failure redirect. */
async function expectFailure(
  endpoints: Parameters<typeof setupFake>[0],
  error: string,
): Promise<Response> {
  const { browser } = setupFake(endpoints);
  const response = await callbackWithCode(browser, "fake");
  assertErrorRedirect(response, "/home", error);
  assertFlowCookiesCleared(response);
  assert.equal(await (await getSession(browser)).json(), null);
  return response;
}

/** A body stream of `size` bytes of JSON-ish text, sent in 16 KiB chunks, no Content-Length. */
function streamOf(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(16 * 1024, size - sent)).fill(0x20);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

// Token endpoint

Deno.test("a token endpoint answering 500 fails with server_error", async () => {
  await expectFailure({
    token: () => new Response("Internal Server Error", { status: 500 }),
  }, "server_error");
});

Deno.test("a token endpoint answering 500 with a token-shaped body fails with server_error", async () => {
  await expectFailure({
    token: () => json({ access_token: "x", token_type: "Bearer" }, 500),
  }, "server_error");
});

Deno.test("a token endpoint answering HTML fails with server_error", async () => {
  await expectFailure({
    token: () => new Response("<html><body>Sign in</body></html>", { headers: HTML }),
  }, "server_error");
});

Deno.test("a token endpoint answering invalid JSON fails with server_error", async () => {
  await expectFailure({
    token: () =>
      new Response('{"access_token": "x",', { headers: { "Content-Type": "application/json" } }),
  }, "server_error");
});

Deno.test("a token endpoint answering a JSON array fails with server_error", async () => {
  await expectFailure({ token: () => json([{ access_token: "x" }]) }, "server_error");
});

Deno.test("a token endpoint answering invalid_grant fails with invalid_grant", async () => {
  await expectFailure({
    token: () => json({ error: "invalid_grant", error_description: "Bad code." }, 400),
  }, "invalid_grant");
});

Deno.test("a token endpoint answering invalid_client fails with invalid_client", async () => {
  await expectFailure({ token: () => json({ error: "invalid_client" }, 401) }, "invalid_client");
});

Deno.test("a token endpoint's error with status 200 still fails with its code", async () => {
  await expectFailure({ token: () => json({ error: "invalid_grant" }) }, "invalid_grant");
});

Deno.test("a token endpoint's unknown error code fails with server_error", async () => {
  await expectFailure({
    token: () => json({ error: "bad_verification_code", error_description: "The code is wrong." }),
  }, "server_error");
});

Deno.test("the token endpoint's error_description is not passed on", async () => {
  const response = await expectFailure({
    token: () => json({ error: "invalid_grant", error_description: "<b>call 555-0100</b>" }, 400),
  }, "invalid_grant");
  const location = new URL(response.headers.get("Location")!, ORIGIN);
  assert.ok(!location.searchParams.get("error_description")!.includes("555"));
});

Deno.test("a token response without access_token fails with server_error", async () => {
  await expectFailure(
    { token: () => json({ token_type: "Bearer", expires_in: 3600 }) },
    "server_error",
  );
});

Deno.test("a token response with an empty access_token fails with server_error", async () => {
  await expectFailure(
    { token: () => json({ access_token: "", token_type: "Bearer" }) },
    "server_error",
  );
});

Deno.test("a token response whose access_token is not a string fails with server_error", async () => {
  await expectFailure(
    { token: () => json({ access_token: 42, token_type: "Bearer" }) },
    "server_error",
  );
});

Deno.test("a non-bearer token_type fails with server_error", async () => {
  await expectFailure({
    token: () => json({ access_token: "x", token_type: "mac", mac_key: "k" }),
  }, "server_error");
});

Deno.test("a token_type of BEARER in any case is accepted", async () => {
  const { browser } = setupFake({ token: () => json({ access_token: "x", token_type: "BEARER" }) });
  const response = await callbackWithCode(browser, "fake");
  assert.equal(response.headers.get("Location"), "/home");
});

Deno.test("a form-encoded token response is accepted", async () => {
  const { browser } = setupFake({
    token: () =>
      new Response("access_token=form-token&token_type=bearer&scope=profile", {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    userInfo: (request) =>
      request.headers.get("Authorization") === "Bearer form-token"
        ? json({ id: 7 })
        : json({}, 401),
  });
  const response = await callbackWithCode(browser, "fake");
  assert.equal(response.headers.get("Location"), "/home");
  assert.equal((await (await getSession(browser)).json()).user.sub, "7");
});

Deno.test("a token endpoint that never answers times out after 10 s with server_error", async () => {
  let guard: ReturnType<typeof setTimeout> | undefined;
  const started = performance.now();
  const { browser } = setupFake({
    token: (request) =>
      new Promise<Response>((_, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason));
      }),
  });
  const response = await Promise.race([
    callbackWithCode(browser, "fake"),
    new Promise<never>((_, reject) => {
      guard = setTimeout(() => reject(new Error("the callback hung past 15 s")), 15_000);
    }),
  ]).finally(() => clearTimeout(guard));
  const elapsed = performance.now() - started;
  assertErrorRedirect(response, "/home", "server_error");
  assert.ok(elapsed >= 9_900, `answered after ${elapsed} ms`);
});

Deno.test("a network error at the token endpoint fails with server_error", async () => {
  await expectFailure({
    token: () => Promise.reject(new TypeError("error sending request: connection refused")),
  }, "server_error");
});

Deno.test("a token endpoint answering a redirect fails and is not followed", async () => {
  const { browser, calls } = setupFake({
    token: () =>
      new Response(null, { status: 302, headers: { Location: "https://elsewhere.example/" } }),
  });
  const response = await callbackWithCode(browser, "fake");
  assertErrorRedirect(response, "/home", "server_error");
  const token = calls.find((request) => request.url === FAKE.accessToken)!;
  assert.equal(token.redirect, "error");
  assert.equal(calls.some((request) => request.url.startsWith("https://elsewhere")), false);
});

Deno.test("a token response over 256 KiB by Content-Length fails with server_error", async () => {
  await expectFailure({
    token: () =>
      new Response(`{"access_token":"x","pad":"${"a".repeat(OVER_LIMIT)}"}`, {
        headers: { "Content-Type": "application/json" },
      }),
  }, "server_error");
});

Deno.test("a streamed token response over 256 KiB without Content-Length fails with server_error", async () => {
  await expectFailure({
    token: () =>
      new Response(streamOf(OVER_LIMIT), { headers: { "Content-Type": "application/json" } }),
  }, "server_error");
});

Deno.test("a token response that is not UTF-8 fails with server_error", async () => {
  await expectFailure({
    token: () =>
      new Response(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), {
        headers: { "Content-Type": "application/json" },
      }),
  }, "server_error");
});

// User-info endpoint

Deno.test("a user-info endpoint answering 401 fails with server_error", async () => {
  await expectFailure({
    userInfo: () =>
      json({ id: 1, message: "Bad credentials" }, 401, {
        "WWW-Authenticate": 'Bearer error="invalid_token"',
      }),
  }, "server_error");
});

Deno.test("a user-info endpoint answering HTML fails with server_error", async () => {
  await expectFailure({
    userInfo: () => new Response("<html>profile</html>", { headers: HTML }),
  }, "server_error");
});

Deno.test("a user-info response with a JSON type but invalid JSON fails with server_error", async () => {
  await expectFailure({
    userInfo: () => new Response("{id: 1}", { headers: { "Content-Type": "application/json" } }),
  }, "server_error");
});

Deno.test("a user-info response that is a JSON array fails with server_error", async () => {
  await expectFailure({ userInfo: () => json([{ id: 1, name: "Ada" }]) }, "server_error");
});

Deno.test("a user-info response that is JSON null fails with server_error", async () => {
  await expectFailure({ userInfo: () => json(null) }, "server_error");
});

Deno.test("a user-info object without an id fails the profile mapping with server_error", async () => {
  await expectFailure(
    { userInfo: () => json({ name: "Ada", email: "ada@example.com" }) },
    "server_error",
  );
});

Deno.test("a user-info response over 256 KiB fails with server_error", async () => {
  await expectFailure({
    userInfo: () =>
      new Response(streamOf(OVER_LIMIT), { headers: { "Content-Type": "application/json" } }),
  }, "server_error");
});

Deno.test("a network error at the user-info endpoint fails with server_error", async () => {
  await expectFailure({
    userInfo: () => Promise.reject(new TypeError("error sending request")),
  }, "server_error");
});

// Profile mappers

function withProfile(profile: (raw: Record<string, unknown>) => unknown) {
  const scripted = scriptedFetch({
    [FAKE.accessToken]: () => json({ access_token: "t", token_type: "Bearer" }),
    [FAKE.userInfo]: () => json({ id: "u1", org: "other" }),
  });
  const auth = createAuth({
    oauth: [{ ...FAKE, profile: profile as never }],
    secret: SECRET,
    logger: false,
    fetch: scripted.fetch,
  });
  return new Browser(auth.handlers.ALL);
}

Deno.test("a profile mapper throwing an AuthError fails with its code", async () => {
  const browser = withProfile(() => {
    throw new AuthError("access_denied", "Your organisation is not allowed.");
  });
  const response = await callbackWithCode(browser, "fake");
  assertErrorRedirect(response, "/home", "access_denied");
  const location = new URL(response.headers.get("Location")!, ORIGIN);
  assert.equal(location.searchParams.get("error_description"), "Your organisation is not allowed.");
});

Deno.test("a profile mapper throwing any other error fails with server_error and no detail", async () => {
  const browser = withProfile(() => {
    throw new Error("database password is hunter2");
  });
  const response = await callbackWithCode(browser, "fake");
  assertErrorRedirect(response, "/home", "server_error");
  assert.ok(!response.headers.get("Location")!.includes("hunter2"));
});

Deno.test("a profile mapper returning no sub fails without a session", async () => {
  const browser = withProfile(() => ({ name: "No Sub" }));
  const response = await callbackWithCode(browser, "fake");
  assert.equal(response.status, 302);
  assert.ok(new URL(response.headers.get("Location")!, ORIGIN).searchParams.has("error"));
  assert.equal(await (await getSession(browser)).json(), null);
});

// GitHub's second call (/user/emails)

function githubWith(emails: Endpoint): Browser {
  const scripted = scriptedFetch({
    "https://github.com/login/oauth/access_token": () =>
      json({ access_token: "gho_x", token_type: "bearer", scope: "read:user,user:email" }),
    "https://api.github.com/user": () => json({ id: 1, login: "octocat", email: null }),
    "https://api.github.com/user/emails": emails,
  });
  const auth = createAuth({
    oauth: [{ id: "github", clientId: "gh-id", clientSecret: "gh-secret" }],
    secret: SECRET,
    logger: false,
    fetch: scripted.fetch,
  });
  return new Browser(auth.handlers.ALL);
}

Deno.test("github signs in without an email when /user/emails answers 500", async () => {
  const browser = githubWith(() => json({ message: "Server Error" }, 500));
  const response = await callbackWithCode(browser, "github");
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual((await (await getSession(browser)).json()).user, { sub: "1", name: "octocat" });
});

Deno.test("github ignores an oversized /user/emails response", async () => {
  const entries = [{ email: "octocat@github.com", primary: true, verified: true }];
  const body = JSON.stringify(entries).replace("}", `,"pad":"${"a".repeat(OVER_LIMIT)}"}`);
  const browser = githubWith(() =>
    new Response(body, { headers: { "Content-Type": "application/json" } })
  );
  const response = await callbackWithCode(browser, "github");
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual((await (await getSession(browser)).json()).user, { sub: "1", name: "octocat" });
});

// Logs

Deno.test("failed provider calls never log the client secret, the code or the access token", async () => {
  const entries: LogEntry[] = [];
  const failures: Endpoint[] = [
    () => json({ error: "invalid_grant", error_description: "fake-secret the-code" }, 400),
    () => Promise.reject(new TypeError("connect failed for the-code fake-secret")),
  ];
  for (const token of failures) {
    const { browser } = setupFake({ token }, {
      logger: { level: "debug", log: (entry: LogEntry) => entries.push(entry) },
    });
    await callbackWithCode(browser, "fake");
  }
  const { browser } = setupFake({
    token: () => json({ access_token: "secret-access-token", token_type: "Bearer" }),
    userInfo: () => {
      throw new Error("boom secret-access-token");
    },
  }, { logger: { level: "debug", log: (entry: LogEntry) => entries.push(entry) } });
  await callbackWithCode(browser, "fake");
  assert.ok(entries.length > 0);
  const logged = JSON.stringify(entries);
  for (const secret of ["fake-secret", "the-code", "secret-access-token"]) {
    assert.ok(!logged.includes(secret), `the log holds ${secret}: ${logged}`);
  }
});

// Over a real loopback server with the runtime's own fetch

function serve(handler: (request: Request) => Response): { url: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("the runtime fetch does not follow a token endpoint's redirect", async () => {
  const hits: string[] = [];
  const server = serve((request) => {
    const path = new URL(request.url).pathname;
    hits.push(path);
    if (path === "/token") {
      return new Response(null, { status: 307, headers: { Location: "/elsewhere" } });
    }
    return json({ access_token: "followed", token_type: "Bearer" });
  });
  try {
    const auth = createAuth({
      oauth: [{
        ...FAKE,
        accessToken: `${server.url}/token`,
        userInfo: `${server.url}/userinfo`,
      }],
      secret: SECRET,
      logger: false,
    });
    const browser = new Browser(auth.handlers.ALL);
    const response = await callbackWithCode(browser, "fake");
    assertErrorRedirect(response, "/home", "server_error");
    assert.deepEqual(hits, ["/token"]);
  } finally {
    await server.close();
  }
});

Deno.test("a provider body that stalls after its headers is cut off by the timeout", async () => {
  const server = serve(() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"access_token":'));
      },
    });
    return new Response(body, { headers: { "Content-Type": "application/json" } });
  });
  try {
    const started = performance.now();
    const response = await timedFetch(fetch, 300)(`${server.url}/token`);
    await assert.rejects(
      () => readProviderText(response, "token"),
      (error: unknown) => error instanceof AuthError && error.code === "server_error",
    );
    assert.ok(performance.now() - started < 5_000);
  } finally {
    await server.close();
  }
});
