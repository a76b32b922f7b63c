/**
 * The demo app shared by the examples (`examples/shared/demo.mjs`), called
 * in-process the way the entries mount it: `/auth/` to `createAuth`'s
 * handlers, everything else to the demo. The runtime matrix and the browser
 * test run the same app as real servers; these cover its own rules.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { createDemo, portFromEnv, portInUseMessage } from "../../examples/shared/demo.mjs";
import { HttpClient } from "../support/http_client.ts";
import { REPO_ROOT } from "../support/server.ts";
import { currentSession, demoPassword, mutate, signInWithMock } from "../runtimes/_demo_flow.ts";

const ORIGIN = "http://127.0.0.1:8000";
const SECRET = "examples-test-secret-0123456789abcdef-0123456789";

interface InProcessDemo {
  client: HttpClient;
  output: string[];
  secret: unknown;
  /** Another browser on the same server, with its own cookies and User-Agent. */
  browser(userAgent: string): HttpClient;
}

async function demoApp(env: Record<string, string> = {}): Promise<InProcessDemo> {
  const output: string[] = [];
  const demo = await createDemo({
    origin: ORIGIN,
    env,
    runtime: "Test 1.0",
    clientModules: new Map([["client.js", "export const createAuthClient = 1;\n"]]),
    log: (line: string) => output.push(line),
  });
  // The entries let createAuth read an environment secret itself; here it is passed in.
  const auth = createAuth({ ...demo.authConfig, secret: demo.authConfig.secret ?? SECRET });
  const handleDemo = demo.handler(auth);
  const serve = async (request: Request) => {
    const { pathname } = new URL(request.url);
    return pathname.startsWith("/auth/")
      ? await auth.handlers.ALL(request)
      : await handleDemo(request);
  };
  const browser = (userAgent: string) =>
    new HttpClient({ headers: { origin: ORIGIN, "user-agent": userAgent }, fetch: serve });
  return { client: browser("Test browser"), output, secret: demo.authConfig.secret, browser };
}

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 " +
  "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Signs `client` in as the demo user. */
async function signInAsDemo(client: HttpClient, output: string[]): Promise<void> {
  const response = await mutate(client, `${ORIGIN}/auth/signIn/credentials`, {
    body: { username: "demo", password: demoPassword(output.join("\n")) },
  });
  assert.equal(response.status, 200);
  await response.body?.cancel();
}

