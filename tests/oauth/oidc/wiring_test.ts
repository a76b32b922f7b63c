// The pieces the OpenID Connect wiring adds to the flow, one by one: the
// nonce in the sealed flow cookies and in the authorization request, the
// RFC 9207 rule, the claim merge, endpoints completed by discovery, the
// issuer hook of ID-token validation, and the createAuth checks.
import assert from "node:assert/strict";
import { createAuth } from "../../../mod.ts";
import { contextOf } from "../../../src/create_auth.ts";
import {
  createAuthorizationRequest,
  sendsNonce,
} from "../../../src/oauth/authorization_request.ts";
import { validateAuthorizationResponse } from "../../../src/oauth/authorization_response.ts";
import { openFlowCookies, sealFlowCookies } from "../../../src/oauth/flow_cookies.ts";
import { profileClaims, PROTOCOL_CLAIMS } from "../../../src/oauth/oidc/claims.ts";
import { validateIdToken } from "../../../src/oauth/oidc/id_token.ts";
import { createJwks } from "../../../src/oauth/oidc/jwks.ts";
import { discoveredEndpoints, withMetadata } from "../../../src/oauth/endpoints.ts";
import { resolveProviders } from "../../../src/oauth/providers/mod.ts";
import type { ResolvedProvider } from "../../../src/oauth/resolved_provider.ts";
import { AuthError } from "../../../src/errors.ts";
import { SECRET } from "../_flow_helpers.ts";
import { assertRefused } from "./_assert.ts";
import { startHostileOP } from "./_hostile_op.ts";

const ctx = contextOf(createAuth({ oauth: [], secret: SECRET, logger: false }));
const VALUES = {
  state: "s".repeat(43),
  codeVerifier: "v".repeat(43),
  redirectTo: "/home",
  redirectURI: "https://app.example/auth/callback/idp",
  nonce: "n".repeat(43),
};

function scopeOf(lines: string[], jar = ctx.jars.https) {
  const cookies = new Map<string, string>();
  for (const line of lines) {
    const pair = line.split(";")[0];
    cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
  }
  return { jar, cookies, nowMs: Date.now() };
}

function provider(entry: Record<string, unknown>): ResolvedProvider {
  const [resolved] = resolveProviders([{
    id: "idp",
    name: "IdP",
    authorizeURL: "https://idp.example/authorize",
    accessToken: "https://idp.example/token",
    userInfo: "https://idp.example/userinfo",
    issuer: "https://idp.example",
    scope: "openid email",
    responseType: "code",
    clientId: "app",
    clientSecret: "secret",
    ...entry,
  }], () => undefined).values();
  return resolved;
}

// Flow cookies

Deno.test("flow cookies carry the nonce sealed and give it back with the flow", async () => {
  const scope = scopeOf([]);
  const lines = await sealFlowCookies(ctx.flowJose, scope, { providerId: "idp", values: VALUES });
  assert.equal(lines.length, 4);
  assert.ok(lines.every((line) => !line.includes(VALUES.nonce)));
  const { expiresAt, ...opened } = (await openFlowCookies(ctx.flowJose, scopeOf(lines), "idp"))!;
  assert.deepEqual(opened, VALUES);
  assert.equal(typeof expiresAt, "number");
});

Deno.test("flow cookies without a nonce open without one", async () => {
  const { nonce: _, ...values } = VALUES;
  const lines = await sealFlowCookies(ctx.flowJose, scopeOf([]), { providerId: "idp", values });
  const { expiresAt: _expiresAt, ...opened } =
    (await openFlowCookies(ctx.flowJose, scopeOf(lines), "idp"))!;
  assert.deepEqual(opened, values);
});

Deno.test("a state cookie (and its nonce) from another flow is no flow", async () => {
  const a = await sealFlowCookies(ctx.flowJose, scopeOf([]), { providerId: "idp", values: VALUES });
  const b = await sealFlowCookies(ctx.flowJose, scopeOf([]), {
    providerId: "idp",
    values: { ...VALUES, nonce: "m".repeat(43) },
  });
  const mixed = [b[0], ...a.slice(1)];
  assert.ok(mixed[0].includes(".state="));
  assert.equal(await openFlowCookies(ctx.flowJose, scopeOf(mixed), "idp"), null);
});

Deno.test("flow cookies with the nonce are refused for another provider", async () => {
  const lines = await sealFlowCookies(ctx.flowJose, scopeOf([]), {
    providerId: "idp",
    values: VALUES,
  });
  assert.equal(await openFlowCookies(ctx.flowJose, scopeOf(lines), "other"), null);
});

