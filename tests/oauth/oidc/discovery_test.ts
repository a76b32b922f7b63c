// Provider metadata by discovery: URL rules, validation of a hostile
// document, the bounded fetch, and the per-instance cache.
import assert from "node:assert/strict";
import {
  checkIssuer,
  createDiscoveryCache,
  discover,
  discoveryURLs,
  validateProviderMetadata,
} from "../../../src/oauth/oidc/discovery.ts";
import { assertRefused, manualClock } from "./_assert.ts";
import { type DiscoveryMode, startHostileOP } from "./_hostile_op.ts";

const ISSUER = "https://id.example.com";
const DOCUMENT = {
  issuer: ISSUER,
  authorization_endpoint: "https://id.example.com/authorize",
  token_endpoint: "https://id.example.com/token",
  jwks_uri: "https://keys.example.com/jwks",
  userinfo_endpoint: "https://id.example.com/userinfo",
  id_token_signing_alg_values_supported: ["RS256", "ES256"],
  token_endpoint_auth_methods_supported: ["client_secret_basic"],
  code_challenge_methods_supported: ["S256"],
};
const HOUR = 60 * 60 * 1000;
const BAD_DOCUMENT = { code: "server_error", status: 502, description: /discovery document/ };

// Discovery URLs

Deno.test("the OpenID discovery URL appends the well-known path to the issuer", () => {
  assert.equal(discoveryURLs(ISSUER)[0], "https://id.example.com/.well-known/openid-configuration");
});

Deno.test("the OpenID discovery URL of an issuer with a path keeps the path first", () => {
  assert.equal(
    discoveryURLs("https://id.example.com/tenant/v2")[0],
    "https://id.example.com/tenant/v2/.well-known/openid-configuration",
  );
});

Deno.test("the RFC 8414 URL of an issuer with a path inserts the well-known path after the host", () => {
  assert.equal(
    discoveryURLs("https://id.example.com/tenant/v2")[1],
    "https://id.example.com/.well-known/oauth-authorization-server/tenant/v2",
  );
});

Deno.test("a trailing slash of the issuer is dropped from both discovery URLs", () => {
  assert.deepEqual(discoveryURLs("https://id.example.com/tenant/"), [
    "https://id.example.com/tenant/.well-known/openid-configuration",
    "https://id.example.com/.well-known/oauth-authorization-server/tenant",
  ]);
});

// Issuer checks

Deno.test("an https issuer is accepted unchanged", () => {
  assert.equal(checkIssuer("https://id.example.com/tenant"), "https://id.example.com/tenant");
});

for (
  const issuer of [
    "http://localhost:8080",
    "http://app.localhost",
    "http://127.0.0.1:9000",
    "http://[::1]:9000",
  ]
) {
  Deno.test(`a plain http loopback issuer is accepted: ${issuer}`, () => {
    assert.equal(checkIssuer(issuer), issuer);
  });
}

for (
  const issuer of [
    "http://id.example.com",
    "http://127.0.0.2",
    "https://id.example.com/?tenant=1",
    "https://id.example.com/#x",
    "https://user:pass@id.example.com",
    "ftp://id.example.com",
    "id.example.com",
    "",
  ]
) {
  Deno.test(`an issuer that is not a plain https URL throws a TypeError: ${JSON.stringify(issuer)}`, () => {
    assert.throws(() => checkIssuer(issuer), TypeError);
  });
}

// Document validation

Deno.test("a complete document validates into its known members only", () => {
  const metadata = validateProviderMetadata({ ...DOCUMENT, extra: "ignored" }, ISSUER);
  assert.deepEqual({ ...metadata }, DOCUMENT);
  assert.ok(Object.isFrozen(metadata));
  assert.ok(Object.isFrozen(metadata.id_token_signing_alg_values_supported));
});

for (
  const issuer of [
    "https://id.example.com/",
    "https://ID.example.com",
    "https://attacker.example",
    "https://id.example.com:443",
    undefined,
    42,
  ]
) {
  Deno.test(`a document whose issuer is not exactly the configured one is refused: ${issuer}`, async () => {
    await assertRefused(
      () => validateProviderMetadata({ ...DOCUMENT, issuer }, ISSUER),
      { ...BAD_DOCUMENT, description: /names another issuer/, secrets: ["attacker"] },
    );
  });
}

for (const member of ["authorization_endpoint", "token_endpoint", "jwks_uri"]) {
  Deno.test(`a document without ${member} is refused for OpenID Connect`, async () => {
    const document: Record<string, unknown> = { ...DOCUMENT };
    delete document[member];
    await assertRefused(
      () => validateProviderMetadata(document, ISSUER),
      { ...BAD_DOCUMENT, description: new RegExp(`has no ${member}`) },
    );
  });
}

Deno.test("a document without jwks_uri is accepted when OpenID Connect is not required", () => {
  const { jwks_uri: _, ...document } = DOCUMENT;
  const metadata = validateProviderMetadata(document, ISSUER, { openid: false });
  assert.equal(metadata.jwks_uri, undefined);
});

