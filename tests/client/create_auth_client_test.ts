import assert from "node:assert/strict";
import { createAuthClient } from "../../client.ts";
import type { Session } from "../../src/types.ts";
import { cannedFetch, csrfAnswer, fakeAuthServer, json, stubLocation } from "./fake_auth_server.ts";

const ADA: Session = { user: { sub: "1", name: "Ada" }, expires: "2030-01-01T00:00:00.000Z" };

function fetchOptions(init: RequestInit): Pick<RequestInit, "cache" | "credentials" | "mode"> {
  return { cache: init.cache, credentials: init.credentials, mode: init.mode };
}

const DEFAULT_FETCH_OPTIONS = { cache: "no-store", credentials: "include", mode: "cors" };

// getSession

Deno.test("getSession sends GET {basePath}/session with the default fetch options", async () => {
  const server = fakeAuthServer({ session: ADA });
  await createAuthClient({ fetch: server.fetch }).getSession();
  assert.equal(server.requests.length, 1);
  const [request] = server.requests;
  assert.equal(request.method, "GET");
  assert.equal(request.url, "/auth/session");
  assert.equal(request.body, undefined);
  assert.equal(request.headers.get("Accept"), "application/json");
  assert.equal(request.headers.has("X-CSRF-Token"), false);
  assert.equal(request.headers.has("Content-Type"), false);
  assert.deepEqual(fetchOptions(request.init), DEFAULT_FETCH_OPTIONS);
});

Deno.test("getSession resolves the session on 200", async () => {
  const server = fakeAuthServer({ session: ADA });
  assert.deepEqual(await createAuthClient({ fetch: server.fetch }).getSession(), ADA);
});

Deno.test("getSession resolves null on 401", async () => {
  const server = fakeAuthServer();
  assert.equal(await createAuthClient({ fetch: server.fetch }).getSession(), null);
});

Deno.test("getSession resolves null on a network failure", async () => {
  const client = createAuthClient({ fetch: () => Promise.reject(new TypeError("offline")) });
  assert.equal(await client.getSession(), null);
});

Deno.test("getSession resolves null on a 200 whose body is not a session", async () => {
  for (const body of ['{"user":{}}', "<html>ok</html>", "null", '{"expires":"x"}']) {
    const { fetch } = cannedFetch(() => new Response(body, { status: 200 }));
    assert.equal(await createAuthClient({ fetch }).getSession(), null, body);
  }
});

Deno.test("getSession uses the configured cache, credentials and mode", async () => {
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({
    fetch: server.fetch,
    cache: "reload",
    credentials: "same-origin",
    mode: "same-origin",
  });
  await client.getSession();
  assert.deepEqual(fetchOptions(server.requests[0].init), {
    cache: "reload",
    credentials: "same-origin",
    mode: "same-origin",
  });
});

Deno.test("baseURL makes request URLs absolute", async () => {
  const { fetch, urls } = cannedFetch(() => json(200, ADA));
  await createAuthClient({ fetch, baseURL: "https://auth.example.com:8443/" }).getSession();
  assert.deepEqual(urls, ["https://auth.example.com:8443/auth/session"]);
});

Deno.test("basePath is used as given, without a doubled slash", async () => {
  const { fetch, urls } = cannedFetch(() => json(200, ADA));
  await createAuthClient({ fetch, basePath: "/api/auth/" }).getSession();
  await createAuthClient({ fetch, basePath: "/" }).getSession();
  assert.deepEqual(urls, ["/api/auth/session", "/session"]);
});

Deno.test("the global fetch is looked up at call time", async () => {
  const original = globalThis.fetch;
  const client = createAuthClient();
  const urls: string[] = [];
  globalThis.fetch = (input: RequestInfo | URL) => {
    urls.push(String(input));
    return Promise.resolve(json(200, ADA));
  };
  try {
    assert.deepEqual(await client.getSession(), ADA);
  } finally {
    globalThis.fetch = original;
  }
  assert.deepEqual(urls, ["/auth/session"]);
});

