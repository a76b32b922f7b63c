import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";

Deno.test("createMockProvider refuses invalid options", () => {
  assert.throws(() => createMockProvider({ baseURL: "not a url" }), TypeError);
  assert.throws(() => createMockProvider({ baseURL: "ftp://x.localhost" }), TypeError);
  assert.throws(() => createMockProvider({ baseURL: "http://x.localhost/?a=1" }), TypeError);
  assert.throws(() => createMockProvider({ codeTTL: 0 }), TypeError);
  assert.throws(() => createMockProvider({ users: [{ sub: "a" }, { sub: "a" }] }), TypeError);
  assert.throws(() => createMockProvider({ clientSecret: "" }), TypeError);
});

Deno.test("oidc refuses a plain-http issuer on a host that is not loopback", () => {
  for (const baseURL of ["http://idp.example", "http://10.0.0.1", "http://localhost.example"]) {
    assert.throws(() => createMockProvider({ oidc: true, baseURL }), TypeError, baseURL);
  }
});

Deno.test("oidc accepts https issuers and http issuers on loopback hosts", () => {
  for (
    const baseURL of [
      "https://idp.example",
      "http://localhost:8080",
      "http://mock.localhost",
      "http://127.0.0.1:9000/oauth",
      "http://[::1]:9000",
    ]
  ) {
    const mock = createMockProvider({ oidc: true, baseURL, warn: () => {} });
    assert.equal(mock.issuer, baseURL.replace(/\/$/, ""));
  }
});

Deno.test("plain OAuth mode (oidc: false) keeps accepting any http base URL", () => {
  const mock = createMockProvider({ oidc: false, baseURL: "http://idp.example", warn: () => {} });
  assert.equal(mock.issuer, "http://idp.example");
});

Deno.test("OpenID Connect is the default mode, so a non-loopback http base URL is refused", () => {
  assert.throws(() => createMockProvider({ baseURL: "http://idp.example" }), TypeError);
});

Deno.test("an oidc option that is not a boolean or an object is refused", () => {
  for (const oidc of [null, "yes", 1]) {
    assert.throws(() => createMockProvider({ oidc: oidc as unknown as boolean }), TypeError);
  }
});

Deno.test("oidc refuses an unknown signing algorithm, a bad idTokenTTL and knobs of the wrong type", () => {
  const bad = [
    { signingAlg: "HS256" as "ES256" },
    { signingAlg: "none" as "ES256" },
    { idTokenTTL: 0 },
    { idTokenTTL: Number.NaN },
    { idTokenClaims: "aud" as unknown as Record<string, unknown> },
    { metadata: [] as unknown as Record<string, unknown> },
    { jwks: {} as unknown as () => { keys: [] } },
    { tamperIdToken: "x" as unknown as () => undefined },
  ];
  for (const oidc of bad) {
    assert.throws(() => createMockProvider({ oidc }), TypeError, JSON.stringify(oidc));
  }
});

Deno.test("oidc: false is plain OAuth mode", async () => {
  const mock = createMockProvider({ oidc: false });
  const response = await mock.fetch(`${mock.issuer}/jwks`);
  assert.equal(response.status, 404);
  await response.body?.cancel();
});

Deno.test("a mock on a host that is not loopback warns loudly, once, at creation", async () => {
  for (
    const options of [
      { baseURL: "https://idp.example" },
      { baseURL: "https://auth.example.com/mock", oidc: { discovery: true } },
      { baseURL: "http://idp.example", oidc: false },
      { baseURL: "https://10.0.0.5:8443" },
    ]
  ) {
    const warnings: string[] = [];
    const mock = createMockProvider({ ...options, warn: (message) => warnings.push(message) });
    assert.equal(warnings.length, 1, options.baseURL);
    assert.match(
      warnings[0],
      /^WARNING: createMockProvider: baseURL https?:\/\/[^ ]+ is not a loopback host/,
    );
    assert.match(warnings[0], /anyone who can reach this mock can sign in as any of its users/);
    // Requests do not warn again.
    await mock.handler(new Request(`${mock.issuer}/userinfo`));
    await mock.handler(new Request(`${mock.issuer}/authorize`));
    assert.equal(warnings.length, 1);
  }
});

Deno.test("a mock on a loopback host does not warn", () => {
  for (
    const baseURL of [
      undefined,
      "http://localhost:8080",
      "http://mock.localhost",
      "http://127.0.0.1:9000",
      "http://[::1]:9000",
      "https://mock.localhost",
    ]
  ) {
    const warnings: string[] = [];
    createMockProvider({ baseURL, warn: (message) => warnings.push(message) });
    assert.deepEqual(warnings, [], baseURL);
  }
});

Deno.test("the mock's warning goes to console.warn by default", () => {
  const original = console.warn;
  const seen: unknown[] = [];
  console.warn = (...args: unknown[]) => void seen.push(...args);
  try {
    createMockProvider({ baseURL: "https://idp.example" });
  } finally {
    console.warn = original;
  }
  assert.equal(seen.length, 1);
  assert.match(String(seen[0]), /not a loopback host/);
});

Deno.test("a warn option that is not a function is refused", () => {
  assert.throws(
    () => createMockProvider({ warn: "loud" as unknown as () => void }),
    TypeError,
  );
});