Deno.test("crossSite flow cookies are SameSite=None over HTTPS and stay Lax over HTTP", async () => {
  const flow = { providerId: "idp", values: VALUES, crossSite: true };
  for (const line of await sealFlowCookies(ctx.flowJose, scopeOf([]), flow)) {
    assert.match(line, /; Secure; HttpOnly; SameSite=None/);
  }
  const http = scopeOf([], ctx.jars.http);
  for (const line of await sealFlowCookies(ctx.flowJose, http, flow)) {
    assert.match(line, /; SameSite=Lax/);
  }
});

// The authorization request

Deno.test("a nonce is sent only for openid scopes of providers that echo it", async () => {
  assert.equal(sendsNonce(provider({})), true);
  assert.equal(sendsNonce(provider({ nonce: false })), false);
  assert.equal(sendsNonce(provider({ scope: "email" })), false);
  const request = await createAuthorizationRequest(provider({}), { redirectURI: "https://a/cb" });
  assert.equal(new URL(request.url).searchParams.get("nonce"), request.nonce);
  assert.match(request.nonce!, /^[A-Za-z0-9_-]{43}$/);
  const plain = await createAuthorizationRequest(provider({ scope: "email" }), {
    redirectURI: "https://a/cb",
  });
  assert.equal(plain.nonce, undefined);
  assert.equal(new URL(plain.url).searchParams.has("nonce"), false);
});

Deno.test("a nonce in the configured authorization URL is replaced by the flow's", async () => {
  const request = await createAuthorizationRequest(
    provider({ authorizeURL: "https://idp.example/authorize?nonce=fixed" }),
    { redirectURI: "https://a/cb" },
  );
  assert.deepEqual(new URL(request.url).searchParams.getAll("nonce"), [request.nonce]);
});

Deno.test("authorizationParams may not set the nonce", () => {
  assert.throws(
    () => provider({ authorizationParams: { nonce: "fixed" } }),
    (error: unknown) => error instanceof TypeError && /may not set "nonce"/.test(error.message),
  );
});

// RFC 9207

Deno.test("requireIss refuses a response without iss, and accepts one with the issuer", () => {
  const params = new URLSearchParams({ state: "s", code: "c" });
  assert.throws(
    () =>
      validateAuthorizationResponse(params, {
        state: "s",
        issuer: "https://idp.example",
        requireIss: true,
      }),
    (error: unknown) => error instanceof AuthError && /no iss parameter/.test(error.description),
  );
  params.set("iss", "https://idp.example");
  assert.equal(
    validateAuthorizationResponse(params, {
      state: "s",
      issuer: "https://idp.example",
      requireIss: true,
    }),
    "c",
  );
});

Deno.test("requireIss also applies to an error response", () => {
  const params = new URLSearchParams({ state: "s", error: "access_denied" });
  assert.throws(
    () => validateAuthorizationResponse(params, { state: "s", requireIss: true }),
    (error: unknown) => error instanceof AuthError && error.code === "invalid_request",
  );
});

Deno.test("a repeated iss is refused even without an issuer to compare", () => {
  const params = new URLSearchParams("state=s&code=c&iss=a&iss=a");
  assert.throws(
    () => validateAuthorizationResponse(params, { state: "s" }),
    (error: unknown) => error instanceof AuthError && /repeated/.test(error.description),
  );
});

// Claims

Deno.test("profileClaims drops every protocol claim", () => {
  const claims: Record<string, unknown> = { sub: "1", name: "Ada" };
  for (const name of PROTOCOL_CLAIMS) claims[name] = "x";
  assert.deepEqual(profileClaims(claims), { sub: "1", name: "Ada" });
});

Deno.test("profileClaims takes user info over the ID token, but never its sub", () => {
  assert.deepEqual(
    profileClaims({ sub: "1", name: "Old", picture: "https://a/p.png" }, {
      sub: "2",
      name: "New",
      locale: "en",
    }),
    { sub: "1", name: "New", picture: "https://a/p.png", locale: "en" },
  );
});

Deno.test("profileClaims takes email and email_verified together from user info when it has an email", () => {
  assert.deepEqual(
    profileClaims(
      { sub: "1", email: "a@example.com", email_verified: true },
      { sub: "1", email: "b@example.com" },
    ),
    { sub: "1", email: "b@example.com" },
  );
  assert.deepEqual(
    profileClaims(
      { sub: "1", email: "a@example.com", email_verified: false },
      { sub: "1", email: "b@example.com", email_verified: true },
    ),
    { sub: "1", email: "b@example.com", email_verified: true },
  );
});

