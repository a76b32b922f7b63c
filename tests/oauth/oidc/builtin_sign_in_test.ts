// The built-in OpenID Connect providers whose rules differ, through the
// handler with scripted endpoints and ID tokens signed here: Apple (form_post,
// no user info, email_verified as a string), Microsoft (one issuer per
// tenant, computed from the verified tid), LINE (HS256 keyed with the channel
// secret) and LinkedIn (no nonce).
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, type OAuthProviderEntry } from "../../../mod.ts";
import { MICROSOFT_CONSUMERS_TENANT } from "../../../src/oauth/providers/microsoft.ts";
import {
  assertErrorRedirect,
  Browser,
  type Endpoint,
  getSession,
  json,
  scriptedFetch,
  SECRET,
  startSignIn,
} from "../_flow_helpers.ts";
import { generateKey, type ProviderKey, signJwt } from "./_hostile_op.ts";

const RSA_KEY = generateKey("RS256", "key-1");
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const OTHER_TENANT = "11111111-2222-3333-4444-555555555555";
const LINE_SECRET = "line-channel-secret-0123456789abcdef";

/** Signs claims as an ID token: RS256 with the test key, or HS256 with `hmacSecret`. */
async function idToken(
  claims: Record<string, unknown>,
  options: { hmacSecret?: string; key?: ProviderKey } = {},
): Promise<string> {
  const nowSec = Math.floor(Date.now() / 1000);
  const full = { iat: nowSec, exp: nowSec + 600, ...claims };
  if (options.hmacSecret !== undefined) {
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(options.hmacSecret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return await signJwt({ alg: "HS256", typ: "JWT" }, full, key, { name: "HMAC" });
  }
  const key = options.key ?? await RSA_KEY;
  return await signJwt({ alg: "RS256", typ: "JWT", kid: key.kid }, full, key.privateKey, {
    name: "RSASSA-PKCS1-v1_5",
  });
}

async function jwks(): Promise<Response> {
  return json({ keys: [(await RSA_KEY).publicJwk] });
}

interface Flow {
  browser: Browser;
  auth: ReturnType<typeof createAuth>;
  calls: Request[];
  /** The nonce of the last sign-in started (the token endpoints sign it in). */
  nonce: () => string;
}

/**
 * An instance with one built-in provider whose token endpoint answers
 * `token(nonce)`; the other routes are scripted as given.
 */
function setup(
  entry: OAuthProviderEntry,
  routes: {
    tokenURL: string;
    token: (nonce: string) => Promise<Record<string, unknown>>;
    extra?: Record<string, Endpoint>;
  },
): Flow {
  let nonce = "";
  const scripted = scriptedFetch({
    [routes.tokenURL]: async () => json(await routes.token(nonce)),
    ...routes.extra,
  });
  const auth = createAuth({
    oauth: [entry],
    secret: SECRET,
    logger: false,
    env: {},
    fetch: scripted.fetch,
  } as AuthConfig);
  const browser = new Browser(auth.handlers.ALL);
  const originalGet = browser.get.bind(browser);
  browser.get = async (path, headers) => {
    const response = await originalGet(path, headers);
    const location = response.headers.get("Location");
    if (location !== null && location.startsWith("https://")) {
      nonce = new URL(location).searchParams.get("nonce") ?? "";
    }
    return response;
  };
  return { browser, auth, calls: scripted.calls, nonce: () => nonce };
}

async function sessionUser(browser: Browser): Promise<unknown> {
  return (await (await getSession(browser)).json())?.user;
}

/** Starts a sign-in and calls the GET callback with a code (and `extra` parameters). */
async function callback(
  flow: Flow,
  id: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  const authorization = await startSignIn(flow.browser, id, "?redirectTo=%2Fhome");
  const query = new URLSearchParams({
    code: "the-code",
    state: authorization.searchParams.get("state")!,
    ...extra,
  });
  return await flow.browser.get(`/auth/callback/${id}?${query}`);
}

// Apple

const APPLE = {
  id: "apple",
  clientId: "com.example.web",
  clientSecret: "apple-client-secret-made-elsewhere",
} as OAuthProviderEntry;

function apple(claims: (nonce: string) => Record<string, unknown>): Flow {
  return setup(APPLE, {
    tokenURL: "https://appleid.apple.com/auth/token",
    token: async (nonce) => ({
      access_token: "a",
      token_type: "Bearer",
      id_token: await idToken(claims(nonce)),
    }),
    extra: { "https://appleid.apple.com/auth/keys": jwks },
  });
}

const appleClaims = (nonce: string) => ({
  iss: "https://appleid.apple.com",
  aud: "com.example.web",
  sub: "001234.abcdef.1234",
  nonce,
  email: "x1@privaterelay.appleid.com",
  email_verified: "true",
});

async function applePost(flow: Flow, fields: Record<string, string>): Promise<Response> {
  const response = await flow.auth.handlers.ALL(
    new Request("http://localhost:8000/auth/callback/apple", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://appleid.apple.com",
        Cookie: flow.browser.cookieHeader(),
      },
      body: new URLSearchParams(fields),
    }),
  );
  flow.browser.store(response);
  return response;
}