/** A POST to a device endpoint as the page sends it: same-origin JSON. */
function postJson(client: HttpClient, path: string, body: unknown): Promise<Response> {
  return client.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function devices(client: HttpClient): Promise<Record<string, unknown>[]> {
  const response = await client.fetch(`${ORIGIN}/demo/sessions`);
  assert.equal(response.status, 200);
  return (await response.json()).sessions;
}

Deno.test("demo: without AUTH_SECRET it generates a random secret and says so", async () => {
  const first = await demoApp();
  const second = await demoApp();
  assert.equal(typeof first.secret, "string");
  assert.ok((first.secret as string).length >= 43);
  assert.notEqual(first.secret, second.secret);
  assert.ok(first.output.some((line) => /AUTH_SECRET is not set.*random/.test(line)));
});

Deno.test("demo: with AUTH_SECRET set it leaves the secret to createAuth's env lookup", async () => {
  const demo = await demoApp({ AUTH_SECRET: SECRET });
  assert.equal(demo.secret, undefined);
  assert.ok(demo.output.includes("Secret: read from AUTH_SECRET."));
});

Deno.test("demo: prints a fresh random password for the demo user, which signs in", async () => {
  const { client, output } = await demoApp();
  const password = demoPassword(output.join("\n"));
  assert.match(password, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
  assert.notEqual(password, demoPassword((await demoApp()).output.join("\n")));
  const response = await mutate(client, `${ORIGIN}/auth/signIn/credentials`, {
    body: { username: "demo", password },
  });
  assert.equal(response.status, 200);
  assert.deepEqual((await response.json()).user, {
    sub: "user-demo",
    name: "Demo User",
    email: "demo@example.com",
  });
});

Deno.test("demo: a wrong password and an unknown username both get 401 access_denied", async () => {
  const { client } = await demoApp();
  for (const username of ["demo", "nobody"]) {
    const response = await mutate(client, `${ORIGIN}/auth/signIn/credentials`, {
      body: { username, password: "not-the-password" },
    });
    assert.equal(response.status, 401, username);
    assert.equal((await response.json()).error, "access_denied");
  }
});

Deno.test("demo: an unknown username costs the same PBKDF2 derivation as a wrong password", async () => {
  const { client } = await demoApp();
  const derived: Record<string, number[]> = {};
  const subtle = crypto.subtle as unknown as Record<string, unknown>;
  const original = crypto.subtle.deriveBits;
  for (const username of ["demo", "nobody"]) {
    const iterations: number[] = (derived[username] = []);
    subtle.deriveBits = (algorithm: Pbkdf2Params, key: CryptoKey, length: number) => {
      if (algorithm.name === "PBKDF2") iterations.push(algorithm.iterations);
      return original.call(crypto.subtle, algorithm, key, length);
    };
    try {
      const response = await mutate(client, `${ORIGIN}/auth/signIn/credentials`, {
        body: { username, password: "not-the-password" },
      });
      assert.equal(response.status, 401, username);
      await response.body?.cancel();
    } finally {
      delete subtle.deriveBits;
    }
  }
  assert.deepEqual(derived, { demo: [600_000], nobody: [600_000] });
});

Deno.test("demo: sign-up refuses invalid fields with 400 naming each one, quoting no value", async () => {
  const { client } = await demoApp();
  const response = await mutate(client, `${ORIGIN}/auth/signUp`, {
    body: { username: "A", password: "short", role: "admin" },
  });
  assert.equal(response.status, 400);
  const body = await response.json();
  assert.equal(body.error, "invalid_request");
  assert.equal(
    body.error_description,
    "The sign-up data is invalid; check username, password, role.",
  );
});

Deno.test("demo: sign-up refuses a taken username with 409", async () => {
  const { client } = await demoApp();
  const response = await mutate(client, `${ORIGIN}/auth/signUp`, {
    body: { username: "demo", password: "long-enough-password" },
  });
  assert.equal(response.status, 409);
  assert.equal((await response.json()).error, "invalid_request");
});

Deno.test("demo: a new account signs in with its password only", async () => {
  const { client } = await demoApp();
  const created = await mutate(client, `${ORIGIN}/auth/signUp`, {
    body: { username: "ada", password: "analytical-engine" },
  });
  assert.equal(created.status, 201);
  assert.equal((await created.json()).user.name, "ada");
  assert.equal((await mutate(client, `${ORIGIN}/auth/signOut`)).status, 200);
  const wrong = await mutate(client, `${ORIGIN}/auth/signIn/credentials`, {
    body: { username: "ada", password: "difference-engine" },
  });
  assert.equal(wrong.status, 401);
  const right = await mutate(client, `${ORIGIN}/auth/signIn/credentials`, {
    body: { username: "ada", password: "analytical-engine" },
  });
  assert.equal(right.status, 200);
});

Deno.test("demo: OAuth sign-in through the in-process mock provider lands on the page", async () => {
  const { client } = await demoApp();
  const back = await signInWithMock(client, ORIGIN, { account: "mock-ada" });
  assert.equal(back.url, `${ORIGIN}/`);
  await back.response.body?.cancel();
  const session = await (await client.fetch(`${ORIGIN}/auth/session`)).json();
  assert.deepEqual(session.user, {
    sub: "mock-ada",
    name: "Ada Lovelace",
    email: "ada@example.com",
    emailVerified: true,
  });
});

Deno.test("demo: a denied consent returns to the page with the error in the query", async () => {
  const { client } = await demoApp();
  const back = await signInWithMock(client, ORIGIN, { decision: "deny" });
  await back.response.body?.cancel();
  const landed = new URL(back.url);
  assert.equal(landed.pathname, "/");
  assert.equal(landed.searchParams.get("error"), "access_denied");
  assert.equal(await (await client.fetch(`${ORIGIN}/auth/session`)).json(), null);
});

Deno.test("demo: the mock provider refuses a redirect URI other than the app's callback", async () => {
  const { client } = await demoApp();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: "mock-client-id",
    redirect_uri: "http://evil.example/auth/callback/mock",
    state: "s",
    code_challenge: "a".repeat(43),
    code_challenge_method: "S256",
  });
  const response = await client.fetch(`${ORIGIN}/mock-oauth/authorize?${query}`);
  assert.equal(response.status, 400);
  assert.equal(response.headers.get("location"), null);
  await response.body?.cancel();
});