Deno.test("profileClaims keeps the ID token's email pair when user info has no email", () => {
  assert.deepEqual(
    profileClaims(
      { sub: "1", email: "a@example.com", email_verified: true },
      { sub: "1", email_verified: false, name: "Ada" },
    ),
    { sub: "1", email: "a@example.com", email_verified: true, name: "Ada" },
  );
});

Deno.test("profileClaims drops a __proto__ member", () => {
  const merged = profileClaims(JSON.parse('{"sub":"1","__proto__":{"admin":true}}'));
  assert.deepEqual(Object.keys(merged), ["sub"]);
  assert.equal(Object.getPrototypeOf(merged), Object.prototype);
  assert.equal(Object.assign({}, merged).admin, undefined);
});

// Discovery completes a provider

Deno.test("withMetadata fills what is missing and keeps what is configured", () => {
  const configured = provider({ accessToken: undefined, userInfo: undefined });
  const complete = withMetadata(configured, {
    authorization_endpoint: "https://found.example/authorize",
    token_endpoint: "https://found.example/token",
    userinfo_endpoint: "https://found.example/userinfo",
    jwks_uri: "https://found.example/jwks",
  });
  assert.equal(complete.authorizeURL, "https://idp.example/authorize");
  assert.equal(complete.accessToken, "https://found.example/token");
  assert.equal(complete.userInfo, "https://found.example/userinfo");
  assert.equal(complete.jwksURI, "https://found.example/jwks");
  assert.equal(withMetadata(configured, undefined), configured);
});

Deno.test("discoveredEndpoints leaves out a user-info endpoint the metadata lacks", () => {
  assert.deepEqual(
    discoveredEndpoints({
      authorization_endpoint: "https://found.example/authorize",
      token_endpoint: "https://found.example/token",
    }),
    { authorizeURL: "https://found.example/authorize", accessToken: "https://found.example/token" },
  );
});

// validateIdToken with an issuer hook

Deno.test("an issuer hook decides the expected iss from the verified claims", async () => {
  await using op = await startHostileOP();
  const keys = createJwks(`${op.origin}/jwks`, { fetch });
  const base = { clientId: op.clientId, nonce: "n-0", algorithms: ["RS256"], keys };
  const token = await op.mint("valid", { claims: { tid: "t1" } });
  const claims = await validateIdToken(token, {
    ...base,
    issuer: (verified) => verified.tid === "t1" ? op.issuer : undefined,
  });
  assert.equal(claims.tid, "t1");
  for (
    const issuer of [
      () => undefined,
      () => "https://another.example",
      () => {
        throw new Error("hook failed");
      },
    ]
  ) {
    await assertRefused(validateIdToken(token, { ...base, issuer }), {
      code: "server_error",
      description: /another issuer/,
    });
  }
});

// createAuth

Deno.test("createAuth refuses an openid provider without an issuer, naming the fix", () => {
  assert.throws(
    () =>
      createAuth({
        oauth: [{
          id: "corp",
          name: "Corp",
          authorizeURL: "https://id.corp.example/authorize",
          accessToken: "https://id.corp.example/token",
          userInfo: "https://id.corp.example/userinfo",
          scope: "openid email",
          responseType: "code",
          clientId: "id",
          clientSecret: "secret",
        }],
        secret: SECRET,
        logger: false,
      }),
    (error: unknown) =>
      error instanceof TypeError && /"corp" asks for the openid scope/.test(error.message) &&
      /issuer: "https:/.test(error.message),
  );
});

Deno.test("createAuth accepts the same provider without openid in its scope", () => {
  createAuth({
    oauth: [{
      id: "corp",
      name: "Corp",
      authorizeURL: "https://id.corp.example/authorize",
      accessToken: "https://id.corp.example/token",
      userInfo: "https://id.corp.example/userinfo",
      scope: "email",
      responseType: "code",
      clientId: "id",
      clientSecret: "secret",
    }],
    secret: SECRET,
    logger: false,
  });
});

Deno.test("each instance has its own discovery and JWKS caches", () => {
  const a = contextOf(createAuth({ oauth: [], secret: SECRET, logger: false }));
  const b = contextOf(createAuth({ oauth: [], secret: SECRET, logger: false }));
  assert.notEqual(a.oidc.discovery, b.oidc.discovery);
  assert.notEqual(a.oidc.jwks, b.oidc.jwks);
  assert.equal(
    a.oidc.jwks.get("https://idp.example/jwks"),
    a.oidc.jwks.get("https://idp.example/jwks"),
  );
});
