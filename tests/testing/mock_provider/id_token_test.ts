import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only oracle; deno.json has no import map.
import * as jose from "npm:jose@6";
import { createMockProvider, type MockProvider } from "../../../testing.ts";
import { authorize, errorOf, exchange, pkce, signIn, userInfo } from "./_helpers.ts";

const NONCE = "nonce-0123456789abcdef";

async function jwksOf(mock: MockProvider): Promise<jose.JSONWebKeySet> {
  return await (await mock.fetch(`${mock.issuer}/jwks`)).json();
}

/** Verifies an ID token as a relying party would, with `npm:jose` as the oracle. */
async function verify(
  mock: MockProvider,
  idToken: string,
  keys?: jose.JSONWebKeySet,
): Promise<jose.JWTVerifyResult> {
  return await jose.jwtVerify(idToken, jose.createLocalJWKSet(keys ?? await jwksOf(mock)), {
    issuer: mock.issuer,
    audience: mock.provider.clientId,
    algorithms: ["RS256", "ES256"],
  });
}

Deno.test("the token response carries an ID token that verifies against the served JWKS", async () => {
  const mock = createMockProvider({ oidc: true });
  const tokens = await signIn(mock, { nonce: NONCE });
  const { payload, protectedHeader } = await verify(mock, tokens.id_token);
  const user = mock.users[0];
  assert.deepEqual(payload, {
    sub: user.sub,
    name: user.name,
    email: user.email,
    email_verified: true,
    picture: user.picture,
    iss: "http://mock-oauth.localhost",
    aud: "mock-client-id",
    exp: payload.iat! + 600,
    iat: payload.iat,
    nonce: NONCE,
  });
  assert.ok(Math.abs(payload.iat! - Date.now() / 1000) < 5);
  const kid = (await jwksOf(mock)).keys[0].kid;
  assert.deepEqual(protectedHeader, { alg: "ES256", typ: "JWT", kid });
});

Deno.test("an RS256 mock's ID token verifies against its JWKS", async () => {
  const mock = createMockProvider({ oidc: { signingAlg: "RS256" } });
  const tokens = await signIn(mock);
  const { protectedHeader } = await verify(mock, tokens.id_token);
  assert.equal(protectedHeader.alg, "RS256");
});

Deno.test("the nonce of the authorization request is echoed, and left out when none was sent", async () => {
  const mock = createMockProvider({ oidc: true });
  const withNonce = await signIn(mock, { nonce: NONCE });
  assert.equal(jose.decodeJwt(withNonce.id_token).nonce, NONCE);
  const without = await signIn(mock);
  assert.equal("nonce" in jose.decodeJwt(without.id_token), false);
});

Deno.test("userinfo returns the ID token's sub and email_verified", async () => {
  const mock = createMockProvider({ oidc: true });
  const tokens = await signIn(mock);
  const claims = jose.decodeJwt(tokens.id_token);
  const info = await userInfo(mock, tokens.access_token);
  assert.equal(info.sub, claims.sub);
  assert.equal(info.email_verified, true);
});

Deno.test("ID token claims follow the granted scope", async () => {
  const mock = createMockProvider({ oidc: true });
  const openidOnly = jose.decodeJwt((await signIn(mock, { scope: "openid" })).id_token);
  for (const claim of ["email", "email_verified", "name", "picture"]) {
    assert.equal(claim in openidOnly, false, claim);
  }
  const email = jose.decodeJwt((await signIn(mock, { scope: "openid email" })).id_token);
  assert.equal(email.email, mock.users[0].email);
  assert.equal("name" in email, false);
});

Deno.test("a user who says the email is unverified keeps email_verified: false", async () => {
  const mock = createMockProvider({
    oidc: true,
    users: [{ sub: "eve", email: "eve@example.com", email_verified: false }],
  });
  const tokens = await signIn(mock, { scope: "openid email" });
  assert.equal(jose.decodeJwt(tokens.id_token).email_verified, false);
  assert.equal((await userInfo(mock, tokens.access_token)).email_verified, false);
});

Deno.test("no ID token without the openid scope", async () => {
  const mock = createMockProvider({ oidc: true });
  const tokens = await signIn(mock, { scope: "profile email" });
  assert.equal("id_token" in tokens, false);
});

Deno.test("OpenID Connect is the default: a mock without options issues an ID token", async () => {
  const mock = createMockProvider();
  const tokens = await signIn(mock, { nonce: NONCE });
  assert.equal(jose.decodeJwt(tokens.id_token).nonce, NONCE);
});

Deno.test("plain OAuth mode (oidc: false) never issues an ID token", async () => {
  const mock = createMockProvider({ oidc: false });
  const tokens = await signIn(mock, { nonce: NONCE });
  assert.equal("id_token" in tokens, false);
  assert.equal("email_verified" in await userInfo(mock, tokens.access_token), false);
});

Deno.test("idTokenTTL and the clock set iat and exp", async () => {
  const now = 1_700_000_000_000;
  const mock = createMockProvider({
    clock: () => now,
    oidc: { idTokenTTL: 30 },
  });
  const claims = jose.decodeJwt((await signIn(mock)).id_token);
  assert.equal(claims.iat, 1_700_000_000);
  assert.equal(claims.exp, 1_700_000_030);
});

