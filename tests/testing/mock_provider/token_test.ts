import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import { basic, codeFor, errorOf, exchange, pkce, REDIRECT_URI, tokenRequest } from "./_helpers.ts";

Deno.test("token refuses a wrong code_verifier", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const other = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), other.verifier);
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_grant");
});

Deno.test("token refuses a missing code_verifier", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: await codeFor(mock, challenge),
    redirect_uri: REDIRECT_URI,
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("a code is single use and its reuse revokes the tokens it gave", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const first = await (await exchange(mock, code, verifier)).json();

  const second = await exchange(mock, code, verifier);
  assert.equal(second.status, 400);
  assert.equal(await errorOf(second), "invalid_grant");

  const userinfo = await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${first.access_token}` },
  });
  assert.equal(userinfo.status, 401);
  await userinfo.body?.cancel();
});

Deno.test("concurrent redemptions of one code issue no token", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const responses = await Promise.all([
    exchange(mock, code, verifier),
    exchange(mock, code, verifier),
  ]);
  assert.deepEqual(responses.map((r) => r.status), [400, 400]);
  for (const r of responses) await r.body?.cancel();
});

Deno.test("a failed redemption still consumes the code", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const wrong = await exchange(mock, code, (await pkce()).verifier);
  await wrong.body?.cancel();
  const retry = await exchange(mock, code, verifier);
  assert.equal(await errorOf(retry), "invalid_grant");
});

Deno.test("an expired code is refused (clock option)", async () => {
  let now = 1_700_000_000_000;
  const mock = createMockProvider({ clock: () => now, codeTTL: 60 });
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  now += 60_000;
  const response = await exchange(mock, code, verifier);
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_grant");
});

Deno.test("a code is accepted just before it expires", async () => {
  let now = 1_700_000_000_000;
  const mock = createMockProvider({ clock: () => now, codeTTL: 60 });
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  now += 59_999;
  const response = await exchange(mock, code, verifier);
  assert.equal(response.status, 200);
  await response.body?.cancel();
});

Deno.test("token refuses a redirect_uri other than the authorize one", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), verifier, {
    redirect_uri: `${REDIRECT_URI}/`,
  });
  assert.equal(await errorOf(response), "invalid_grant");
});

Deno.test("token refuses a missing redirect_uri", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: await codeFor(mock, challenge),
    code_verifier: verifier,
  });
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("token refuses a JSON body", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: basic(mock.provider.clientId, mock.provider.clientSecret),
    },
    body: JSON.stringify({
      grant_type: "authorization_code",
      code: await codeFor(mock, challenge),
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("token refuses GET with 405 and Allow: POST", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(`${mock.provider.accessToken}`);
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("allow"), "POST");
  await response.body?.cancel();
});

Deno.test("token refuses parameters in the URL query", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(`${mock.provider.accessToken}?client_secret=leak`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=authorization_code",
  });
  assert.equal(await errorOf(response), "invalid_request");
  assert.equal(JSON.stringify(mock.requests).includes("leak"), false);
});

Deno.test("token refuses another grant type and an unknown code", async () => {
  const mock = createMockProvider();
  const refresh = await tokenRequest(mock, { grant_type: "refresh_token", refresh_token: "x" });
  assert.equal(await errorOf(refresh), "unsupported_grant_type");
  const unknown = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: "never-issued",
    redirect_uri: REDIRECT_URI,
    code_verifier: (await pkce()).verifier,
  });
  assert.equal(await errorOf(unknown), "invalid_grant");
});

Deno.test("token refuses a duplicated parameter", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: basic(mock.provider.clientId, mock.provider.clientSecret),
    },
    body: "grant_type=authorization_code&code=a&code=b",
  });
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("token refuses a form body over 64 KiB", async () => {
  const mock = createMockProvider();
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: "x".repeat(64 * 1024),
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
});

Deno.test("token refuses a form body that is not UTF-8", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: basic(mock.provider.clientId, mock.provider.clientSecret),
    },
    body: new Uint8Array([0x67, 0x72, 0x61, 0x6e, 0x74, 0x3d, 0xff, 0xfe]),
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
});
