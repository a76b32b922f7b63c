// ID token validation (OpenID Connect Core 3.1.3.7) against a hostile
// provider: every forged, misaddressed or stale token is refused with an
// AuthError that quotes nothing from it, and a good token costs one verify.
import assert from "node:assert/strict";
import {
  checkUserInfoSubject,
  type ExpectedIdToken,
  idTokenAlgorithms,
  validateIdToken,
} from "../../../src/oauth/oidc/id_token.ts";
import { createJwks } from "../../../src/oauth/oidc/jwks.ts";
import { exchangeCode } from "../../../src/oauth/token.ts";
import { fetchUserInfo } from "../../../src/oauth/user_info.ts";
import type { ResolvedProvider } from "../../../src/oauth/resolved_provider.ts";
import { countSubtle } from "../../jose/_subtle.ts";
import { assertRefused } from "./_assert.ts";
import {
  type Defect,
  type HostileOP,
  type HostileOPOptions,
  type SigningAlg,
  startHostileOP,
  SUBJECT,
} from "./_hostile_op.ts";

const NONCE = "n-0";
/** Text a refusal must never quote: values only a forged token carries. */
const FORGED_VALUES = ["attacker", "another-client", "admin", "kid-nobody-published"];

interface Setup extends AsyncDisposable {
  op: HostileOP;
  expected: ExpectedIdToken;
}

/** A hostile provider and what a client of it expects. */
async function setup(options: HostileOPOptions = {}): Promise<Setup> {
  const op = await startHostileOP(options);
  const expected: ExpectedIdToken = {
    issuer: op.issuer,
    clientId: op.clientId,
    nonce: NONCE,
    algorithms: [op.current.alg],
    keys: createJwks(`${op.origin}/jwks`, { fetch }),
  };
  return { op, expected, [Symbol.asyncDispose]: () => op.close() };
}

// The good token

Deno.test("a valid ID token is accepted and its claims returned", async () => {
  await using s = await setup();
  const claims = await validateIdToken(await s.op.mint("valid"), s.expected);
  assert.equal(claims.sub, SUBJECT);
  assert.equal(claims.iss, s.op.issuer);
  assert.equal(claims.nonce, NONCE);
  assert.equal(claims.email, "user-1@example.com");
});

for (
  const alg of [
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
  ] as SigningAlg[]
) {
  Deno.test(`an ID token signed with ${alg} verifies with the provider's JWKS`, async () => {
    await using s = await setup({ alg });
    const claims = await validateIdToken(await s.op.mint("valid"), s.expected);
    assert.equal(claims.sub, SUBJECT);
  });
}

Deno.test("a valid ID token verifies when the JWKS holds decoy keys beside the real one", async () => {
  await using s = await setup();
  s.op.jwks = "decoys";
  assert.equal((await validateIdToken(await s.op.mint("valid"), s.expected)).sub, SUBJECT);
});

Deno.test("an ID token without kid verifies with the provider's only key", async () => {
  await using s = await setup();
  assert.equal((await validateIdToken(await s.op.mint("no-kid"), s.expected)).sub, SUBJECT);
});

Deno.test("an ID token with one audience in an array and no azp is accepted", async () => {
  await using s = await setup();
  const token = await s.op.mint("valid", { claims: { aud: [s.op.clientId] } });
  assert.equal((await validateIdToken(token, s.expected)).sub, SUBJECT);
});

Deno.test("an ID token with several audiences and azp equal to the client is accepted", async () => {
  await using s = await setup();
  const token = await s.op.mint("valid", {
    claims: { aud: [s.op.clientId, "another-client"], azp: s.op.clientId },
  });
  assert.equal((await validateIdToken(token, s.expected)).sub, SUBJECT);
});

Deno.test("an ID token signed with a key rotated in after sign-in verifies with one refetch", async () => {
  await using s = await setup();
  await validateIdToken(await s.op.mint("valid"), s.expected);
  await s.op.rotate();
  assert.equal((await validateIdToken(await s.op.mint("valid"), s.expected)).sub, SUBJECT);
  await validateIdToken(await s.op.mint("valid"), s.expected);
  assert.equal(s.op.hits("/jwks"), 2);
});