Deno.test("a custom fetch is called with globalThis as this", async () => {
  let self: unknown;
  const client = createAuthClient({
    fetch: function (this: unknown) {
      self = this;
      return Promise.resolve(json(200, ADA));
    },
  });
  await client.getSession();
  assert.equal(self, globalThis);
});

// signIn (OAuth)

Deno.test("signIn navigates to {basePath}/signIn/:oauth with redirectTo", async () => {
  const location = stubLocation();
  try {
    const result = await createAuthClient().signIn("github", { redirectTo: "/dash?tab=1" });
    const url = "/auth/signIn/github?redirectTo=%2Fdash%3Ftab%3D1";
    assert.deepEqual(location.assigned, [url]);
    assert.deepEqual(result, { data: { url }, error: null });
  } finally {
    location.restore();
  }
});

Deno.test("signIn without redirectTo puts no query on the URL", async () => {
  const location = stubLocation();
  try {
    await createAuthClient().signIn("github");
    await createAuthClient().signIn("github", { redirectTo: undefined, redirect: true });
    assert.deepEqual(location.assigned, ["/auth/signIn/github", "/auth/signIn/github"]);
  } finally {
    location.restore();
  }
});

Deno.test("signIn percent-encodes the provider id", async () => {
  const { data } = await createAuthClient().signIn("a/b?c#d e", { redirect: false });
  assert.equal(data?.url, "/auth/signIn/a%2Fb%3Fc%23d%20e");
});

Deno.test("signIn with redirect false returns the URL without navigating", async () => {
  const location = stubLocation();
  try {
    const result = await createAuthClient({ baseURL: "https://auth.example.com" })
      .signIn("gitlab", { redirectTo: "https://app.test/x", redirect: false });
    assert.deepEqual(location.assigned, []);
    assert.deepEqual(result, {
      data: {
        url: "https://auth.example.com/auth/signIn/gitlab?redirectTo=https%3A%2F%2Fapp.test%2Fx",
      },
      error: null,
    });
  } finally {
    location.restore();
  }
});

Deno.test("signIn outside a browser returns the URL", async () => {
  assert.equal((globalThis as { location?: unknown }).location, undefined);
  const result = await createAuthClient().signIn("github");
  assert.deepEqual(result, { data: { url: "/auth/signIn/github" }, error: null });
});

Deno.test("signIn returns the URL when location.assign throws", async () => {
  const location = stubLocation({ throwing: true });
  try {
    const result = await createAuthClient().signIn("github");
    assert.deepEqual(result, { data: { url: "/auth/signIn/github" }, error: null });
  } finally {
    location.restore();
  }
});

Deno.test("signIn makes no fetch call", async () => {
  const { fetch, urls } = cannedFetch(() => json(200, {}));
  await createAuthClient({ fetch }).signIn("github", { redirect: false });
  assert.deepEqual(urls, []);
});

Deno.test("signIn refuses an unsafe redirectTo without navigating", async () => {
  const location = stubLocation();
  try {
    for (const redirectTo of ["javascript:alert(1)", "//evil.test", "/\\evil.test"]) {
      const result = await createAuthClient().signIn("github", { redirectTo });
      assert.equal(result.data, null);
      assert.equal(result.error?.error, "invalid_redirect_to");
      assert.equal(result.error?.status, 0);
    }
    assert.deepEqual(location.assigned, []);
  } finally {
    location.restore();
  }
});

Deno.test("signIn refuses an empty provider id", async () => {
  const result = await createAuthClient().signIn("", { redirect: false });
  assert.equal(result.error?.error, "invalid_request");
  assert.equal(result.error?.status, 0);
});

// Mutating calls: request shape