for (
  const endpoint of [
    "http://id.example.com/token",
    "http://127.0.0.1/token",
    "http://localhost/token",
    "javascript:alert(1)",
    "/token",
    "https://user:pass@id.example.com/token",
    "https://id.example.com/token#frag",
    "https://id.example.com/token#",
    "",
    42,
    ["https://id.example.com/token"],
  ]
) {
  Deno.test(`a non-loopback issuer's token_endpoint ${JSON.stringify(endpoint)} is refused`, async () => {
    await assertRefused(
      () => validateProviderMetadata({ ...DOCUMENT, token_endpoint: endpoint }, ISSUER),
      { ...BAD_DOCUMENT, description: /invalid token_endpoint/, secrets: ["alert", "pass"] },
    );
  });
}

Deno.test("a loopback issuer's http endpoints on loopback hosts are accepted", () => {
  const issuer = "http://127.0.0.1:9000";
  const metadata = validateProviderMetadata({
    issuer,
    authorization_endpoint: "http://localhost:9000/authorize",
    token_endpoint: "http://127.0.0.1:9000/token",
    jwks_uri: "http://[::1]:9000/jwks",
  }, issuer);
  assert.equal(metadata.token_endpoint, "http://127.0.0.1:9000/token");
});

Deno.test("a loopback issuer's http endpoint on another host is refused", async () => {
  const issuer = "http://127.0.0.1:9000";
  await assertRefused(
    () =>
      validateProviderMetadata({
        issuer,
        authorization_endpoint: "http://127.0.0.1:9000/authorize",
        token_endpoint: "http://id.example.com/token",
        jwks_uri: "http://127.0.0.1:9000/jwks",
      }, issuer),
    { ...BAD_DOCUMENT, description: /invalid token_endpoint/ },
  );
});

Deno.test("an endpoint with a query is kept with its query", () => {
  const metadata = validateProviderMetadata({
    ...DOCUMENT,
    authorization_endpoint: "https://id.example.com/authorize?p=B2C_1_signin",
  }, ISSUER);
  assert.equal(metadata.authorization_endpoint, "https://id.example.com/authorize?p=B2C_1_signin");
});

for (
  const [member, value] of [
    ["id_token_signing_alg_values_supported", "RS256"],
    ["id_token_signing_alg_values_supported", ["RS256", 256]],
    ["token_endpoint_auth_methods_supported", { basic: true }],
    ["code_challenge_methods_supported", null],
    ["authorization_response_iss_parameter_supported", "true"],
  ] as const
) {
  Deno.test(`a document whose ${member} is ${JSON.stringify(value)} is refused`, async () => {
    await assertRefused(
      () => validateProviderMetadata({ ...DOCUMENT, [member]: value }, ISSUER),
      { ...BAD_DOCUMENT, description: new RegExp(`invalid ${member}`) },
    );
  });
}

for (const document of [null, [], "text", 42]) {
  Deno.test(`a discovery document that is ${JSON.stringify(document)} is refused`, async () => {
    await assertRefused(
      () => validateProviderMetadata(document, ISSUER),
      { ...BAD_DOCUMENT, description: /not a JSON object/ },
    );
  });
}

// Fetching

Deno.test("discovery against a loopback provider returns its validated metadata", async () => {
  await using op = await startHostileOP();
  const metadata = await discover(op.issuer, { fetch });
  assert.equal(metadata.issuer, op.issuer);
  assert.equal(metadata.jwks_uri, `${op.origin}/jwks`);
  assert.equal(op.hits("/.well-known/openid-configuration"), 1);
  assert.equal(op.hits("/.well-known/oauth-authorization-server"), 0);
});

Deno.test("discovery falls back to the RFC 8414 document when the OpenID one is missing", async () => {
  await using op = await startHostileOP();
  op.discovery = "not-found";
  const metadata = await discover(op.issuer, { fetch });
  assert.equal(metadata.token_endpoint, `${op.origin}/token`);
  assert.equal(op.hits("/.well-known/openid-configuration"), 1);
  assert.equal(op.hits("/.well-known/oauth-authorization-server"), 1);
});

Deno.test("the RFC 8414 fallback of an issuer with a path inserts the well-known path", async () => {
  await using op = await startHostileOP({ issuerPath: "/tenant" });
  op.discovery = "not-found";
  const metadata = await discover(op.issuer, { fetch });
  assert.equal(metadata.issuer, `${op.origin}/tenant`);
  assert.equal(op.hits("/tenant/.well-known/openid-configuration"), 1);
  assert.equal(op.hits("/.well-known/oauth-authorization-server/tenant"), 1);
});

Deno.test("discovery fails with a 502 when neither document exists", async () => {
  await using op = await startHostileOP({ issuerPath: "/nowhere" });
  await assertRefused(
    discover(`${op.origin}/other`, { fetch }),
    { code: "server_error", status: 502, description: /answered 404/ },
  );
});

