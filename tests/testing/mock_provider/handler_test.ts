import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import { codeFor, errorOf, exchange, pkce } from "./_helpers.ts";

Deno.test("unknown endpoints answer 404 JSON", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(`${mock.issuer}/register`);
  assert.equal(response.status, 404);
  assert.equal(await errorOf(response), "invalid_request");
  assert.equal(mock.requests[0].endpoint, "unknown");
});

Deno.test("the request log never holds secrets, codes, verifiers or tokens", async () => {
  const mock = createMockProvider();
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const tokens = await (await exchange(mock, code, verifier)).json();
  await (await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  })).body?.cancel();
  const log = JSON.stringify(mock.requests);
  for (const secret of [mock.provider.clientSecret, code, verifier, tokens.access_token]) {
    assert.equal(log.includes(secret), false);
  }
});
