// OpenID Connect sign-in through the handler against a hostile provider (a
// real HTTP server on 127.0.0.1): every defect of its ID token, discovery
// document, JWKS or user info lands on the callback's error redirect with no
// session cookie, and the benign oddities (decoy keys, a key rotation) work
// without a refetch storm.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth } from "../../../mod.ts";
import {
  assertErrorRedirect,
  Browser,
  getSession,
  SECRET,
  setCookies,
  startSignIn,
} from "../_flow_helpers.ts";
import {
  type Defect,
  type HostileOP,
  type HostileOPOptions,
  startHostileOP,
  SUBJECT,
} from "./_hostile_op.ts";

interface Setup extends AsyncDisposable {
  op: HostileOP;
  auth: ReturnType<typeof createAuth>;
  browser: Browser;
}

async function setup(
  options: { op?: HostileOPOptions; entry?: Record<string, unknown> } = {},
): Promise<Setup> {
  const op = await startHostileOP(options.op);
  const auth = createAuth({
    oauth: [{
      id: "op",
      name: "Hostile OP",
      issuer: op.issuer,
      scope: "openid email",
      responseType: "code",
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      ...options.entry,
    }],
    secret: SECRET,
    logger: false,
  } as AuthConfig);
  return { op, auth, browser: new Browser(auth.handlers.ALL), [Symbol.asyncDispose]: op.close };
}

/**
 * Starts a sign-in landing on /home and calls the callback as the provider
 * would redirect (a code, the state, the issuer). The token endpoint's ID
 * token carries this flow's nonce unless `nonce` says otherwise.
 */
async function signIn(
  s: Setup,
  options: { nonce?: (flowNonce: string) => string; browser?: Browser } = {},
): Promise<Response> {
  const browser = options.browser ?? s.browser;
  const authorization = await startSignIn(browser, "op", "?redirectTo=%2Fhome");
  const nonce = authorization.searchParams.get("nonce")!;
  s.op.tokenNonce = options.nonce?.(nonce) ?? nonce;
  const query = new URLSearchParams({
    code: "the-code",
    state: authorization.searchParams.get("state")!,
    iss: s.op.issuer,
  });
  return await browser.get(`/auth/callback/op?${query}`);
}

async function assertNoSessionAfter(browser: Browser): Promise<void> {
  assert.equal(await (await getSession(browser)).json(), null);
}

Deno.test("a valid ID token from the hostile provider's honest mode signs in", async () => {
  await using s = await setup();
  const response = await signIn(s);
  assert.equal(response.headers.get("Location"), "/home");
  const session = await (await getSession(s.browser)).json();
  assert.deepEqual(session.user, { sub: SUBJECT, email: "user-1@example.com" });
});

const REFUSED: [Defect, string][] = [
  ["bad-signature", "server_error"],
  ["tampered-payload", "server_error"],
  ["alg-none", "server_error"],
  ["hs256-client-secret", "server_error"],
  ["wrong-iss", "server_error"],
  ["iss-trailing-slash", "server_error"],
  ["wrong-aud", "server_error"],
  ["several-aud-no-azp", "server_error"],
  ["several-aud-azp-other", "server_error"],
  ["azp-other", "server_error"],
  ["expired", "server_error"],
  ["missing-exp", "server_error"],
  ["missing-iat", "server_error"],
  ["string-iat", "server_error"],
  ["future-nbf", "server_error"],
  ["missing-nonce", "invalid_request"],
  ["wrong-nonce", "invalid_request"],
  ["missing-sub", "server_error"],
  ["empty-sub", "server_error"],
  ["numeric-sub", "server_error"],
  ["jwe", "server_error"],
  ["crit", "server_error"],
  ["typ-at-jwt", "server_error"],
  ["unknown-kid", "server_error"],
  ["embedded-jwk", "server_error"],
  ["alg-swap", "server_error"],
  ["garbage", "server_error"],
];

for (const [defect, error] of REFUSED) {
  Deno.test(`an ID token with defect ${defect} lands on the error redirect, no session`, async () => {
    await using s = await setup();
    s.op.tokenDefect = defect;
    assertErrorRedirect(await signIn(s), "/home", error);
    await assertNoSessionAfter(s.browser);
  });
}

Deno.test("a token response without an id_token lands on the error redirect", async () => {
  await using s = await setup();
  s.op.tokenDefect = "absent";
  assertErrorRedirect(await signIn(s), "/home", "server_error");
  assert.equal(s.op.hits("/userinfo"), 0);
  await assertNoSessionAfter(s.browser);
});

Deno.test("an ID token minted for another flow's nonce is refused (nonce replay)", async () => {
  await using s = await setup();
  const other = new Browser(s.auth.handlers.ALL);
  const otherFlow = await startSignIn(other, "op");
  const stolen = otherFlow.searchParams.get("nonce")!;
  const response = await signIn(s, { nonce: () => stolen });
  assertErrorRedirect(response, "/home", "invalid_request");
  await assertNoSessionAfter(s.browser);
});