Deno.test("apple: the form_post answer signs in from the ID token alone, no user-info call", async () => {
  const flow = apple(appleClaims);
  const authorization = await startSignIn(flow.browser, "apple", "?redirectTo=%2Fhome");
  assert.equal(authorization.searchParams.get("response_mode"), "form_post");
  assert.equal(authorization.searchParams.get("scope"), "openid name email");
  const response = await applePost(flow, {
    code: "c",
    state: authorization.searchParams.get("state")!,
  });
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(flow.browser), {
    sub: "001234.abcdef.1234",
    email: "x1@privaterelay.appleid.com",
    emailVerified: true,
  });
  assert.deepEqual(flow.calls.map((call) => new URL(call.url).pathname), [
    "/auth/token",
    "/auth/keys",
  ]);
  const body = new URLSearchParams(await flow.calls[0].text());
  assert.equal(body.get("client_secret"), "apple-client-secret-made-elsewhere");
});

Deno.test("apple: the name posted on the first sign-in is mapped; the posted email is not", async () => {
  const flow = apple(appleClaims);
  const authorization = await startSignIn(flow.browser, "apple", "?redirectTo=%2Fhome");
  const response = await applePost(flow, {
    code: "c",
    state: authorization.searchParams.get("state")!,
    user: JSON.stringify({
      name: { firstName: "Ada", lastName: "Lovelace" },
      email: "attacker@example.com",
    }),
  });
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(flow.browser), {
    sub: "001234.abcdef.1234",
    name: "Ada Lovelace",
    email: "x1@privaterelay.appleid.com",
    emailVerified: true,
  });
});

Deno.test("apple: a posted user that is no JSON object, too large or unusable adds no name and fails nothing", async () => {
  const bad = [
    "not json",
    "[1,2]",
    JSON.stringify({ name: "Ada" }),
    JSON.stringify({ name: { firstName: "\u0000", lastName: "" } }),
    JSON.stringify({ name: { firstName: "A".repeat(5000) } }),
  ];
  for (const user of bad) {
    const flow = apple(appleClaims);
    const authorization = await startSignIn(flow.browser, "apple", "?redirectTo=%2Fhome");
    const response = await applePost(flow, {
      code: "c",
      state: authorization.searchParams.get("state")!,
      user,
    });
    assert.equal(response.headers.get("Location"), "/home", user.slice(0, 40));
    assert.deepEqual(await sessionUser(flow.browser), {
      sub: "001234.abcdef.1234",
      email: "x1@privaterelay.appleid.com",
      emailVerified: true,
    }, user.slice(0, 40));
  }
});

Deno.test("apple: a user parameter in a GET callback's query is never read", async () => {
  const flow = apple(appleClaims);
  const response = await callback(flow, "apple", {
    user: JSON.stringify({ name: { firstName: "Mallory" } }),
  });
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(flow.browser), {
    sub: "001234.abcdef.1234",
    email: "x1@privaterelay.appleid.com",
    emailVerified: true,
  });
});

Deno.test("apple: an email Apple marks unverified (the string false) is left out", async () => {
  const flow = apple((nonce) => ({ ...appleClaims(nonce), email_verified: "false" }));
  const authorization = await startSignIn(flow.browser, "apple", "?redirectTo=%2Fhome");
  await applePost(flow, { code: "c", state: authorization.searchParams.get("state")! });
  assert.deepEqual(await sessionUser(flow.browser), { sub: "001234.abcdef.1234" });
});

Deno.test("apple: an ID token from another issuer lands on the error redirect", async () => {
  const flow = apple((nonce) => ({ ...appleClaims(nonce), iss: "https://evil.example" }));
  const authorization = await startSignIn(flow.browser, "apple", "?redirectTo=%2Fhome");
  const response = await applePost(flow, {
    code: "c",
    state: authorization.searchParams.get("state")!,
  });
  assertErrorRedirect(response, "/home", "server_error");
});

// Microsoft

function microsoft(
  claims: (nonce: string) => Record<string, unknown>,
  tenant = "common",
): Flow {
  return setup({ id: "microsoft", clientId: "ms-app", clientSecret: "ms-secret", tenant }, {
    tokenURL: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/token`,
    token: async (nonce) => ({
      access_token: "a",
      token_type: "Bearer",
      id_token: await idToken(claims(nonce)),
    }),
    extra: { [`https://login.microsoftonline.com/${tenant}/discovery/v2.0/keys`]: jwks },
  });
}

const msClaims = (tid: string) => (nonce: string) => ({
  iss: `https://login.microsoftonline.com/${tid}/v2.0`,
  tid,
  aud: "ms-app",
  sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
  nonce,
  name: "Megan Bowen",
});

Deno.test("microsoft common: the tenant's own issuer, computed from the verified tid, signs in", async () => {
  const flow = microsoft(msClaims(TENANT));
  const response = await callback(flow, "microsoft");
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(flow.browser), {
    sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    name: "Megan Bowen",
  });
});

