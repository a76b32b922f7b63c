import assert from "node:assert/strict";
import { createAuthClient } from "../../client.ts";
import { createAuth } from "../../mod.ts";
import { createTestFetch, signInAs } from "../../testing.ts";

const SECRET = "test-secret-0123456789abcdef-0123456789abcdef";

function auth() {
  return createAuth({
    oauth: [],
    secret: SECRET,
    env: {},
    logger: false,
    credentials: { authorize: ({ username }) => ({ sub: username, name: username }) },
  });
}

Deno.test("createTestFetch lets the browser client run a whole session in a test, no browser", async () => {
  const instance = auth();
  const fetch = createTestFetch(instance.handlers.ALL);
  const client = createAuthClient({ baseURL: "http://localhost", fetch });
  assert.equal(await client.getSession(), null);
  const signedIn = await client.signIn.credentials({ username: "ada", password: "pw" });
  assert.equal(signedIn.error, null);
  assert.equal((await client.getSession())?.user.sub, "ada");
  const updated = await client.updateSession({ name: "Ada L." });
  assert.equal(updated.error, null);
  assert.equal((await client.getSession())?.user.name, "Ada L.");
  assert.equal((await client.signOut()).error, null);
  assert.equal(await client.getSession(), null);
  assert.doesNotMatch(fetch.cookie(), /session_token/);
});

Deno.test("createTestFetch starts from a signInAs cookie", async () => {
  const instance = auth();
  const fetch = createTestFetch(instance.handlers.ALL, {
    cookie: await signInAs(instance, { sub: "user-1", name: "Ada" }),
  });
  const client = createAuthClient({ baseURL: "http://localhost", fetch });
  assert.equal((await client.getSession())?.user.name, "Ada");
});

Deno.test("createTestFetch keeps cookies per Set-Cookie and drops those set to Max-Age=0", async () => {
  const fetch = createTestFetch(() => {
    const headers = new Headers();
    headers.append("Set-Cookie", "a=1; Path=/");
    headers.append("Set-Cookie", "b=; Path=/; Max-Age=0");
    return new Response(null, { headers });
  }, { cookie: "b=2; c=3" });
  await fetch("/x");
  assert.equal(fetch.cookie(), "c=3; a=1");
});