Deno.test("signIn.credentials fetches a CSRF token, then posts JSON with it", async () => {
  const server = fakeAuthServer();
  await createAuthClient({ fetch: server.fetch }).signIn.credentials({
    username: "ada",
    password: "pw",
  });
  const [token, post] = server.requests;
  assert.equal(server.requests.length, 2);
  assert.equal(token.method, "GET");
  assert.equal(token.url, "/auth/csrfToken");
  assert.equal(token.body, undefined);
  assert.equal(post.method, "POST");
  assert.equal(post.url, "/auth/signIn/credentials");
  assert.equal(post.headers.get("Content-Type"), "application/json");
  assert.equal(post.headers.get("Accept"), "application/json");
  assert.equal(post.headers.get("X-CSRF-Token"), "csrf-1");
  assert.deepEqual(JSON.parse(post.body!), { username: "ada", password: "pw" });
  assert.deepEqual(fetchOptions(token.init), DEFAULT_FETCH_OPTIONS);
  assert.deepEqual(fetchOptions(post.init), DEFAULT_FETCH_OPTIONS);
});

Deno.test("signIn.credentials resolves the session on 200", async () => {
  const server = fakeAuthServer();
  const result = await createAuthClient({ fetch: server.fetch }).signIn.credentials({
    username: "ada",
    password: "pw",
  });
  assert.deepEqual(result, { data: ADA, error: null });
});

Deno.test("signIn.credentials resolves access_denied with status 401 on a wrong password", async () => {
  const server = fakeAuthServer();
  const result = await createAuthClient({ fetch: server.fetch }).signIn.credentials({
    username: "ada",
    password: "nope",
  });
  assert.deepEqual(result, {
    data: null,
    error: {
      error: "access_denied",
      error_description: "Wrong username or password.",
      status: 401,
    },
  });
});

Deno.test("signUp posts the payload without redirect fields and resolves on 201", async () => {
  const server = fakeAuthServer();
  const location = stubLocation();
  try {
    const client = createAuthClient<
      { sub: string; name?: string; plan?: string },
      { name: string; plan: string }
    >({ fetch: server.fetch });
    const result = await client.signUp({
      name: "Bob",
      plan: "pro",
      redirectTo: "/welcome",
      redirect: false,
    });
    const post = server.requests[1];
    assert.equal(post.method, "POST");
    assert.equal(post.url, "/auth/signUp?redirectTo=%2Fwelcome");
    assert.equal(post.headers.get("X-CSRF-Token"), "csrf-1");
    assert.deepEqual(JSON.parse(post.body!), { name: "Bob", plan: "pro" });
    assert.equal(result.error, null);
    assert.deepEqual(result.data?.user, { sub: "2", name: "Bob", plan: "pro" });
  } finally {
    location.restore();
  }
});

Deno.test("signUp without arguments posts an empty JSON object", async () => {
  const server = fakeAuthServer();
  const result = await createAuthClient({ fetch: server.fetch }).signUp();
  assert.equal(server.requests[1].url, "/auth/signUp");
  assert.equal(server.requests[1].body, "{}");
  assert.equal(result.error, null);
});

Deno.test("updateSession sends PATCH /session with { user, expires }", async () => {
  const server = fakeAuthServer({ session: ADA });
  const expires = "2029-01-01T00:00:00.000Z";
  const result = await createAuthClient({ fetch: server.fetch }).updateSession(
    { name: "Ada L." },
    { expires },
  );
  const patch = server.requests[1];
  assert.equal(patch.method, "PATCH");
  assert.equal(patch.url, "/auth/session");
  assert.equal(patch.headers.get("X-CSRF-Token"), "csrf-1");
  assert.deepEqual(JSON.parse(patch.body!), { user: { name: "Ada L." }, expires });
  assert.deepEqual(result, { data: { user: { sub: "1", name: "Ada L." }, expires }, error: null });
});

Deno.test("updateSession without expires sends only { user }", async () => {
  const server = fakeAuthServer({ session: ADA });
  await createAuthClient({ fetch: server.fetch }).updateSession({ email: "ada@example.com" });
  assert.deepEqual(JSON.parse(server.requests[1].body!), { user: { email: "ada@example.com" } });
});