Deno.test("an ID token with no kid verifies with the one key that fits", async () => {
  await using s = await setup();
  s.op.tokenDefect = "no-kid";
  assert.equal((await signIn(s)).headers.get("Location"), "/home");
});

Deno.test("HS256 keyed with the client secret is accepted only when idTokenAlgorithms lists it", async () => {
  await using s = await setup({ entry: { idTokenAlgorithms: ["HS256"] } });
  s.op.tokenDefect = "hs256-client-secret";
  assert.equal((await signIn(s)).headers.get("Location"), "/home");
});

Deno.test("a user-info sub that differs from the ID token's lands on the error redirect", async () => {
  await using s = await setup();
  s.op.userInfoSub = "user-2";
  assertErrorRedirect(await signIn(s), "/home", "server_error");
  await assertNoSessionAfter(s.browser);
});

// Discovery

Deno.test("a discovery document naming another issuer fails the sign-in with 502, no flow", async () => {
  await using s = await setup();
  s.op.discovery = "issuer-mismatch";
  const response = await s.browser.get("/auth/signIn/op?redirect=false");
  assert.equal(response.status, 502);
  assert.equal((await response.json()).error, "server_error");
  assert.equal(setCookies(response).size, 0);
});

Deno.test("a discovery document that turns hostile between start and callback fails the callback", async () => {
  await using s = await setup();
  const authorization = await startSignIn(s.browser, "op", "?redirectTo=%2Fhome");
  // Past the cache's hour the document is fetched again, and now lies.
  s.op.discovery = "issuer-mismatch";
  const later = createAuth({
    oauth: [{
      id: "op",
      name: "Hostile OP",
      issuer: s.op.issuer,
      scope: "openid email",
      responseType: "code",
      clientId: s.op.clientId,
      clientSecret: s.op.clientSecret,
    }],
    secret: SECRET,
    logger: false,
  });
  const browser = new Browser(later.handlers.ALL);
  browser.cookies = new Map(s.browser.cookies);
  const query = new URLSearchParams({
    code: "c",
    state: authorization.searchParams.get("state")!,
    iss: s.op.issuer,
  });
  assertErrorRedirect(await browser.get(`/auth/callback/op?${query}`), "/home", "server_error");
  assert.equal(s.op.hits("/token"), 0);
});

for (const mode of ["http-endpoint-elsewhere", "no-jwks-uri", "redirect", "html"] as const) {
  Deno.test(`a discovery document answering ${mode} fails the sign-in start with 502`, async () => {
    await using s = await setup();
    s.op.discovery = mode;
    const response = await s.browser.get("/auth/signIn/op?redirect=false");
    assert.equal(response.status, 502);
    await response.body?.cancel();
  });
}

// Keys

Deno.test("decoy keys beside the real one are skipped and the sign-in works", async () => {
  await using s = await setup();
  s.op.jwks = "decoys";
  assert.equal((await signIn(s)).headers.get("Location"), "/home");
});

Deno.test("a key rotation right after a sign-in works with exactly one JWKS refetch", async () => {
  await using s = await setup();
  await signIn(s);
  assert.equal(s.op.hits("/jwks"), 1);
  await s.op.rotate();
  const browser = new Browser(s.auth.handlers.ALL);
  assert.equal((await signIn(s, { browser })).headers.get("Location"), "/home");
  assert.equal(s.op.hits("/jwks"), 2);
});

Deno.test("unknown kids over and over cause one refetch, not a storm", async () => {
  await using s = await setup();
  await signIn(s);
  s.op.tokenDefect = "unknown-kid";
  for (let i = 0; i < 5; i++) {
    const browser = new Browser(s.auth.handlers.ALL);
    assertErrorRedirect(await signIn(s, { browser }), "/home", "server_error");
  }
  assert.equal(s.op.hits("/jwks"), 2);
});

Deno.test("a JWKS endpoint that fails lands on the error redirect", async () => {
  await using s = await setup();
  s.op.jwks = "error";
  assertErrorRedirect(await signIn(s), "/home", "server_error");
  await assertNoSessionAfter(s.browser);
});

Deno.test("discovery and the JWKS are fetched once for several sign-ins of one instance", async () => {
  await using s = await setup();
  for (let i = 0; i < 3; i++) {
    const browser = new Browser(s.auth.handlers.ALL);
    assert.equal((await signIn(s, { browser })).headers.get("Location"), "/home");
  }
  assert.equal(s.op.hits("/.well-known/openid-configuration"), 1);
  assert.equal(s.op.hits("/jwks"), 1);
  assert.equal(s.op.hits("/token"), 3);
});
