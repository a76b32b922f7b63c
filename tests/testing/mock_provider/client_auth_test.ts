import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import { basic, codeFor, errorOf, exchange, pkce, REDIRECT_URI, tokenRequest } from "./_helpers.ts";

Deno.test("token refuses a wrong client secret with 401 and WWW-Authenticate", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  }, { authorization: basic(mock.provider.clientId, "wrong-secret") });
  assert.equal(response.status, 401);
  assert.match(response.headers.get("www-authenticate")!, /^Basic /);
  assert.equal(await errorOf(response), "invalid_client");
});

Deno.test("token refuses a malformed Basic header", async () => {
  const mock = createMockProvider();
  for (const header of ["Basic", "Basic %%%", `Basic ${btoa("no-colon")}`, "Bearer abc"]) {
    const response = await tokenRequest(mock, { grant_type: "authorization_code", code: "x" }, {
      authorization: header,
    });
    assert.equal(response.status, 401, header);
    assert.equal(await errorOf(response), "invalid_client");
  }
});

Deno.test("token refuses a client using both Basic and body credentials", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), verifier, {
    client_id: mock.provider.clientId,
    client_secret: mock.provider.clientSecret,
  });
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_request");
  assert.equal(mock.requests.at(-1)!.clientAuthMethod, "multiple");
  assert.equal(mock.requests.at(-1)!.params.client_secret, "[redacted]");
});

Deno.test("token refuses body credentials when Basic is expected", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const response = await tokenRequest(mock, {
    grant_type: "authorization_code",
    code: await codeFor(mock, challenge),
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: mock.provider.clientId,
    client_secret: mock.provider.clientSecret,
  }, { authorization: null });
  assert.equal(response.status, 401);
  assert.equal(await errorOf(response), "invalid_client");
  assert.equal(mock.requests.at(-1)!.clientAuthMethod, "client_secret_post");
});

Deno.test("token refuses a request without client authentication", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=authorization_code&code=x&client_id=mock-client-id",
  });
  assert.equal(response.status, 401);
  assert.equal(await errorOf(response), "invalid_client");
  assert.equal(mock.requests.at(-1)!.clientAuthMethod, "none");
});

Deno.test("client_secret_post mode accepts body credentials and refuses Basic", async () => {
  const mock = createMockProvider({ clientAuthMethod: "client_secret_post" });
  assert.equal(mock.provider.clientAuthMethod, "client_secret_post");
  const { verifier, challenge } = await pkce();
  const fields = {
    grant_type: "authorization_code",
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: mock.provider.clientId,
    client_secret: mock.provider.clientSecret,
  };
  const ok = await tokenRequest(mock, { ...fields, code: await codeFor(mock, challenge) }, {
    authorization: null,
  });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  const basicResponse = await exchange(mock, await codeFor(mock, challenge), verifier);
  assert.equal(basicResponse.status, 401);
  await basicResponse.body?.cancel();
});

Deno.test("Basic credentials are form-decoded before comparison", async () => {
  const mock = createMockProvider({ clientId: "app:1", clientSecret: "p@ss w+rd/é" });
  const { verifier, challenge } = await pkce();
  const response = await exchange(mock, await codeFor(mock, challenge), verifier);
  assert.equal(response.status, 200);
  await response.body?.cancel();
});