Deno.test("after rotateKey new ID tokens carry the new kid and the old JWKS no longer verifies them", async () => {
  const mock = createMockProvider({ oidc: true });
  const oldKeys = await jwksOf(mock);
  const before = await signIn(mock);
  const kid = await mock.rotateKey();
  const after = await signIn(mock);
  assert.equal(jose.decodeProtectedHeader(after.id_token).kid, kid);
  assert.notEqual(jose.decodeProtectedHeader(before.id_token).kid, kid);
  await assert.rejects(() => verify(mock, after.id_token, oldKeys), jose.errors.JWKSNoMatchingKey);
  await verify(mock, after.id_token);
});

Deno.test("a relying party's JWKS cache shows in the request count", async () => {
  const mock = createMockProvider({ oidc: true });
  const keySet = jose.createRemoteJWKSet(new URL(`${mock.issuer}/jwks`), {
    [jose.customFetch]: mock.fetch,
  });
  const options = { issuer: mock.issuer, audience: mock.provider.clientId };
  await jose.jwtVerify((await signIn(mock)).id_token, keySet, options);
  await jose.jwtVerify((await signIn(mock)).id_token, keySet, options);
  assert.equal(mock.requests.filter((r) => r.endpoint === "jwks").length, 1);
});

Deno.test("PKCE is still enforced in OIDC mode: a wrong verifier gets no ID token", async () => {
  const mock = createMockProvider({ oidc: true });
  const { challenge } = await pkce();
  const code = (await authorize(mock, challenge, { nonce: NONCE })).get("code")!;
  const response = await exchange(mock, code, (await pkce()).verifier);
  assert.equal(response.status, 400);
  assert.equal(await errorOf(response), "invalid_grant");
});

Deno.test("PKCE is still enforced in OIDC mode: a request without a challenge gets no code", async () => {
  const mock = createMockProvider({ oidc: true });
  const redirect = await authorize(mock, "", {
    code_challenge: null,
    code_challenge_method: null,
  });
  assert.equal(redirect.get("error"), "invalid_request");
  assert.equal(redirect.has("code"), false);
});

Deno.test("idTokenClaims as an object overrides and removes claims", async () => {
  const mock = createMockProvider({
    oidc: { idTokenClaims: { aud: "someone-else", nonce: undefined } },
  });
  const tokens = await signIn(mock, { nonce: NONCE });
  const claims = jose.decodeJwt(tokens.id_token);
  assert.equal(claims.aud, "someone-else");
  assert.equal("nonce" in claims, false);
  await assert.rejects(() => verify(mock, tokens.id_token), jose.errors.JWTClaimValidationFailed);
});

Deno.test("idTokenClaims as a function sees the user and changes that user's tokens only", async () => {
  const mock = createMockProvider({
    users: [{ sub: "ada" }, { sub: "bob" }],
    oidc: {
      idTokenClaims: (claims, { user, clientId, nonce }) =>
        user.sub === "bob" ? { ...claims, aud: [clientId, "other"], azp: clientId, nonce } : claims,
    },
  });
  const ada = jose.decodeJwt((await signIn(mock, { login_hint: "ada" })).id_token);
  assert.equal(ada.aud, "mock-client-id");
  assert.equal("azp" in ada, false);
  const bob = jose.decodeJwt((await signIn(mock, { login_hint: "bob", nonce: NONCE })).id_token);
  assert.deepEqual(bob.aud, ["mock-client-id", "other"]);
  assert.equal(bob.azp, "mock-client-id");
  assert.equal(bob.nonce, NONCE);
});

Deno.test("an idTokenClaims function that returns no object fails the token request with 500", async () => {
  const mock = createMockProvider({
    oidc: {
      idTokenClaims: () => null as unknown as Record<string, unknown>,
    },
  });
  const { verifier, challenge } = await pkce();
  const code = (await authorize(mock, challenge)).get("code")!;
  const response = await exchange(mock, code, verifier);
  assert.equal(response.status, 500);
  assert.equal(await errorOf(response), "server_error");
});

Deno.test("tamperIdToken replaces the signed token", async () => {
  const mock = createMockProvider({
    oidc: {
      tamperIdToken: (token) => `${token.slice(0, token.lastIndexOf(".") + 1)}AAAA`,
    },
  });
  const tokens = await signIn(mock);
  await assert.rejects(
    () => verify(mock, tokens.id_token),
    jose.errors.JWSSignatureVerificationFailed,
  );
});

Deno.test("tamperIdToken returning undefined leaves id_token out", async () => {
  const mock = createMockProvider({
    oidc: { tamperIdToken: () => undefined },
  });
  const tokens = await signIn(mock);
  assert.equal("id_token" in tokens, false);
  assert.equal(typeof tokens.access_token, "string");
});

Deno.test("a replayed code gets no second ID token and revokes the first access token", async () => {
  const mock = createMockProvider({ oidc: true });
  const { verifier, challenge } = await pkce();
  const code = (await authorize(mock, challenge)).get("code")!;
  const first = await (await exchange(mock, code, verifier)).json();
  const replay = await exchange(mock, code, verifier);
  assert.equal(await errorOf(replay), "invalid_grant");
  const response = await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${first.access_token}` },
  });
  assert.equal(response.status, 401);
  await response.body?.cancel();
});