Deno.test("validating a token on a warm key set costs exactly one Web Crypto verify", async () => {
  await using s = await setup();
  await validateIdToken(await s.op.mint("valid"), s.expected);
  const token = await s.op.mint("valid");
  const calls = await countSubtle(() => validateIdToken(token, s.expected));
  assert.deepEqual(calls, { verify: 1 });
});

Deno.test("validating many tokens fetches the JWKS once", async () => {
  await using s = await setup();
  for (let i = 0; i < 5; i++) await validateIdToken(await s.op.mint("valid"), s.expected);
  assert.equal(s.op.hits("/jwks"), 1);
});

// Every defect

const REFUSALS: [Defect, string, RegExp][] = [
  ["bad-signature", "server_error", /signature does not verify/],
  ["tampered-payload", "server_error", /signature does not verify/],
  ["embedded-jwk", "server_error", /signature does not verify/],
  ["alg-none", "server_error", /unsigned \(alg none\)/],
  ["hs256-client-secret", "server_error", /algorithm that is not allowed/],
  ["wrong-iss", "server_error", /names another issuer/],
  ["iss-trailing-slash", "server_error", /names another issuer/],
  ["wrong-aud", "server_error", /another audience/],
  ["several-aud-no-azp", "server_error", /several audiences without azp/],
  ["several-aud-azp-other", "server_error", /another authorized party/],
  ["azp-other", "server_error", /another authorized party/],
  ["expired", "server_error", /has expired/],
  ["missing-exp", "server_error", /no valid exp/],
  ["missing-iat", "server_error", /no valid iat/],
  ["string-iat", "server_error", /no valid iat/],
  ["future-nbf", "server_error", /not valid yet/],
  ["missing-nonce", "invalid_request", /has no nonce/],
  ["wrong-nonce", "invalid_request", /nonce does not match this sign-in/],
  ["missing-sub", "server_error", /no valid sub/],
  ["empty-sub", "server_error", /no valid sub/],
  ["numeric-sub", "server_error", /no valid sub/],
  ["jwe", "server_error", /encrypted \(JWE\)/],
  ["crit", "server_error", /crit header/],
  ["typ-at-jwt", "server_error", /typ other than JWT/],
  ["unknown-kid", "server_error", /has no key for the ID token/],
  ["garbage", "server_error", /unreadable header/],
];

for (const [defect, code, description] of REFUSALS) {
  Deno.test(`an ID token with the defect "${defect}" is refused with ${code}`, async () => {
    await using s = await setup();
    const token = await s.op.mint(defect);
    const error = await assertRefused(validateIdToken(token, s.expected), {
      code,
      status: code === "server_error" ? 502 : 400,
      description,
      secrets: [token, ...FORGED_VALUES, ...token.split(".").filter((part) => part.length > 8)],
    });
    assert.ok(error.description.length < 160);
  });
}

Deno.test("an ID token relabelled from RS256 to PS256 is refused even when PS256 is allowed", async () => {
  await using s = await setup();
  await assertRefused(
    validateIdToken(await s.op.mint("alg-swap"), { ...s.expected, algorithms: ["RS256", "PS256"] }),
    { code: "server_error", status: 502 },
  );
});

Deno.test("an RS256 ID token is refused when the provider lists ES256 only", async () => {
  await using s = await setup();
  const algorithms = idTokenAlgorithms({ id_token_signing_alg_values_supported: ["ES256"] });
  await assertRefused(validateIdToken(await s.op.mint("valid"), { ...s.expected, algorithms }), {
    code: "server_error",
    description: /algorithm that is not allowed/,
  });
});

for (const defect of ["alg-none", "jwe", "hs256-client-secret", "crit"] as Defect[]) {
  Deno.test(`an ID token with the defect "${defect}" is refused before any JWKS request`, async () => {
    await using s = await setup();
    await assertRefused(validateIdToken(await s.op.mint(defect), s.expected), {
      code: "server_error",
    });
    assert.equal(s.op.hits("/jwks"), 0);
  });
}

Deno.test("a missing ID token is refused", async () => {
  await using s = await setup();
  await assertRefused(validateIdToken(undefined, s.expected), {
    code: "server_error",
    description: /is missing/,
  });
});