Deno.test("microsoft common: an iss that is not the issuer of the token's tid is refused", async () => {
  const flow = microsoft((nonce) => ({ ...msClaims(TENANT)(nonce), tid: OTHER_TENANT }));
  assertErrorRedirect(await callback(flow, "microsoft"), "/home", "server_error");
});

Deno.test("microsoft with a tenant id: a token of another tenant is refused", async () => {
  const flow = microsoft(msClaims(OTHER_TENANT), TENANT);
  assertErrorRedirect(await callback(flow, "microsoft"), "/home", "server_error");
});

Deno.test("microsoft consumers: a work tenant's token is refused", async () => {
  const flow = microsoft(msClaims(TENANT), "consumers");
  assertErrorRedirect(await callback(flow, "microsoft"), "/home", "server_error");
  const personal = microsoft(msClaims(MICROSOFT_CONSUMERS_TENANT), "consumers");
  assert.equal((await callback(personal, "microsoft")).headers.get("Location"), "/home");
});

Deno.test("microsoft: an iss parameter naming the token's tenant issuer is accepted", async () => {
  const flow = microsoft(msClaims(TENANT));
  const iss = `https://login.microsoftonline.com/${TENANT}/v2.0`;
  assert.equal((await callback(flow, "microsoft", { iss })).headers.get("Location"), "/home");
});

Deno.test("microsoft: an iss parameter naming another issuer than the token's is refused", async () => {
  for (
    const iss of [
      `https://login.microsoftonline.com/${OTHER_TENANT}/v2.0`,
      "https://login.microsoftonline.com/common/v2.0",
    ]
  ) {
    const flow = microsoft(msClaims(TENANT));
    assertErrorRedirect(await callback(flow, "microsoft", { iss }), "/home", "invalid_request");
  }
});

// LINE

function line(sign: (nonce: string) => Promise<string>): Flow {
  return setup({ id: "line", clientId: "1234567890", clientSecret: LINE_SECRET }, {
    tokenURL: "https://api.line.me/oauth2/v2.1/token",
    token: async (nonce) => ({
      access_token: "a",
      token_type: "Bearer",
      id_token: await sign(nonce),
    }),
    extra: {
      "https://api.line.me/oauth2/v2.1/userinfo": () =>
        json({ sub: "U1234", name: "Taro Line", picture: "https://profile.line-scdn.net/abc" }),
      "https://api.line.me/oauth2/v2.1/certs": jwks,
    },
  });
}

const lineClaims = (nonce: string) => ({
  iss: "https://access.line.me",
  aud: "1234567890",
  sub: "U1234",
  nonce,
  email: "taro@example.com",
});

Deno.test("line: an HS256 ID token keyed with the channel secret signs in, merged with user info", async () => {
  const flow = line((nonce) => idToken(lineClaims(nonce), { hmacSecret: LINE_SECRET }));
  assert.equal((await callback(flow, "line")).headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(flow.browser), {
    sub: "U1234",
    name: "Taro Line",
    email: "taro@example.com",
    image: "https://profile.line-scdn.net/abc",
  });
});

Deno.test("line: an HS256 ID token keyed with another secret is refused", async () => {
  const flow = line((nonce) =>
    idToken(lineClaims(nonce), { hmacSecret: "another-secret-0123456789abcdefghij" })
  );
  assertErrorRedirect(await callback(flow, "line"), "/home", "server_error");
});

Deno.test("line: an RS256 token is refused: only HS256 is listed", async () => {
  const flow = line((nonce) => idToken(lineClaims(nonce)));
  assertErrorRedirect(await callback(flow, "line"), "/home", "server_error");
});

// LinkedIn

function linkedin(claims: (nonce: string) => Record<string, unknown>): Flow {
  return setup({ id: "linkedin", clientId: "li-app", clientSecret: "li-secret" }, {
    tokenURL: "https://www.linkedin.com/oauth/v2/accessToken",
    token: async (nonce) => ({
      access_token: "a",
      token_type: "Bearer",
      id_token: await idToken(claims(nonce)),
    }),
    extra: {
      "https://www.linkedin.com/oauth/openid/jwks": jwks,
      "https://api.linkedin.com/v2/userinfo": () =>
        json({ sub: "782bbtaQ", name: "John Doe", email: "doe@example.com", email_verified: true }),
    },
  });
}

const linkedinClaims = {
  iss: "https://www.linkedin.com/oauth",
  aud: "li-app",
  sub: "782bbtaQ",
};

Deno.test("linkedin: no nonce is sent and a token without one signs in", async () => {
  const flow = linkedin(() => linkedinClaims);
  const authorization = await startSignIn(flow.browser, "linkedin");
  assert.equal(authorization.searchParams.has("nonce"), false);
  assert.equal(authorization.searchParams.has("code_challenge"), false);
  assert.equal((await callback(flow, "linkedin")).headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(flow.browser), {
    sub: "782bbtaQ",
    name: "John Doe",
    email: "doe@example.com",
    emailVerified: true,
  });
});

Deno.test("linkedin: a token carrying a nonce although none was sent is refused", async () => {
  const flow = linkedin(() => ({ ...linkedinClaims, nonce: "injected" }));
  assertErrorRedirect(await callback(flow, "linkedin"), "/home", "invalid_request");
});
