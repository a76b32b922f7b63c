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
import { createDemo, portFromEnv } from "../../examples/shared/demo.mjs";
import { HttpClient } from "../support/http_client.ts";
import { demoPassword, mutate, signInWithMock } from "../runtimes/_demo_flow.ts";

const ORIGIN = "http://127.0.0.1:8000";
const SECRET = "examples-test-secret-0123456789abcdef-0123456789";

interface InProcessDemo {
  client: HttpClient;
  output: string[];
  secret: unknown;
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
  const client = new HttpClient({
    headers: { origin: ORIGIN },
    fetch: async (request) => {
      const { pathname } = new URL(request.url);
      return pathname.startsWith("/auth/")
        ? await auth.handlers.ALL(request)
        : await demo.handle(request);
    },
  });
  return { client, output, secret: demo.authConfig.secret };
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
  assert.deepEqual((await response.json()).user, { sub: "user-demo", name: "Demo User" });
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