Deno.test("an ID token larger than 16 KiB is refused before parsing", async () => {
  await using s = await setup();
  const token = await s.op.mint("valid", { claims: { padding: "x".repeat(17 * 1024) } });
  await assertRefused(validateIdToken(token, s.expected), {
    code: "server_error",
    description: /larger than 16 KiB/,
  });
  assert.equal(s.op.hits("/jwks"), 0);
});

Deno.test("an ID token with a nonce is refused when none was sent", async () => {
  await using s = await setup();
  await assertRefused(
    validateIdToken(await s.op.mint("valid"), { ...s.expected, nonce: undefined }),
    { code: "invalid_request", status: 400, description: /although none was sent/ },
  );
});

Deno.test("an ID token without nonce is accepted when none was sent", async () => {
  await using s = await setup();
  const claims = await validateIdToken(await s.op.mint("missing-nonce"), {
    ...s.expected,
    nonce: undefined,
  });
  assert.equal(claims.nonce, undefined);
});

// Clock tolerance

Deno.test("an ID token expired less than 60 s ago is accepted", async () => {
  await using s = await setup();
  const now = Date.now();
  const token = await s.op.mint("valid", { claims: { exp: Math.floor(now / 1000) - 30 } });
  assert.equal((await validateIdToken(token, { ...s.expected, now: () => now })).sub, SUBJECT);
});

Deno.test("an ID token expired 60 s ago is refused", async () => {
  await using s = await setup();
  const now = Date.now();
  const token = await s.op.mint("valid", { claims: { exp: Math.floor(now / 1000) - 60 } });
  await assertRefused(validateIdToken(token, { ...s.expected, now: () => now }), {
    code: "server_error",
    description: /has expired/,
  });
});

Deno.test("an ID token whose nbf is less than 60 s ahead is accepted", async () => {
  await using s = await setup();
  const now = Date.now();
  const token = await s.op.mint("valid", { claims: { nbf: Math.floor(now / 1000) + 30 } });
  assert.equal((await validateIdToken(token, { ...s.expected, now: () => now })).sub, SUBJECT);
});

Deno.test("the clock tolerance can be narrowed", async () => {
  await using s = await setup();
  const now = Date.now();
  const token = await s.op.mint("valid", { claims: { exp: Math.floor(now / 1000) - 30 } });
  await assertRefused(
    validateIdToken(token, { ...s.expected, now: () => now, clockToleranceSec: 5 }),
    { code: "server_error", description: /has expired/ },
  );
});

// HS256

Deno.test("an HS256 ID token keyed with the client secret is accepted when configured", async () => {
  await using s = await setup();
  const claims = await validateIdToken(await s.op.mint("hs256-client-secret"), {
    ...s.expected,
    algorithms: idTokenAlgorithms(undefined, { allowHS256: true }),
    clientSecret: s.op.clientSecret,
  });
  assert.equal(claims.sub, SUBJECT);
});

Deno.test("an HS256 ID token keyed with another secret is refused", async () => {
  await using s = await setup();
  await assertRefused(
    validateIdToken(await s.op.mint("hs256-client-secret"), {
      ...s.expected,
      algorithms: ["HS256"],
      clientSecret: "another-client-secret-of-at-least-32-bytes",
    }),
    { code: "server_error", description: /signature does not verify/ },
  );
});

Deno.test("an HS256 ID token is refused when HS256 is allowed but no secret is given", async () => {
  await using s = await setup();
  await assertRefused(
    validateIdToken(await s.op.mint("hs256-client-secret"), {
      ...s.expected,
      algorithms: ["HS256"],
    }),
    { code: "server_error", description: /no client secret/ },
  );
});

Deno.test("an HS256 ID token is refused when the client secret is shorter than 32 bytes", async () => {
  await using s = await setup({ clientSecret: "short-secret" });
  await assertRefused(
    validateIdToken(await s.op.mint("hs256-client-secret"), {
      ...s.expected,
      algorithms: ["HS256"],
      clientSecret: "short-secret",
    }),
    { code: "server_error", description: /shorter than 32 bytes/, secrets: ["short-secret"] },
  );
});

// The allow-list

