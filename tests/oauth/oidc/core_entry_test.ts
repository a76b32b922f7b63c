// OpenID Connect with createAuth of core.ts: a built-in OpenID Connect provider brings the code
// with its definition and signs in as with mod.ts; a custom provider with an issuer needs the
// oidc feature, and without it createAuth throws a TypeError naming the import.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, email, google, oidc, okta } from "../../../core.ts";
import { builtInProviders, createAuth as createAuthWithTable } from "../../../mod.ts";
import { oidcKitOf } from "../../../src/oauth/providers/_define.ts";
import { createMockProvider, type MockProviderOptions } from "../../../testing.ts";
import {
  assertErrorRedirect,
  authorizeAt,
  Browser,
  getSession,
  json,
  pathOf,
  scriptedFetch,
  SECRET,
  startSignIn,
} from "../_flow_helpers.ts";
import { generateKey, signJwt } from "./_hostile_op.ts";

const RSA_KEY = generateKey("RS256", "google-key-1");
const CLIENT_ID = "google-client-id.apps.googleusercontent.com";
const NEEDS_OIDC =
  /provider "corp" has an issuer, so it needs OpenID Connect.*expected import \{ oidc \} from "@service-stack\/auth\/core" and features: \[oidc\]\./;

function isNeedsOIDC(error: unknown): boolean {
  return error instanceof TypeError && NEEDS_OIDC.test(error.message);
}

async function sessionUser(browser: Browser): Promise<unknown> {
  return (await (await getSession(browser)).json())?.user;
}

// Google's endpoints, scripted; the token endpoint signs the nonce of the last sign-in started.
function googleApp(claims: (nonce: string) => Record<string, unknown>) {
  let nonce = "";
  const scripted = scriptedFetch({
    "https://oauth2.googleapis.com/token": async () => {
      const nowSec = Math.floor(Date.now() / 1000);
      const key = await RSA_KEY;
      const idToken = await signJwt(
        { alg: "RS256", typ: "JWT", kid: key.kid },
        { iat: nowSec, exp: nowSec + 600, ...claims(nonce) },
        key.privateKey,
        { name: "RSASSA-PKCS1-v1_5" },
      );
      return json({ access_token: "a", token_type: "Bearer", id_token: idToken });
    },
    "https://www.googleapis.com/oauth2/v3/certs": async () =>
      json({ keys: [(await RSA_KEY).publicJwk] }),
    "https://openidconnect.googleapis.com/v1/userinfo": () =>
      json({ sub: "1017", name: "Ada", email: "ada@gmail.com", email_verified: true }),
  });
  const auth = createAuth({
    oauth: [{ ...google, clientId: CLIENT_ID, clientSecret: "google-secret" }],
    secret: SECRET,
    logger: false,
    env: {},
    fetch: scripted.fetch,
  });
  const browser = new Browser(auth.handlers.ALL);
  async function signIn(): Promise<Response> {
    const authorization = await startSignIn(browser, "google", "?redirectTo=%2Fhome");
    nonce = authorization.searchParams.get("nonce") ?? "";
    const query = new URLSearchParams({
      code: "the-code",
      state: authorization.searchParams.get("state")!,
    });
    return await browser.get(`/auth/callback/google?${query}`);
  }
  return { browser, calls: scripted.calls, signIn };
}

const googleClaims = (nonce: string) => ({
  iss: "https://accounts.google.com",
  aud: CLIENT_ID,
  sub: "1017",
  nonce,
});

Deno.test("core: google signs in by OpenID Connect with no feature listed", async () => {
  const app = googleApp(googleClaims);
  const response = await app.signIn();
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(app.browser), {
    sub: "1017",
    name: "Ada",
    email: "ada@gmail.com",
    emailVerified: true,
  });
  assert.deepEqual(app.calls.map((call) => new URL(call.url).hostname), [
    "oauth2.googleapis.com",
    "www.googleapis.com",
    "openidconnect.googleapis.com",
  ]);
});

Deno.test("core: google still refuses an ID token for another client, from another issuer or with another nonce", async () => {
  for (
    const [claims, error] of [
      [(nonce: string) => ({ ...googleClaims(nonce), aud: "someone-else" }), "server_error"],
      [
        (nonce: string) => ({ ...googleClaims(nonce), iss: "https://evil.example" }),
        "server_error",
      ],
      // A nonce that does not match is a replayed or injected response: the request's fault.
      [(nonce: string) => ({ ...googleClaims(nonce), nonce: `${nonce}x` }), "invalid_request"],
    ] as const
  ) {
    const app = googleApp(claims);
    assertErrorRedirect(await app.signIn(), "/home", error);
  }
});