Deno.test("demo: serves only its own files; other paths get 404 and writes 405", async () => {
  const { client } = await demoApp();
  for (const path of ["/client/client.js", "/app.js", "/app.css", "/"]) {
    const response = await client.fetch(`${ORIGIN}${path}`);
    await response.body?.cancel();
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  }
  for (
    const path of ["/client/../demo.mjs", "/client/%2e%2e/demo.mjs", "/demo.mjs", "/page.html"]
  ) {
    const response = await client.fetch(`${ORIGIN}${path}`);
    await response.body?.cancel();
    assert.equal(response.status, 404, path);
  }
  const post = await client.fetch(`${ORIGIN}/`, { method: "POST", body: "x" });
  await post.body?.cancel();
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
});

Deno.test("demo: the page's CSP allows only same-origin scripts and its import map by hash", async () => {
  const { client } = await demoApp();
  const response = await client.fetch(`${ORIGIN}/`);
  const html = await response.text();
  const csp = response.headers.get("content-security-policy") ?? "";
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)![1];
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(importMap));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  assert.ok(csp.includes(`script-src 'self' 'sha256-${hash}';`), csp);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /object-src 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.match(html, /Running on <strong id="runtime">Test 1\.0<\/strong>/);
});

Deno.test("demo: PORT defaults to 8000, takes 0 to 65535 and refuses anything else", () => {
  assert.equal(portFromEnv({}), 8000);
  assert.equal(portFromEnv({ PORT: "" }), 8000);
  assert.equal(portFromEnv({ PORT: "0" }), 0);
  assert.equal(portFromEnv({ PORT: "3000" }), 3000);
  for (const bad of ["80a", "-1", "65536", "1e3", " 80"]) {
    assert.throws(() => portFromEnv({ PORT: bad }), /Invalid PORT/, bad);
  }
});

Deno.test("demo: sessions live in a store, so a cookie copied before sign-out is no session after", async () => {
  const { client, output } = await demoApp();
  await signInAsDemo(client, output);
  const copied = client.jar.header(`${ORIGIN}/auth/session`);
  assert.equal((await mutate(client, `${ORIGIN}/auth/signOut`)).status, 200);
  const replay = await client.fetch(`${ORIGIN}/auth/session`, { headers: { cookie: copied } });
  assert.equal(await replay.json(), null);
});

Deno.test("demo: GET /demo/sessions lists the user's devices, this one marked current", async () => {
  const { client, output, browser } = await demoApp();
  const phone = browser(PHONE);
  await signInAsDemo(client, output);
  await signInAsDemo(phone, output);
  const listed = await devices(client);
  assert.equal(listed.length, 2);
  const current = listed.filter((device) => device.current);
  assert.equal(current.length, 1);
  assert.equal(current[0].userAgent, "Test browser");
  const other = listed.find((device) => !device.current)!;
  assert.equal(other.userAgent, PHONE);
  for (const device of listed) {
    assert.deepEqual(Object.keys(device).sort(), [
      "createdAt",
      "current",
      "expiresAt",
      "id",
      "userAgent",
    ]);
    assert.equal(new Date(device.createdAt as string).toISOString(), device.createdAt);
  }
});

Deno.test("demo: ending another device signs that browser out and leaves this one", async () => {
  const { client, output, browser } = await demoApp();
  const phone = browser(PHONE);
  await signInAsDemo(client, output);
  await signInAsDemo(phone, output);
  const other = (await devices(client)).find((device) => !device.current)!;
  const ended = await postJson(client, "/demo/sessions/end", { id: other.id });
  assert.equal(ended.status, 200);
  assert.deepEqual(await ended.json(), { ended: true });
  assert.equal(await currentSession(phone, ORIGIN), null);
  assert.equal((await devices(client)).length, 1);
  // The phone's stale page gets 401 on its next save.
  const save = await mutate(phone, `${ORIGIN}/auth/session`, {
    method: "PATCH",
    body: { user: { name: "Stale" } },
  });
  assert.equal(save.status, 401);
  assert.equal((await save.json()).error, "invalid_session_token");
});