Deno.test("the allow-list defaults to RS256 when the provider lists none", () => {
  assert.deepEqual(idTokenAlgorithms(undefined), ["RS256"]);
  assert.deepEqual(idTokenAlgorithms({}), ["RS256"]);
});

Deno.test("the allow-list keeps the provider's asymmetric algorithms only", () => {
  assert.deepEqual(
    idTokenAlgorithms({
      id_token_signing_alg_values_supported: ["none", "HS256", "ES256K", "ES256", "RS256", "EdDSA"],
    }),
    ["RS256", "ES256", "EdDSA"],
  );
});

Deno.test("the allow-list adds HS256 only when it is configured", () => {
  assert.deepEqual(
    idTokenAlgorithms({ id_token_signing_alg_values_supported: ["RS256"] }, { allowHS256: true }),
    ["RS256", "HS256"],
  );
});

// Through the token and user-info endpoints

function providerOf(op: HostileOP): ResolvedProvider {
  return {
    id: "hostile",
    name: "Hostile",
    authorizeURL: `${op.origin}/authorize`,
    accessToken: `${op.origin}/token`,
    userInfo: `${op.origin}/userinfo`,
    scope: "openid email",
    responseType: "code",
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    profile: (profile) => Promise.resolve({ sub: String(profile.sub) }),
    verifiesEmail: false,
    issuer: op.issuer,
    clientAuthMethod: "client_secret_basic",
    authorizationParams: {},
    nonce: true,
    responseMode: "query",
    clientIdParam: "client_id",
    pkce: true,
    userInfoMethod: "GET",
    headers: {},
  };
}

const CODE = {
  code: "c-1",
  redirectURI: "http://127.0.0.1/callback",
  codeVerifier: "v".repeat(43),
};

Deno.test("a token response without an ID token fails validation", async () => {
  await using s = await setup();
  s.op.tokenDefect = "absent";
  const tokens = await exchangeCode(fetch, providerOf(s.op), CODE);
  await assertRefused(validateIdToken(tokens.id_token, s.expected), {
    code: "server_error",
    description: /is missing/,
  });
});

Deno.test("the ID token of a token response validates with the nonce of its sign-in", async () => {
  await using s = await setup();
  s.op.tokenNonce = NONCE;
  const tokens = await exchangeCode(fetch, providerOf(s.op), CODE);
  assert.equal((await validateIdToken(tokens.id_token, s.expected)).sub, SUBJECT);
});

Deno.test("user info about the ID token's subject passes the subject check", async () => {
  await using s = await setup();
  const claims = await validateIdToken(await s.op.mint("valid"), s.expected);
  const userInfo = await fetchUserInfo(fetch, providerOf(s.op), {
    access_token: "at-1",
    token_type: "Bearer",
  });
  checkUserInfoSubject(userInfo, claims);
});

Deno.test("user info about another subject is refused with a 502", async () => {
  await using s = await setup();
  s.op.userInfoSub = "someone-else";
  const claims = await validateIdToken(await s.op.mint("valid"), s.expected);
  const userInfo = await fetchUserInfo(fetch, providerOf(s.op), {
    access_token: "at-1",
    token_type: "Bearer",
  });
  await assertRefused(() => checkUserInfoSubject(userInfo, claims), {
    code: "server_error",
    status: 502,
    description: /user-info sub does not match/,
    secrets: ["someone-else"],
  });
});

for (const userInfo of [{}, { sub: 1 }, { sub: "" }, { sub: `${SUBJECT} ` }]) {
  Deno.test(`user info ${JSON.stringify(userInfo)} fails the subject check`, async () => {
    await assertRefused(() => checkUserInfoSubject(userInfo, { sub: SUBJECT }), {
      code: "server_error",
    });
  });
}

Deno.test("a stream of tokens with forged kids fetches the JWKS at most once more", async () => {
  await using s = await setup();
  await validateIdToken(await s.op.mint("valid"), s.expected);
  for (let i = 0; i < 10; i++) {
    await assertRefused(validateIdToken(await s.op.mint("unknown-kid"), s.expected), {
      code: "server_error",
      description: /has no key/,
    });
  }
  assert.equal(s.op.hits("/jwks"), 2);
});