const CORP = {
  id: "corp",
  name: "Corp",
  issuer: "https://id.corp.example",
  clientId: "corp-id",
  clientSecret: "corp-secret",
};

Deno.test("core: a custom provider with an issuer and no oidc feature throws, naming the import", () => {
  const endpoints = {
    authorizeURL: "https://id.corp.example/authorize",
    accessToken: "https://id.corp.example/token",
    jwksURI: "https://id.corp.example/jwks",
    scope: "openid email",
  };
  for (
    const entry of [CORP, { ...CORP, ...endpoints }, { ...CORP, ...endpoints, scope: "email" }]
  ) {
    for (const features of [undefined, [], [email]]) {
      assert.throws(
        () => createAuth({ oauth: [entry], features, secret: SECRET, logger: false }),
        isNeedsOIDC,
      );
    }
  }
  // A provider without an issuer needs no feature; one asking for openid still needs an issuer.
  assert.throws(
    () =>
      createAuth({
        oauth: [{
          ...CORP,
          ...endpoints,
          issuer: undefined,
          userInfo: "https://id.corp.example/me",
        } as never],
        secret: SECRET,
        logger: false,
      }),
    /provider "corp" asks for the openid scope but has no issuer/,
  );
});

Deno.test("core: a custom provider with an issuer works with features: [oidc]; mod.ts needs no feature", () => {
  for (
    const auth of [
      createAuth({ oauth: [CORP], features: [oidc], secret: SECRET, logger: false }),
      createAuthWithTable({ oauth: [CORP], secret: SECRET, logger: false }),
      createAuthWithTable({ oauth: [CORP], features: [oidc], secret: SECRET, logger: false }),
    ]
  ) {
    assert.equal(typeof auth.handlers.ALL, "function");
  }
});

Deno.test("core: a built-in OpenID Connect provider, or a copy keeping its mapper, brings the code itself", () => {
  const env = { OKTA_CLIENT_ID: "okta-id", OKTA_CLIENT_SECRET: "okta-secret" };
  // A copy under another id keeps the mapper (verifiesEmail is for the built-in itself only).
  for (
    const oauth of [
      [google],
      [{ ...okta, issuer: "https://dev-1.okta.com" }],
      [{ ...google, id: "work", verifiesEmail: undefined, clientId: "w", clientSecret: "s" }],
      // The code one built-in brings serves a custom provider of the same instance too.
      [google, CORP],
    ]
  ) {
    const auth = createAuth({
      oauth,
      secret: SECRET,
      logger: false,
      env: { ...env, GOOGLE_CLIENT_ID: "g", GOOGLE_CLIENT_SECRET: "s" },
    } as AuthConfig);
    assert.equal(typeof auth.handlers.ALL, "function");
  }
});

Deno.test("every built-in that uses OpenID Connect brings the code, and no other built-in does", () => {
  const uses = Object.values(builtInProviders).filter((provider) =>
    provider.issuer !== undefined || provider.options?.includes("issuer") ||
    provider.scope.split(" ").includes("openid")
  ).map((provider) => provider.id);
  assert.ok(uses.includes("microsoft") && uses.includes("okta") && !uses.includes("github"));
  assert.deepEqual(
    Object.values(builtInProviders).filter((provider) => oidcKitOf(provider) !== undefined)
      .map((provider) => provider.id),
    uses,
  );
});

async function mockSignIn(options: MockProviderOptions) {
  const mock = createMockProvider(options);
  const auth = createAuth({
    oauth: [mock.provider],
    features: [oidc],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
  } as AuthConfig);
  const browser = new Browser(auth.handlers.ALL);
  const authorization = await startSignIn(browser, mock.provider.id, "?redirectTo=%2Fhome");
  const callback = await authorizeAt(mock, authorization);
  const response = await browser.get(pathOf(callback));
  return { mock, browser, response };
}

Deno.test("core: with features: [oidc] a custom issuer signs in, configured or by discovery", async () => {
  for (const discovery of [false, true]) {
    const { mock, browser, response } = await mockSignIn({ oidc: { discovery } });
    assert.equal(response.headers.get("Location"), "/home");
    assert.equal((await sessionUser(browser) as { sub: string }).sub, "mock-user-1");
    const endpoints = mock.requests.map((request) => request.endpoint);
    assert.equal(endpoints.includes("discovery"), discovery);
    assert.ok(endpoints.includes("jwks"));
  }
});

Deno.test("core: with features: [oidc] an ID token for another audience is still refused", async () => {
  const { browser, response } = await mockSignIn({
    oidc: { idTokenClaims: { aud: "someone-else" } },
  });
  assertErrorRedirect(response, "/home", "server_error");
  assert.equal(await (await getSession(browser)).json(), null);
});