Deno.test("demo: a session of another user cannot be ended (404), nor an unknown id", async () => {
  const { client, output, browser } = await demoApp();
  const grace = browser(FIREFOX);
  await signInAsDemo(client, output);
  (await signInWithMock(grace, ORIGIN, { account: "mock-grace" })).response.body?.cancel();
  const graces = (await devices(grace))[0];
  for (const id of [graces.id, "no-such-session"]) {
    const response = await postJson(client, "/demo/sessions/end", { id });
    assert.equal(response.status, 404, String(id));
    assert.equal((await response.json()).error, "invalid_request");
  }
  const still = await currentSession(grace, ORIGIN);
  assert.ok(typeof still === "object" && still !== null);
  assert.equal(still.user.sub, "mock-grace");
});

Deno.test("demo: sign out everywhere ends every session and clears this browser's cookies", async () => {
  const { client, output, browser } = await demoApp();
  const phone = browser(PHONE);
  await signInAsDemo(client, output);
  await signInAsDemo(phone, output);
  const response = await postJson(client, "/demo/sessions/end-all", {});
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ended: 2 });
  assert.ok(response.headers.getSetCookie().some((line) => /session_token=;/.test(line)));
  assert.equal(await currentSession(client, ORIGIN), null);
  assert.equal(await currentSession(phone, ORIGIN), null);
});

Deno.test("demo: the device endpoints need a session (401)", async () => {
  const { client } = await demoApp();
  const list = await client.fetch(`${ORIGIN}/demo/sessions`);
  assert.equal(list.status, 401);
  assert.equal((await list.json()).error, "invalid_session_token");
  for (const path of ["/demo/sessions/end", "/demo/sessions/end-all"]) {
    const response = await postJson(client, path, { id: "x" });
    assert.equal(response.status, 401, path);
    await response.body?.cancel();
  }
});

Deno.test("demo: device POSTs from another origin or not as JSON are refused before anything", async () => {
  const { client, output } = await demoApp();
  await signInAsDemo(client, output);
  for (const origin of ["http://evil.example", "null"]) {
    const response = await client.fetch(`${ORIGIN}/demo/sessions/end-all`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(response.status, 403, origin);
    await response.body?.cancel();
  }
  const form = await client.fetch(`${ORIGIN}/demo/sessions/end-all`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "a=b",
  });
  assert.equal(form.status, 415);
  await form.body?.cancel();
  assert.equal((await devices(client)).length, 1, "nothing was ended");
});

Deno.test("demo: device endpoints refuse bad bodies and methods with the JSON error shape", async () => {
  const { client, output } = await demoApp();
  await signInAsDemo(client, output);
  const cases: [string, RequestInit, number][] = [
    ["/demo/sessions/end", { method: "POST", body: "not json" }, 400],
    ["/demo/sessions/end", { method: "POST", body: "[]" }, 400],
    ["/demo/sessions/end", { method: "POST", body: JSON.stringify({ id: 5 }) }, 400],
    ["/demo/sessions/end", { method: "POST", body: JSON.stringify({ id: "x".repeat(2000) }) }, 413],
    ["/demo/sessions/end", { method: "GET" }, 405],
    ["/demo/sessions", { method: "POST", body: "{}" }, 405],
    ["/demo/sessions/other", { method: "GET" }, 404],
  ];
  for (const [path, init, status] of cases) {
    const response = await client.fetch(`${ORIGIN}${path}`, {
      ...init,
      headers: { "content-type": "application/json" },
    });
    assert.equal(response.status, status, `${init.method} ${path}`);
    const body = await response.json();
    assert.equal(typeof body.error, "string");
    assert.equal(typeof body.error_description, "string");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  }
});

Deno.test("demo: the port-in-use message names the port and how to pick another", () => {
  assert.equal(
    portInUseMessage(8000, "deno task demo"),
    "Port 8000 is already in use (another demo still running?): stop that server, or pick " +
      "another port, e.g. PORT=8001 deno task demo",
  );
  assert.match(portInUseMessage(3000, "x"), /PORT=8000 x$/);
});

Deno.test("demo: a taken port ends the Deno demo with that one line, not a stack trace", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "examples/deno/main.ts"],
    cwd: REPO_ROOT,
    env: { PORT: String(port), NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(code, 1);
  assert.equal(decoder.decode(stdout), "");
  assert.equal(decoder.decode(stderr), `${portInUseMessage(port, "npx -y deno@2 task demo")}\n`);
});