Deno.test("updateSession resolves invalid_session_token with status 401 without a session", async () => {
  const server = fakeAuthServer();
  const result = await createAuthClient({ fetch: server.fetch }).updateSession({ name: "X" });
  assert.equal(result.data, null);
  assert.equal(result.error?.error, "invalid_session_token");
  assert.equal(result.error?.status, 401);
});

Deno.test("signOut posts {} with the CSRF token and resolves { ok: true }", async () => {
  const server = fakeAuthServer({ session: ADA });
  const result = await createAuthClient({ fetch: server.fetch }).signOut();
  const post = server.requests[1];
  assert.equal(post.method, "POST");
  assert.equal(post.url, "/auth/signOut");
  assert.equal(post.body, "{}");
  assert.equal(post.headers.get("Content-Type"), "application/json");
  assert.equal(post.headers.get("X-CSRF-Token"), "csrf-1");
  assert.deepEqual(result, { data: { ok: true }, error: null });
  assert.equal(server.session, null);
});

Deno.test("a mutating call without the CSRF cookie gets invalid_csrf_token with status 403", async () => {
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({ fetch: server.fetch, credentials: "omit" });
  const result = await client.signOut();
  assert.deepEqual(result.error, {
    error: "invalid_csrf_token",
    error_description: "CSRF token missing or mismatched.",
    status: 403,
  });
  assert.deepEqual(server.session, ADA);
});

Deno.test("concurrent mutating calls each use the token they fetched", async () => {
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({ fetch: server.fetch });
  const [a, b, c] = await Promise.all([
    client.updateSession({ name: "A" }),
    client.updateSession({ image: "https://img.test/a.png" }),
    client.signOut(),
  ]);
  assert.equal(a.error, null);
  assert.equal(b.error, null);
  assert.equal(c.error, null);
  assert.deepEqual(server.requests.map((r) => r.url), [
    "/auth/csrfToken",
    "/auth/session",
    "/auth/csrfToken",
    "/auth/session",
    "/auth/csrfToken",
    "/auth/signOut",
  ]);
});

Deno.test("a failed mutating call does not block the next one", async () => {
  let calls = 0;
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({
    fetch: (url, init) =>
      ++calls === 1 ? Promise.reject(new Error("down")) : server.fetch(url, init),
  });
  const first = await client.signOut();
  const second = await client.signOut();
  assert.equal(first.error?.status, 0);
  assert.deepEqual(second, { data: { ok: true }, error: null });
});

// Redirect behaviour of mutating calls

Deno.test("a mutating call navigates to redirectTo after success", async () => {
  const server = fakeAuthServer();
  const location = stubLocation();
  try {
    const result = await createAuthClient({ fetch: server.fetch }).signIn.credentials({
      username: "ada",
      password: "pw",
      redirectTo: "/home",
    });
    assert.equal(result.error, null);
    assert.equal(server.requests[1].url, "/auth/signIn/credentials?redirectTo=%2Fhome");
    assert.deepEqual(location.assigned, ["/home"]);
    assert.equal(location.reloads, 0);
  } finally {
    location.restore();
  }
});

Deno.test("a mutating call with redirect false does not navigate", async () => {
  const server = fakeAuthServer({ session: ADA });
  const location = stubLocation();
  try {
    await createAuthClient({ fetch: server.fetch }).signOut({ redirectTo: "/", redirect: false });
    assert.deepEqual(location.assigned, []);
    assert.equal(location.reloads, 0);
  } finally {
    location.restore();
  }
});

Deno.test("a mutating call with redirect true and no redirectTo reloads the page", async () => {
  const server = fakeAuthServer({ session: ADA });
  const location = stubLocation();
  try {
    await createAuthClient({ fetch: server.fetch }).signOut({ redirect: true });
    assert.deepEqual(location.assigned, []);
    assert.equal(location.reloads, 1);
  } finally {
    location.restore();
  }
});

