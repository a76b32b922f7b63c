/**
 * The demo's tokens for other services and API keys
 * (`examples/shared/service_tokens_demo.mjs`) on a real loopback server (the
 * sample API fetches the JWKS from it): a signed-in user gets an access
 * token that the sample API verifies with `verifyAccessToken`, and an API
 * key that the `curl` line's request can use.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { createDemo } from "../../examples/shared/demo.mjs";
import { HttpClient } from "../support/http_client.ts";
import { demoPassword, mutate } from "../runtimes/_demo_flow.ts";

const SECRET = "tokens-demo-test-secret-0123456789abcdef-0123456789";

async function demoServer() {
  let handle: (request: Request) => Promise<Response> = () => Promise.reject();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (r) => handle(r));
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const output: string[] = [];
  const demo = await createDemo({
    origin,
    env: {},
    runtime: "Test 1.0",
    clientModules: new Map([["client.js", "export const createAuthClient = 1;\n"]]),
    log: (line: string) => output.push(line),
  });
  const auth = createAuth({ ...demo.authConfig, secret: SECRET, logger: false });
  const handleDemo = demo.handler(auth);
  handle = async (request) =>
    new URL(request.url).pathname.startsWith("/auth/")
      ? await auth.handlers.ALL(request)
      : await handleDemo(request);
  const client = new HttpClient({ headers: { origin } });
  return {
    origin,
    client,
    password: demoPassword(output.join("\n")),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("demo: a signed-in user's access token is accepted by the sample API; no token is not", async () => {
  await using demo = await demoServer();
  const { client, origin } = demo;
  assert.equal((await client.fetch(`${origin}/demo/api/hello`)).status, 401);
  const refused = await client.fetch(`${origin}/demo/token`, { method: "POST" });
  assert.equal(refused.status, 401);
  await refused.body?.cancel();
  const signIn = await mutate(client, `${origin}/auth/signIn/credentials`, {
    body: { username: "demo", password: demo.password },
  });
  assert.equal(signIn.status, 200);
  await signIn.body?.cancel();
  const { token } = await (await client.fetch(`${origin}/demo/token`, { method: "POST" })).json();
  const api = await fetch(`${origin}/demo/api/hello`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(api.status, 200);
  assert.deepEqual(await api.json(), {
    hello: "user-demo",
    via: "access token",
    scope: "hello:read",
  });
  const forged = await fetch(`${origin}/demo/api/hello`, {
    headers: { Authorization: `Bearer ${token.slice(0, -2)}AA` },
  });
  assert.equal(forged.status, 401);
  await forged.body?.cancel();
  const jwks = await fetch(`${origin}/auth/jwks`);
  assert.equal(jwks.status, 200);
  await jwks.body?.cancel();
});

Deno.test("demo: an API key made on the page works in the curl line's request until deleted", async () => {
  await using demo = await demoServer();
  const { client, origin } = demo;
  const signIn = await mutate(client, `${origin}/auth/signIn/credentials`, {
    body: { username: "demo", password: demo.password },
  });
  await signIn.body?.cancel();
  const created = await mutate(client, `${origin}/auth/apiKeys`, {
    body: { name: "curl", scopes: ["hello:read"] },
  });
  assert.equal(created.status, 201);
  const { key, apiKey } = await created.json();
  assert.match(key, /^demo_/);
  // What `curl -H "Authorization: Bearer <key>" <origin>/demo/api/hello` sends.
  const curl = await fetch(`${origin}/demo/api/hello`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  assert.equal(curl.status, 200);
  assert.deepEqual(await curl.json(), {
    hello: "user-demo",
    via: "API key",
    keyId: apiKey.id,
    scopes: ["hello:read"],
  });
  const csrf = await (await client.fetch(`${origin}/auth/csrfToken`)).json();
  const deleted = await client.fetch(`${origin}/auth/apiKeys/${apiKey.id}`, {
    method: "DELETE",
    headers: { "x-csrf-token": csrf.csrfToken },
  });
  assert.equal(deleted.status, 204);
  const after = await fetch(`${origin}/demo/api/hello`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  assert.equal(after.status, 401);
  await after.body?.cancel();
});
