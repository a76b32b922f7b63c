import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import {
  authorize,
  authorizeURL,
  codeFor,
  exchange,
  pkce,
  REDIRECT_URI,
  STATE,
} from "./_helpers.ts";

Deno.test("authorize refuses a request without PKCE", async () => {
  const mock = createMockProvider();
  const redirect = await authorize(mock, "", {
    code_challenge: null,
    code_challenge_method: null,
  });
  assert.equal(redirect.get("error"), "invalid_request");
  assert.equal(redirect.get("state"), STATE);
  assert.equal(redirect.has("code"), false);
});

Deno.test("authorize refuses the plain PKCE method", async () => {
  const mock = createMockProvider();
  const { verifier } = await pkce();
  const redirect = await authorize(mock, verifier, { code_challenge_method: "plain" });
  assert.equal(redirect.get("error"), "invalid_request");
  assert.equal(redirect.has("code"), false);
});

Deno.test("authorize refuses a missing code_challenge_method", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { code_challenge_method: null });
  assert.equal(redirect.get("error"), "invalid_request");
});

Deno.test("authorize refuses a malformed code_challenge", async () => {
  const mock = createMockProvider();
  for (const challenge of ["short", "a".repeat(129), `${"a".repeat(42)}=`, `${"a".repeat(42)}+`]) {
    const redirect = await authorize(mock, challenge);
    assert.equal(redirect.get("error"), "invalid_request", challenge);
  }
});

Deno.test("authorize refuses a missing state", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { state: null });
  assert.equal(redirect.get("error"), "invalid_request");
  assert.equal(redirect.has("state"), false);
});

Deno.test("authorize refuses a response_type other than code", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  assert.equal(
    (await authorize(mock, challenge, { response_type: "token" })).get("error"),
    "unsupported_response_type",
  );
  assert.equal(
    (await authorize(mock, challenge, { response_type: null })).get("error"),
    "invalid_request",
  );
});

Deno.test("authorize refuses an unknown scope", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { scope: "openid admin" });
  assert.equal(redirect.get("error"), "invalid_scope");
});

Deno.test("authorize refuses a duplicated parameter", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const url = new URL(authorizeURL(mock, challenge));
  url.searchParams.append("code_challenge", challenge);
  const response = await mock.fetch(url);
  const redirect = new URL(response.headers.get("location")!).searchParams;
  assert.equal(redirect.get("error"), "invalid_request");
});

Deno.test("authorize shows a 400 page, never a redirect, for an unknown client_id", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  for (const clientId of ["someone-else", null]) {
    const response = await mock.fetch(authorizeURL(mock, challenge, { client_id: clientId }));
    assert.equal(response.status, 400);
    assert.equal(response.headers.get("location"), null);
    assert.match(response.headers.get("content-type")!, /^text\/html/);
    await response.body?.cancel();
  }
});

Deno.test("authorize shows a 400 page for a missing, relative or non-http redirect_uri", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  for (
    const uri of [null, "/auth/callback", "//evil.test/cb", "javascript:alert(1)", "http://["]
  ) {
    const response = await mock.fetch(authorizeURL(mock, challenge, { redirect_uri: uri }));
    assert.equal(response.status, 400, String(uri));
    assert.equal(response.headers.get("location"), null);
    await response.body?.cancel();
  }
});

Deno.test("authorize shows a 400 page for a redirect_uri with a fragment", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const response = await mock.fetch(
    authorizeURL(mock, challenge, { redirect_uri: `${REDIRECT_URI}#x` }),
  );
  assert.equal(response.status, 400);
  await response.body?.cancel();
});

Deno.test("authorize shows a 400 page for an unregistered redirect_uri", async () => {
  const mock = createMockProvider({ redirectURIs: [REDIRECT_URI] });
  const { challenge } = await pkce();
  const response = await mock.fetch(
    authorizeURL(mock, challenge, { redirect_uri: "http://app.localhost/other" }),
  );
  assert.equal(response.status, 400);
  await response.body?.cancel();
  assert.ok((await authorize(mock, challenge)).has("code"));
});

Deno.test("deny redirects with access_denied, state and iss", async () => {
  const mock = createMockProvider({ decide: "deny" });
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge);
  assert.equal(redirect.get("error"), "access_denied");
  assert.equal(redirect.get("state"), STATE);
  assert.equal(redirect.get("iss"), mock.issuer);
  assert.equal(redirect.has("code"), false);
});

Deno.test("issueIss: false leaves iss out of the authorization response", async () => {
  const mock = createMockProvider({ issueIss: false });
  const { challenge } = await pkce();
  assert.equal((await authorize(mock, challenge)).has("iss"), false);
});

Deno.test("login_hint chooses the user by email or sub", async () => {
  const users = [
    { sub: "a", name: "Ada", email: "ada@example.com" },
    { sub: "b", name: "Bob", email: "bob@example.com" },
  ];
  const mock = createMockProvider({ users });
  for (const hint of ["bob@example.com", "b"]) {
    const { verifier, challenge } = await pkce();
    const code = (await authorize(mock, challenge, { login_hint: hint })).get("code")!;
    const tokens = await (await exchange(mock, code, verifier)).json();
    const user = await (await mock.fetch(mock.provider.userInfo, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })).json();
    assert.equal(user.sub, "b", hint);
  }
});

Deno.test("an unknown login_hint is denied", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const redirect = await authorize(mock, challenge, { login_hint: "nobody@example.com" });
  assert.equal(redirect.get("error"), "access_denied");
});

Deno.test("decide sees the request and can choose the user", async () => {
  const seen: string[] = [];
  const mock = createMockProvider({
    users: [{ sub: "a" }, { sub: "b", email: "b@example.com" }],
    decide: (request) => {
      seen.push(`${request.clientId} ${request.scope} ${request.state}`);
      return { user: "b@example.com" };
    },
  });
  const { verifier, challenge } = await pkce();
  const code = await codeFor(mock, challenge);
  const tokens = await (await exchange(mock, code, verifier)).json();
  const user = await (await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  })).json();
  assert.equal(user.sub, "b");
  assert.deepEqual(seen, [`mock-client-id openid profile email ${STATE}`]);
});

Deno.test("authorize refuses POST when not interactive", async () => {
  const mock = createMockProvider();
  const response = await mock.fetch(mock.provider.authorizeURL, { method: "POST" });
  assert.equal(response.status, 405);
  await response.body?.cancel();
});

Deno.test("authorize does not reflect an unknown scope that is not a plain name", async () => {
  const mock = createMockProvider();
  const { challenge } = await pkce();
  const plain = await authorize(mock, challenge, { scope: "openid admin" });
  assert.match(plain.get("error_description")!, /"admin"/);
  const hostile = await authorize(mock, challenge, { scope: "openid <img/src=x>" });
  assert.equal(hostile.get("error"), "invalid_scope");
  assert.equal(hostile.get("error_description")!.includes("<img"), false);
});