Deno.test("a mutating call without redirect options does not navigate", async () => {
  const server = fakeAuthServer({ session: ADA });
  const location = stubLocation();
  try {
    await createAuthClient({ fetch: server.fetch }).updateSession({ name: "B" });
    assert.deepEqual(location.assigned, []);
    assert.equal(location.reloads, 0);
  } finally {
    location.restore();
  }
});

Deno.test("a failed mutating call does not navigate to redirectTo", async () => {
  const server = fakeAuthServer();
  const location = stubLocation();
  try {
    const result = await createAuthClient({ fetch: server.fetch }).signIn.credentials({
      username: "ada",
      password: "wrong",
      redirectTo: "/home",
      redirect: true,
    });
    assert.equal(result.error?.status, 401);
    assert.deepEqual(location.assigned, []);
    assert.equal(location.reloads, 0);
  } finally {
    location.restore();
  }
});

Deno.test("a redirectTo the server rejects is reported and not navigated to", async () => {
  const server = fakeAuthServer({ session: ADA });
  const location = stubLocation();
  try {
    const result = await createAuthClient({ fetch: server.fetch }).signOut({
      redirectTo: "https://evil.test/",
    });
    assert.equal(result.error?.error, "invalid_redirect_to");
    assert.equal(result.error?.status, 400);
    assert.deepEqual(location.assigned, []);
    assert.deepEqual(server.session, ADA);
  } finally {
    location.restore();
  }
});

Deno.test("a mutating call refuses an unsafe redirectTo before any request", async () => {
  const server = fakeAuthServer({ session: ADA });
  const location = stubLocation();
  try {
    const result = await createAuthClient({ fetch: server.fetch }).signOut({
      redirectTo: "javascript:alert(document.cookie)",
    });
    assert.equal(result.error?.error, "invalid_redirect_to");
    assert.equal(result.error?.status, 0);
    assert.deepEqual(server.requests, []);
    assert.deepEqual(location.assigned, []);
  } finally {
    location.restore();
  }
});

Deno.test("the client never asks the server to redirect", async () => {
  const server = fakeAuthServer();
  const location = stubLocation();
  try {
    const client = createAuthClient({ fetch: server.fetch });
    await client.signUp({ redirect: true, redirectTo: "/a" });
    await client.signIn.credentials({ username: "ada", password: "pw", redirect: true });
    await client.updateSession({ name: "Z" }, { redirect: true });
    await client.signOut({ redirect: true, redirectTo: "/b" });
    for (const request of server.requests) {
      assert.equal(new URL(request.url, "https://app.test").searchParams.has("redirect"), false);
    }
    assert.equal(server.requests.length, 8);
  } finally {
    location.restore();
  }
});

Deno.test("no URL the client produces contains undefined", async () => {
  const server = fakeAuthServer({ session: ADA });
  const location = stubLocation();
  try {
    const client = createAuthClient({ fetch: server.fetch });
    await client.getSession();
    await client.signIn("github");
    await client.signIn("github", {});
    await client.signIn("github", { redirectTo: undefined, redirect: undefined });
    await client.signUp({ redirectTo: undefined });
    await client.signIn.credentials({ username: "ada", password: "pw", redirectTo: undefined });
    await client.updateSession({}, { expires: undefined, redirectTo: undefined });
    await client.signOut({ redirectTo: undefined, redirect: undefined });
    const urls = [...server.requests.map((r) => r.url), ...location.assigned];
    assert.equal(urls.length, 12);
    for (const url of urls) {
      assert.doesNotMatch(url, /undefined|null|\?$/);
    }
  } finally {
    location.restore();
  }
});

// Error results

