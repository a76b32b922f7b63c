import assert from "node:assert/strict";
import { createAuth, type User } from "../../mod.ts";
import { signInAs } from "../../testing.ts";

const SECRET = "test-secret-0123456789abcdef-0123456789abcdef";

function auth(overrides: Record<string, unknown> = {}) {
  return createAuth({ oauth: [], secret: SECRET, env: {}, logger: false, ...overrides });
}

function request(cookie: string, url = "http://localhost/") {
  return new Request(url, { headers: { cookie } });
}

Deno.test("signInAs gives a Cookie header the instance reads as that user's session", async () => {
  const instance = auth();
  const cookie = await signInAs(instance, { sub: "user-1", name: "Ada" });
  const session = await instance.api.getSession(request(cookie));
  assert.deepEqual(session?.user, { sub: "user-1", name: "Ada" });
  const response = await instance.handlers.ALL(request(cookie, "http://localhost/auth/session"));
  assert.equal((await response.json()).user.sub, "user-1");
});

Deno.test("signInAs carries a CSRF cookie bound to the session, so mutations work", async () => {
  const instance = auth();
  const cookie = await signInAs(instance, { sub: "user-1" });
  const csrf = /service-stack\.csrf_token=([^;]+)/.exec(cookie)![1];
  const response = await instance.handlers.ALL(
    new Request("http://localhost/auth/signOut", {
      method: "POST",
      headers: { cookie, "X-CSRF-Token": csrf },
    }),
  );
  assert.equal(response.status, 200);
});

Deno.test("signInAs over HTTPS gives the __Host- names, and follows baseURL", async () => {
  const https = await signInAs(auth(), { sub: "1" }, { origin: "https://app.example.com" });
  assert.match(https, /^__Host-service-stack\.session_token=/);
  const viaBase = await signInAs(auth({ baseURL: "https://app.example.com" }), { sub: "1" });
  assert.match(viaBase, /^__Host-service-stack\.session_token=/);
});

Deno.test("signInAs applies identity.schema and the user-field rules", async () => {
  await assert.rejects(
    () => signInAs(auth(), { sub: "1", email: "a@x.example,b@y.example" } as User),
    (error: unknown) => (error as { code?: string }).code === "invalid_request",
  );
});

Deno.test("signInAs refuses anything that is not a createAuth instance", async () => {
  const fake = { api: { getSession: () => Promise.resolve(null) } };
  await assert.rejects(() => signInAs(fake, { sub: "1" }), TypeError);
});

Deno.test("a cookie from signInAs is no session on another instance", async () => {
  const cookie = await signInAs(auth(), { sub: "1" });
  const other = createAuth({
    oauth: [],
    secret: "another-secret-0123456789abcdef-0123456789",
    env: {},
    logger: false,
  });
  assert.equal(await other.api.getSession(request(cookie)), null);
});
