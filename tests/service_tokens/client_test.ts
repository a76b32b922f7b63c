// The browser client's apiKeys against real handlers: create (with its CSRF token), list,
// delete, and the error shape when signed out.
import assert from "node:assert/strict";
import { memoryStore } from "../../mod.ts";
import { browserClient } from "../support/browser_client.ts";
import { makeAuth } from "../server/_helpers.ts";

function setup() {
  const auth = makeAuth({ apiKeys: { store: memoryStore() } });
  return { auth, ...browserClient(auth.handlers.ALL) };
}

Deno.test("apiKeys.create, list and delete work for the signed-in user", async () => {
  const { auth, client, seen } = setup();
  await client.signIn.credentials({ username: "ada", password: "correct horse" });
  const created = await client.apiKeys.create({ name: "CI", scopes: ["deploy"], expiresIn: 3600 });
  assert.equal(created.error, null);
  assert.match(created.data!.key, /^sk_/);
  assert.ok(
    await auth.api.verifyApiKey(
      new Request("http://localhost:8000/x", {
        headers: { Authorization: `Bearer ${created.data!.key}` },
      }),
    ),
  );
  const post = seen.find((request) =>
    request.method === "POST" && request.path.endsWith("/apiKeys")
  );
  assert.deepEqual(JSON.parse(post!.body!), { name: "CI", scopes: ["deploy"], expiresIn: 3600 });
  const listed = await client.apiKeys.list();
  assert.deepEqual(listed.data!.apiKeys.map((key) => key.id), [created.data!.apiKey.id]);
  const deleted = await client.apiKeys.delete(created.data!.apiKey.id);
  assert.deepEqual(deleted, { data: { ok: true }, error: null });
  assert.deepEqual((await client.apiKeys.list()).data, { apiKeys: [] });
  const again = await client.apiKeys.delete(created.data!.apiKey.id);
  assert.equal(again.error?.status, 404);
});

Deno.test("apiKeys without a session resolve the 401 error, never throw", async () => {
  const { client } = setup();
  const created = await client.apiKeys.create({ name: "x" });
  assert.equal(created.data, null);
  assert.equal(created.error?.status, 401);
  assert.equal(created.error?.error, "invalid_session_token");
  assert.equal((await client.apiKeys.list()).error?.status, 401);
  assert.equal((await client.apiKeys.delete("")).error?.error, "invalid_request");
});