Deno.test("each contract error status becomes { data: null, error } with that status", async () => {
  const cases: [number, string][] = [
    [400, "invalid_request"],
    [400, "invalid_redirect_to"],
    [401, "access_denied"],
    [401, "invalid_session_token"],
    [403, "invalid_csrf_token"],
    [403, "access_denied"],
    [404, "invalid_request"],
    [405, "invalid_request"],
    [413, "invalid_request"],
    [415, "invalid_request"],
    [500, "server_error"],
    [502, "server_error"],
    [502, "invalid_grant"],
  ];
  for (const [status, error] of cases) {
    const { fetch } = cannedFetch((url) =>
      url.endsWith("/csrfToken")
        ? csrfAnswer()
        : json(status, { error, error_description: `because ${status}` })
    );
    const result = await createAuthClient({ fetch }).signUp({ name: "x" });
    assert.deepEqual(result, {
      data: null,
      error: { error, error_description: `because ${status}`, status },
    });
  }
});

Deno.test("an error body without error_description keeps the field absent", async () => {
  const { fetch } = cannedFetch((url) =>
    url.endsWith("/csrfToken") ? csrfAnswer() : json(405, { error: "invalid_request" })
  );
  const result = await createAuthClient({ fetch }).signOut();
  assert.deepEqual(result.error, { error: "invalid_request", status: 405 });
});

Deno.test("a non-JSON error answer becomes server_error with its status", async () => {
  const { fetch } = cannedFetch((url) =>
    url.endsWith("/csrfToken")
      ? csrfAnswer()
      : new Response("<h1>Bad Gateway</h1>", { status: 502 })
  );
  const result = await createAuthClient({ fetch }).signOut();
  assert.equal(result.data, null);
  assert.equal(result.error?.error, "server_error");
  assert.equal(result.error?.status, 502);
  assert.equal(typeof result.error?.error_description, "string");
});

Deno.test("an unknown error code becomes server_error and keeps the description", async () => {
  const { fetch } = cannedFetch((url) =>
    url.endsWith("/csrfToken")
      ? csrfAnswer()
      : json(400, { error: "<script>", error_description: "odd" })
  );
  const result = await createAuthClient({ fetch }).signOut();
  assert.deepEqual(result.error, { error: "server_error", error_description: "odd", status: 400 });
});

Deno.test("a 2xx answer of the wrong shape becomes server_error with its status", async () => {
  const { fetch } = cannedFetch((url) =>
    url.endsWith("/csrfToken") ? csrfAnswer() : json(200, { ok: false })
  );
  const client = createAuthClient({ fetch });
  const out = await client.signOut();
  const signIn = await client.signIn.credentials({ username: "a", password: "b" });
  assert.equal(out.error?.error, "server_error");
  assert.equal(out.error?.status, 200);
  assert.equal(signIn.error?.error, "server_error");
  assert.equal(signIn.error?.status, 200);
});

Deno.test("a network failure resolves server_error with status 0", async () => {
  const client = createAuthClient({
    fetch: () => Promise.reject(new TypeError("Failed to fetch")),
  });
  const result = await client.signIn.credentials({ username: "ada", password: "pw" });
  assert.equal(result.data, null);
  assert.equal(result.error?.error, "server_error");
  assert.equal(result.error?.status, 0);
  assert.match(result.error?.error_description ?? "", /Failed to fetch/);
});

Deno.test("a network failure after the CSRF token resolves server_error with status 0", async () => {
  const client = createAuthClient({
    fetch: (url) =>
      url.endsWith("/csrfToken")
        ? Promise.resolve(csrfAnswer())
        : Promise.reject(new Error("reset")),
  });
  const result = await client.updateSession({ name: "x" });
  assert.equal(result.error?.error, "server_error");
  assert.equal(result.error?.status, 0);
});

Deno.test("a fetch that throws synchronously resolves an error, not a throw", async () => {
  const client = createAuthClient({
    fetch: () => {
      throw new Error("sync");
    },
  });
  const result = await client.signOut();
  assert.equal(result.error?.status, 0);
  assert.equal(await client.getSession(), null);
});

Deno.test("a failed CSRF token request is returned and the call is not sent", async () => {
  const { fetch, urls } = cannedFetch(() =>
    json(403, { error: "access_denied", error_description: "Untrusted origin." })
  );
  const result = await createAuthClient({ fetch }).signOut();
  assert.deepEqual(result.error, {
    error: "access_denied",
    error_description: "Untrusted origin.",
    status: 403,
  });
  assert.deepEqual(urls, ["/auth/csrfToken"]);
});