const FETCH_FAILURES: [DiscoveryMode, RegExp][] = [
  ["issuer-mismatch", /names another issuer/],
  ["issuer-trailing-slash", /names another issuer/],
  ["http-endpoint-elsewhere", /invalid token_endpoint/],
  ["no-jwks-uri", /has no jwks_uri/],
  ["no-token-endpoint", /has no token_endpoint/],
  ["oversized", /too large/],
  ["oversized-chunked", /too large/],
  ["slow-headers", /did not answer in time/],
  ["slow-body", /did not answer in time/],
  ["malformed", /not valid JSON/],
  ["array", /not a JSON object/],
  ["html", /not JSON/],
  ["redirect", /could not be reached/],
];

for (const [mode, description] of FETCH_FAILURES) {
  Deno.test(`the discovery answer "${mode}" fails with a 502 server_error`, async () => {
    await using op = await startHostileOP();
    op.discovery = mode;
    await assertRefused(
      discover(op.issuer, { fetch, timeoutMs: 300 }),
      { code: "server_error", status: 502, description, secrets: ["attacker"] },
    );
  });
}

// The cache

Deno.test("concurrent callers of a cold cache share one discovery request", async () => {
  await using op = await startHostileOP();
  const cache = createDiscoveryCache({ fetch });
  const results = await Promise.all(Array.from({ length: 8 }, () => cache.get(op.issuer)));
  assert.equal(op.hits("/.well-known/openid-configuration"), 1);
  for (const metadata of results) assert.equal(metadata, results[0]);
});

Deno.test("a cached document is reused for an hour without a request", async () => {
  await using op = await startHostileOP();
  const clock = manualClock();
  const cache = createDiscoveryCache({ fetch, now: clock.now });
  await cache.get(op.issuer);
  clock.advance(HOUR - 1);
  await cache.get(op.issuer);
  assert.equal(op.hits("/.well-known/openid-configuration"), 1);
});

Deno.test("a cached document is fetched again once an hour has passed", async () => {
  await using op = await startHostileOP();
  const clock = manualClock();
  const cache = createDiscoveryCache({ fetch, now: clock.now });
  await cache.get(op.issuer);
  clock.advance(HOUR);
  await cache.get(op.issuer);
  assert.equal(op.hits("/.well-known/openid-configuration"), 2);
});

Deno.test("a failed discovery is not cached: the next call fetches again and succeeds", async () => {
  await using op = await startHostileOP();
  const cache = createDiscoveryCache({ fetch });
  op.discovery = "malformed";
  await assertRefused(cache.get(op.issuer), { code: "server_error" });
  op.discovery = "ok";
  const metadata = await cache.get(op.issuer);
  assert.equal(metadata.issuer, op.issuer);
  assert.equal(op.hits("/.well-known/openid-configuration"), 2);
});

Deno.test("a failed discovery reaches every concurrent caller from one request", async () => {
  await using op = await startHostileOP();
  const cache = createDiscoveryCache({ fetch });
  op.discovery = "issuer-mismatch";
  const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => cache.get(op.issuer)));
  assert.ok(outcomes.every((outcome) => outcome.status === "rejected"));
  assert.equal(op.hits("/.well-known/openid-configuration"), 1);
});

Deno.test("a document without jwks_uri fails an OpenID caller and is asked for again", async () => {
  await using op = await startHostileOP();
  const cache = createDiscoveryCache({ fetch });
  op.discovery = "no-jwks-uri";
  await assertRefused(cache.get(op.issuer), { ...BAD_DOCUMENT, description: /has no jwks_uri/ });
  op.discovery = "ok";
  assert.equal((await cache.get(op.issuer)).jwks_uri, `${op.origin}/jwks`);
  assert.equal(op.hits("/.well-known/openid-configuration"), 2);
});

Deno.test("a document without jwks_uri serves a caller that does not need OpenID Connect", async () => {
  await using op = await startHostileOP();
  const cache = createDiscoveryCache({ fetch });
  op.discovery = "no-jwks-uri";
  const metadata = await cache.get(op.issuer, { openid: false });
  assert.equal(metadata.token_endpoint, `${op.origin}/token`);
});

Deno.test("two cache instances never share a document", async () => {
  await using op = await startHostileOP();
  await createDiscoveryCache({ fetch }).get(op.issuer);
  await createDiscoveryCache({ fetch }).get(op.issuer);
  assert.equal(op.hits("/.well-known/openid-configuration"), 2);
});

Deno.test("the cache keeps documents of two issuers apart", async () => {
  await using a = await startHostileOP();
  await using b = await startHostileOP();
  const cache = createDiscoveryCache({ fetch });
  assert.equal((await cache.get(a.issuer)).issuer, a.issuer);
  assert.equal((await cache.get(b.issuer)).issuer, b.issuer);
  assert.equal((await cache.get(a.issuer)).token_endpoint, `${a.origin}/token`);
  assert.equal(a.hits("/.well-known/openid-configuration"), 1);
});
