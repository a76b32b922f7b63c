// The demo's linked accounts (examples/shared/accounts_demo.mjs), in-process:
// a mock sign-in keeps the mock account's id as the user, a second mock
// account links to the same user, the page's list shows both, and the token
// call reaches the provider without the token reaching the page.
import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { createDemo } from "../../examples/shared/demo.mjs";
import { HttpClient } from "../support/http_client.ts";
import { consentForm, mutate, signInWithMock } from "../runtimes/_demo_flow.ts";

const ORIGIN = "http://127.0.0.1:8000";

async function demoClient(): Promise<HttpClient> {
  const demo = await createDemo({
    origin: ORIGIN,
    env: {},
    runtime: "Test 1.0",
    clientModules: new Map([["client.js", "export const createAuthClient = 1;\n"]]),
    log: () => {},
  });
  const auth = createAuth({
    ...demo.authConfig,
    secret: demo.authConfig.secret ?? "accounts-demo-test-secret-0123456789-abcdef",
  });
  const handleDemo = demo.handler(auth);
  const serve = async (request: Request) =>
    new URL(request.url).pathname.startsWith("/auth/")
      ? await auth.handlers.ALL(request)
      : await handleDemo(request);
  return new HttpClient({ headers: { origin: ORIGIN }, fetch: serve });
}

Deno.test("demo: a mock sign-in is linked, a second mock account links to the same user, the token call works", async () => {
  const client = await demoClient();
  (await signInWithMock(client, ORIGIN, { account: "mock-ada" })).response.body?.cancel();
  const session = await (await client.fetch(`${ORIGIN}/auth/session`)).json();
  assert.equal(session.user.sub, "mock-ada");
  // Link Grace's mock account to Ada's user, as the page's button does.
  const started = await mutate(client, `${ORIGIN}/auth/link/mock`, { body: { redirectTo: "/" } });
  assert.equal(started.status, 200);
  const { url } = await started.json();
  const consent = await client.follow(url);
  const { action, fields } = consentForm(await consent.response.text());
  fields.set("user", "mock-grace");
  fields.set("decision", "approve");
  const back = await client.follow(action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: fields.toString(),
  });
  assert.equal(back.url, `${ORIGIN}/`);
  await back.response.body?.cancel();
  const listed = await (await client.fetch(`${ORIGIN}/auth/accounts`)).json();
  assert.deepEqual(
    listed.accounts.map((account: { providerAccountId: string }) => account.providerAccountId),
    ["mock-ada", "mock-grace"],
  );
  const still = await (await client.fetch(`${ORIGIN}/auth/session`)).json();
  assert.equal(still.user.sub, "mock-ada", "the session is still Ada's");
  // The token call: the server uses the token; the page sees what the provider answered.
  const call = await client.fetch(`${ORIGIN}/demo/provider-token`);
  assert.equal(call.status, 200);
  const text = await call.text();
  const body = JSON.parse(text);
  assert.equal(body.profile.sub, "mock-grace", "the account linked last");
  assert.ok(!/access_token|accessToken/.test(text), "no token in the page's answer");
});