Deno.test("a CSRF token answer without a token is an error and the call is not sent", async () => {
  for (const body of [{}, { csrfToken: "" }, { csrfToken: 5 }]) {
    const { fetch, urls } = cannedFetch(() => json(200, body));
    const result = await createAuthClient({ fetch }).signOut();
    assert.equal(result.error?.error, "server_error");
    assert.equal(result.error?.status, 200);
    assert.deepEqual(urls, ["/auth/csrfToken"]);
  }
});

Deno.test("failures write nothing to the console", async () => {
  const methods = ["log", "info", "warn", "error", "debug", "trace"] as const;
  const saved = methods.map((m) => console[m]);
  let writes = 0;
  for (const m of methods) console[m] = () => void writes++;
  try {
    const client = createAuthClient({ fetch: () => Promise.reject(new Error("down")) });
    await client.getSession();
    await client.signOut();
    await client.signIn("x", { redirectTo: "javascript:x" });
    const { fetch } = cannedFetch(() => new Response("nope", { status: 500 }));
    await createAuthClient({ fetch }).signUp();
  } finally {
    methods.forEach((m, i) => console[m] = saved[i]);
  }
  assert.equal(writes, 0);
});

// Headers

Deno.test("a headers object is sent on every request", async () => {
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({ fetch: server.fetch, headers: { Authorization: "Bearer k" } });
  await client.getSession();
  await client.signOut();
  assert.equal(server.requests.length, 3);
  for (const request of server.requests) {
    assert.equal(request.headers.get("Authorization"), "Bearer k");
  }
});

Deno.test("a headers function is evaluated before every request", async () => {
  const server = fakeAuthServer({ session: ADA });
  let calls = 0;
  const client = createAuthClient({
    fetch: server.fetch,
    headers: () => ({ "X-Call": String(++calls) }),
  });
  await client.getSession();
  await client.updateSession({ name: "N" });
  assert.equal(calls, 3);
  assert.deepEqual(server.requests.map((r) => r.headers.get("X-Call")), ["1", "2", "3"]);
});

Deno.test("an async headers function is awaited", async () => {
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({
    fetch: server.fetch,
    headers: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return new Headers({ Authorization: "Bearer async" });
    },
  });
  await client.getSession();
  assert.equal(server.requests[0].headers.get("Authorization"), "Bearer async");
});

Deno.test("a throwing headers function resolves an error with status 0", async () => {
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({
    fetch: server.fetch,
    headers: () => Promise.reject(new Error("token refresh failed")),
  });
  const result = await client.signOut();
  assert.equal(result.error?.error, "server_error");
  assert.equal(result.error?.status, 0);
  assert.match(result.error?.error_description ?? "", /token refresh failed/);
  assert.equal(await client.getSession(), null);
  assert.deepEqual(server.requests, []);
});

Deno.test("user headers cannot replace the CSRF, Accept or Content-Type headers", async () => {
  const server = fakeAuthServer({ session: ADA });
  const client = createAuthClient({
    fetch: server.fetch,
    headers: {
      "X-CSRF-Token": "forged",
      "Content-Type": "text/plain",
      Accept: "text/html",
    },
  });
  const result = await client.signOut();
  const post = server.requests[1];
  assert.equal(post.headers.get("X-CSRF-Token"), "csrf-1");
  assert.equal(post.headers.get("Content-Type"), "application/json");
  assert.equal(post.headers.get("Accept"), "application/json");
  assert.equal(result.error, null);
});

Deno.test("the client keeps one name per call: signIn.credentials, no signInCredentials", () => {
  const client = createAuthClient({ fetch: () => Promise.resolve(new Response("null")) });
  assert.equal(typeof client.signIn.credentials, "function");
  assert.equal("signInCredentials" in client, false);
  assert.equal(typeof client.signIn.email, "function");
});
