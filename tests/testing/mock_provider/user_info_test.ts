import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import { authorize, codeFor, exchange, pkce } from "./_helpers.ts";

Deno.test("userinfo requires a bearer token", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.userInfo);
  assert.equal(response.status, 401);
  assert.match(response.headers.get("www-authenticate")!, /^Bearer /);
  await response.body?.cancel();
});

Deno.test("userinfo refuses unknown or malformed bearer tokens", async () => {
  const mock = createMockProvider();
  for (const header of ["Bearer unknown-token", "Bearer %", "Basic abc", "Bearer"]) {
    const response = await mock.fetch(mock.provider.userInfo, {
      headers: { authorization: header },
    });
    assert.equal(response.status, 401, header);
    assert.match(response.headers.get("www-authenticate")!, /error="invalid_token"/);
    await response.body?.cancel();
  }
});

Deno.test("userinfo refuses an expired access token", async () => {
  let now = 1_700_000_000_000;
  const mock = createMockProvider({ clock: () => now, accessTokenTTL: 10 });
  const { verifier, challenge } = await pkce();
  const tokens = await (await exchange(mock, await codeFor(mock, challenge), verifier)).json();
  now += 10_000;
  const response = await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  assert.equal(response.status, 401);
  await response.body?.cancel();
});

Deno.test("userinfo returns only the claims the granted scope allows", async () => {
  const mock = createMockProvider({ oidc: false });
  const { verifier, challenge } = await pkce();
  const code = (await authorize(mock, challenge, { scope: "openid email" })).get("code")!;
  const tokens = await (await exchange(mock, code, verifier)).json();
  assert.equal(tokens.scope, "openid email");
  const user = await (await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  })).json();
  assert.deepEqual(user, { sub: mock.users[0].sub, email: mock.users[0].email });
});
