// The OAuth authorization-code flow driven through the handlers as
// functions: the mock provider over `mock.fetch`, the server API's signIn,
// client authentication at the token endpoint, and every built-in provider
// end to end against scripted endpoints with its documented response shapes.
import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { encodeBase64Url } from "../../src/jose/base64url.ts";
import {
  assertBadRequest,
  assertErrorRedirect,
  authorizeAt,
  Browser,
  type Endpoint,
  getSession,
  json,
  ORIGIN,
  pathOf,
  scriptedFetch,
  SECRET,
  SESSION_COOKIE,
  setCookies,
  setupMock,
  signInThrough,
  startSignIn,
} from "./_flow_helpers.ts";

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return encodeBase64Url(new Uint8Array(digest));
}

Deno.test("a completed flow redirects to redirectTo and the session holds the mock's user", async () => {
  const { mock, browser } = setupMock();
  const callback = await signInThrough(browser, mock, "?redirectTo=%2Fdashboard%3Ftab%3D1");
  assert.equal(callback.status, 302);
  assert.equal(callback.headers.get("Location"), "/dashboard?tab=1");
  const session = await getSession(browser);
  assert.equal(session.status, 200);
  const body = await session.json();
  assert.deepEqual(body.user, {
    sub: "mock-user-1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    emailVerified: true,
    image: "https://example.com/avatars/ada.png",
  });
  assert.ok(Date.parse(body.expires) > Date.now());
});

Deno.test("a completed flow without redirectTo lands on /", async () => {
  const { mock, browser } = setupMock();
  const callback = await signInThrough(browser, mock);
  assert.equal(callback.status, 302);
  assert.equal(callback.headers.get("Location"), "/");
  assert.ok(setCookies(callback).has(SESSION_COOKIE));
});

Deno.test("a completed flow lands on a same-origin Referer when redirectTo is absent", async () => {
  const { mock, browser } = setupMock();
  const start = await browser.get("/auth/signIn/mock", { Referer: `${ORIGIN}/pricing?plan=pro` });
  const callback = await authorizeAt(mock, new URL(start.headers.get("Location")!));
  const response = await browser.get(pathOf(callback));
  assert.equal(response.headers.get("Location"), `${ORIGIN}/pricing?plan=pro`);
});

Deno.test("the authorization URL carries the flow's parameters and an S256 challenge", async () => {
  const { mock, browser } = setupMock();
  const url = await startSignIn(browser, "mock");
  assert.equal(`${url.origin}${url.pathname}`, mock.provider.authorizeURL);
  const params = url.searchParams;
  assert.equal(params.get("response_type"), "code");
  assert.equal(params.get("client_id"), "mock-client-id");
  assert.equal(params.get("redirect_uri"), `${ORIGIN}/auth/callback/mock`);
  assert.equal(params.get("scope"), "openid profile email");
  assert.match(params.get("state")!, /^[A-Za-z0-9_-]{43}$/);
  assert.match(params.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(params.get("code_challenge_method"), "S256");
  for (const name of new Set(params.keys())) assert.equal(params.getAll(name).length, 1, name);
});

Deno.test("each sign-in draws a fresh state and code challenge", async () => {
  const { browser } = setupMock();
  const first = await startSignIn(browser, "mock");
  const second = await startSignIn(browser, "mock");
  assert.notEqual(first.searchParams.get("state"), second.searchParams.get("state"));
  assert.notEqual(
    first.searchParams.get("code_challenge"),
    second.searchParams.get("code_challenge"),
  );
});

Deno.test("the token request sends the verifier whose S256 hash is the authorization challenge", async () => {
  const { mock } = setupMock();
  const bodies: URLSearchParams[] = [];
  const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url === mock.provider.accessToken) {
      bodies.push(new URLSearchParams(await request.clone().text()));
    }
    return mock.fetch(request);
  }) as typeof fetch;
  const auth = createAuth({
    oauth: [mock.provider],
    secret: SECRET,
    logger: false,
    fetch: recording,
  });
  const browser = new Browser(auth.handlers.ALL);
  const authorization = await startSignIn(browser, "mock");
  const callback = await authorizeAt(mock, authorization);
  const response = await browser.get(pathOf(callback));
  assert.equal(response.status, 302);
  assert.equal(bodies.length, 1);
  const verifier = bodies[0].get("code_verifier")!;
  assert.match(verifier, /^[A-Za-z0-9_-]{43,128}$/);
  assert.equal(await s256(verifier), authorization.searchParams.get("code_challenge"));
  assert.equal(bodies[0].get("grant_type"), "authorization_code");
  assert.equal(bodies[0].get("code"), callback.searchParams.get("code"));
  assert.equal(bodies[0].get("redirect_uri"), `${ORIGIN}/auth/callback/mock`);
});

Deno.test("the mock records a token request with code_verifier and the same redirect_uri", async () => {
  const { mock, browser } = setupMock();
  await signInThrough(browser, mock);
  const token = mock.requests.filter((record) => record.endpoint === "token");
  assert.equal(token.length, 1);
  assert.equal(token[0].status, 200);
  assert.equal(token[0].params.code_verifier, "[redacted]");
  assert.equal(token[0].params.redirect_uri, `${ORIGIN}/auth/callback/mock`);
  const userinfo = mock.requests.filter((record) => record.endpoint === "userinfo");
  assert.equal(userinfo.length, 1);
  assert.equal(userinfo[0].status, 200);
});

Deno.test("sign-in with redirect=false answers 200 { url } and sets the flow cookies", async () => {
  const { mock, browser } = setupMock();
  const response = await browser.get("/auth/signIn/mock?redirect=false");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("Location"), null);
  assert.equal(response.headers.get("Cache-Control"), "no-store");
  const { url } = await response.json();
  const authorization = new URL(url);
  assert.equal(`${authorization.origin}${authorization.pathname}`, mock.provider.authorizeURL);
  assert.equal(setCookies(response).size, 4);
  const callback = await authorizeAt(mock, authorization);
  assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/");
});

Deno.test("flow cookies are HttpOnly, SameSite=Lax, Path=/ and live 10 minutes", async () => {
  const { browser } = setupMock();
  const response = await browser.get("/auth/signIn/mock");
  const lines = response.headers.getSetCookie();
  assert.equal(lines.length, 4);
  for (const line of lines) {
    assert.match(line, /; Path=\/;/);
    assert.match(line, /; Max-Age=600;/);
    assert.match(line, /; HttpOnly/);
    assert.match(line, /; SameSite=Lax/);
  }
});

Deno.test("api.signIn answers the same 302 and flow cookies as GET /signIn/:oauth", async () => {
  const { auth, browser } = setupMock();
  const viaRoute = await browser.get("/auth/signIn/mock?redirectTo=%2Fhome");
  const viaAPI = await auth.api.signIn("mock", {
    request: new Request(`${ORIGIN}/somewhere`),
    redirectTo: "/home",
  });
  assert.equal(viaAPI.status, viaRoute.status);
  const routeURL = new URL(viaRoute.headers.get("Location")!);
  const apiURL = new URL(viaAPI.headers.get("Location")!);
  assert.equal(apiURL.origin + apiURL.pathname, routeURL.origin + routeURL.pathname);
  assert.deepEqual(
    [...apiURL.searchParams.keys()].sort(),
    [...routeURL.searchParams.keys()].sort(),
  );
  for (const name of ["response_type", "client_id", "redirect_uri", "scope"]) {
    assert.equal(apiURL.searchParams.get(name), routeURL.searchParams.get(name), name);
  }
  const strip = (line: string) => line.replace(/^([^=]+)=[^;]*/, "$1").replace(/Expires=[^;]*/, "");
  assert.deepEqual(
    viaAPI.headers.getSetCookie().map(strip),
    viaRoute.headers.getSetCookie().map(strip),
  );
});

Deno.test("a flow started with api.signIn completes at the callback on its redirectTo", async () => {
  const { auth, mock } = setupMock();
  const started = await auth.api.signIn("mock", {
    request: new Request(`${ORIGIN}/login`),
    redirectTo: "/welcome",
  });
  const browser = new Browser(auth.handlers.ALL);
  browser.store(started);
  const callback = await authorizeAt(mock, new URL(started.headers.get("Location")!));
  const response = await browser.get(pathOf(callback));
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/welcome");
  assert.equal((await getSession(browser)).status, 200);
});

Deno.test("api.signIn with redirect: false answers 200 { url } with the flow cookies", async () => {
  const { auth, mock } = setupMock();
  const response = await auth.api.signIn("mock", {
    request: new Request(`${ORIGIN}/login`),
    redirect: false,
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("Location"), null);
  const { url } = await response.json();
  assert.ok(url.startsWith(`${mock.provider.authorizeURL}?`));
  assert.equal(setCookies(response).size, 4);
});

Deno.test("api.signIn for an unknown provider answers 400 invalid_request JSON", async () => {
  const { auth } = setupMock();
  const response = await auth.api.signIn("nope", { request: new Request(`${ORIGIN}/login`) });
  await assertBadRequest(response);
  assert.equal(response.headers.getSetCookie().length, 0);
});

Deno.test("GET /signIn for an unknown provider answers 400 invalid_request JSON", async () => {
  const { browser } = setupMock();
  const response = await browser.get("/auth/signIn/nope");
  await assertBadRequest(response);
  assert.equal(response.headers.getSetCookie().length, 0);
});

Deno.test("the token request authenticates the client with HTTP Basic by default", async () => {
  const { mock, browser } = setupMock();
  const response = await signInThrough(browser, mock);
  assert.equal(response.headers.get("Location"), "/");
  const token = mock.requests.find((record) => record.endpoint === "token")!;
  assert.equal(token.clientAuthMethod, "client_secret_basic");
  assert.equal(token.status, 200);
  assert.equal(token.params.client_secret, undefined);
});

Deno.test("clientAuthMethod client_secret_post sends the credentials in the body only", async () => {
  const { mock, browser } = setupMock({ mock: { clientAuthMethod: "client_secret_post" } });
  assert.equal(mock.provider.clientAuthMethod, "client_secret_post");
  const response = await signInThrough(browser, mock);
  assert.equal(response.headers.get("Location"), "/");
  const token = mock.requests.find((record) => record.endpoint === "token")!;
  assert.equal(token.clientAuthMethod, "client_secret_post");
  assert.equal(token.status, 200);
  assert.equal(token.params.client_id, "mock-client-id");
});

Deno.test("a client authentication the provider does not accept fails with invalid_client", async () => {
  const mockPost = setupMock({ mock: { clientAuthMethod: "client_secret_post" } }).mock;
  const { browser } = setupMock({
    auth: {
      oauth: [{ ...mockPost.provider, clientAuthMethod: "client_secret_basic" }],
      fetch: mockPost.fetch,
    },
  });
  const response = await signInThrough(browser, mockPost, "?redirectTo=%2Fhome");
  assertErrorRedirect(response, "/home", "invalid_client");
});

Deno.test("Basic credentials form-encode ':', '%', '+' and space in the client id and secret", async () => {
  const clientId = "id:with%20 space+plus";
  const clientSecret = "se:cr%et value";
  const { mock } = setupMock({ mock: { clientId, clientSecret } });
  let header = "";
  const recording = ((input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url === mock.provider.accessToken) {
      header = request.headers.get("Authorization") ?? "";
    }
    return mock.fetch(request);
  }) as typeof fetch;
  const auth = createAuth({
    oauth: [mock.provider],
    secret: SECRET,
    logger: false,
    fetch: recording,
  });
  const browser = new Browser(auth.handlers.ALL);
  const response = await signInThrough(browser, mock);
  assert.equal(response.headers.get("Location"), "/");
  assert.equal(
    header,
    `Basic ${btoa("id%3Awith%2520+space%2Bplus:se%3Acr%25et+value")}`,
  );
  assert.equal(mock.requests.find((record) => record.endpoint === "token")!.status, 200);
});

// Each built-in provider, end to end: documented token and user-info shapes.

interface BuiltInCase {
  id: string;
  token: string;
  tokenBody: Record<string, unknown>;
  userInfo: string;
  userBody: unknown;
  extra?: Record<string, Endpoint>;
  /** How the provider documents client authentication (default: HTTP Basic). */
  clientAuth?: "basic" | "post";
  expected: Record<string, string | boolean>;
}

const BUILT_INS: BuiltInCase[] = [
  {
    id: "github",
    token: "https://github.com/login/oauth/access_token",
    clientAuth: "post",
    tokenBody: {
      access_token: "gho_16C7e42F292c6912E7710c838347Ae178B4a",
      scope: "read:user,user:email",
      token_type: "bearer",
    },
    userInfo: "https://api.github.com/user",
    userBody: {
      login: "octocat",
      id: 1,
      node_id: "MDQ6VXNlcjE=",
      avatar_url: "https://github.com/images/error/octocat_happy.gif",
      type: "User",
      name: "monalisa octocat",
      company: "GitHub",
      email: null,
    },
    extra: {
      "https://api.github.com/user/emails": (request) =>
        request.headers.get("Authorization") === "Bearer gho_16C7e42F292c6912E7710c838347Ae178B4a"
          ? json([
            { email: "old@example.com", verified: true, primary: false, visibility: null },
            { email: "octocat@github.com", verified: true, primary: true, visibility: "private" },
          ])
          : json({ message: "Requires authentication" }, 401),
    },
    expected: {
      sub: "1",
      name: "monalisa octocat",
      email: "octocat@github.com",
      emailVerified: true,
      image: "https://github.com/images/error/octocat_happy.gif",
    },
  },
  {
    id: "bitbucket",
    token: "https://bitbucket.org/site/oauth2/access_token",
    tokenBody: {
      access_token: "bb-access-token",
      scopes: "account email",
      expires_in: 7200,
      refresh_token: "bb-refresh",
      token_type: "bearer",
      state: "authorization_code",
    },
    userInfo: "https://api.bitbucket.org/2.0/user",
    userBody: {
      type: "user",
      uuid: "{c4e1d7a2-5f3b-4d2a-9c1e-0a1b2c3d4e5f}",
      display_name: "Ada Lovelace",
      nickname: "ada",
      account_id: "557058:c4e1d7a2",
      links: {
        avatar: { href: "https://secure.gravatar.com/avatar/ada.png" },
        html: { href: "https://bitbucket.org/%7Bc4e1d7a2%7D/" },
      },
    },
    extra: {
      "https://api.bitbucket.org/2.0/user/emails": () =>
        json({
          pagelen: 10,
          values: [
            { is_primary: false, is_confirmed: true, type: "email", email: "old@example.com" },
            { is_primary: true, is_confirmed: true, type: "email", email: "ada@example.com" },
          ],
          page: 1,
          size: 2,
        }),
    },
    expected: {
      sub: "{c4e1d7a2-5f3b-4d2a-9c1e-0a1b2c3d4e5f}",
      name: "Ada Lovelace",
      email: "ada@example.com",
      emailVerified: true,
      image: "https://secure.gravatar.com/avatar/ada.png",
    },
  },
  {
    id: "figma",
    token: "https://api.figma.com/v1/oauth/token",
    tokenBody: {
      user_id_string: "1234",
      access_token: "figu_access",
      token_type: "bearer",
      expires_in: 7776000,
      refresh_token: "figur_refresh",
    },
    userInfo: "https://api.figma.com/v1/me",
    userBody: {
      id: "1234",
      email: "ada@example.com",
      handle: "Ada",
      img_url: "https://s3-alpha.figma.com/profile/1234",
    },
    expected: {
      sub: "1234",
      name: "Ada",
      email: "ada@example.com",
      image: "https://s3-alpha.figma.com/profile/1234",
    },
  },
  {
    id: "discord",
    token: "https://discord.com/api/oauth2/token",
    tokenBody: {
      access_token: "6qrZcUqja7812RVdnEKjpzOL4CvHBFG",
      token_type: "Bearer",
      expires_in: 604800,
      refresh_token: "D43f5y0ahjqew82jZ4NViEr2YafMKhue",
      scope: "identify email",
    },
    userInfo: "https://discord.com/api/users/@me",
    userBody: {
      id: "80351110224678912",
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: "8342729096ea3675442027381ff50dfe",
      verified: true,
      email: "nelly@discord.com",
      flags: 64,
      banner: null,
      mfa_enabled: true,
      locale: "en-US",
    },
    expected: {
      sub: "80351110224678912",
      name: "Nelly",
      email: "nelly@discord.com",
      emailVerified: true,
      image:
        "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    },
  },
  {
    id: "gitlab",
    token: "https://gitlab.com/oauth/token",
    tokenBody: {
      access_token: "de6780bc506a0446309bd9362820ba8aed28aa506c71eedbe1c5c4f9dd350e54",
      token_type: "Bearer",
      expires_in: 7200,
      refresh_token: "8257e65c97202ed1726cf9571600918f3bffb2544b26e00a61df9897668c33a1",
      scope: "read_user",
      created_at: 1607635748,
    },
    userInfo: "https://gitlab.com/api/v4/user",
    userBody: {
      id: 1,
      username: "john_smith",
      name: "John Smith",
      state: "active",
      avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
      web_url: "https://gitlab.com/john_smith",
      email: "john@example.com",
      confirmed_at: "2012-05-23T09:05:22Z",
    },
    expected: {
      sub: "1",
      name: "John Smith",
      email: "john@example.com",
      emailVerified: true,
      image: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
    },
  },
  {
    id: "spotify",
    token: "https://accounts.spotify.com/api/token",
    tokenBody: {
      access_token: "NgCXRKc-spotify-access",
      token_type: "Bearer",
      scope: "user-read-email",
      expires_in: 3600,
      refresh_token: "NgAagA-spotify-refresh",
    },
    userInfo: "https://api.spotify.com/v1/me",
    userBody: {
      country: "SE",
      display_name: "JM Wizzler",
      email: "email@example.com",
      id: "wizzler",
      images: [{
        height: 300,
        url: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228",
        width: 300,
      }],
      product: "premium",
      type: "user",
      uri: "spotify:user:wizzler",
    },
    expected: {
      sub: "wizzler",
      name: "JM Wizzler",
      // Spotify documents its email as unverified: never mapped.
      image: "https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228",
    },
  },
  {
    id: "x",
    token: "https://api.x.com/2/oauth2/token",
    tokenBody: {
      token_type: "bearer",
      expires_in: 7200,
      access_token: "VGNibzFWSWREZm01bjN1N3dicWlNUG1oa2xRRVNNdmVHelJGY2hPWGxNd2dxOjE2MjIxNjA4MjU4",
      scope: "users.read tweet.read",
    },
    userInfo: "https://api.x.com/2/users/me?user.fields=profile_image_url",
    userBody: {
      data: {
        id: "2244994945",
        name: "X Dev",
        username: "TwitterDev",
        profile_image_url:
          "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg",
      },
    },
    expected: {
      sub: "2244994945",
      name: "X Dev",
      image: "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg",
    },
  },
];

/** A token endpoint that answers only a correct code exchange for `id`. */
function tokenEndpoint(item: BuiltInCase): Endpoint {
  const clientId = `${item.id}-client-id`;
  const clientSecret = `${item.id}-client-secret`;
  return async (request) => {
    const form = new URLSearchParams(await request.text());
    const authenticated = item.clientAuth === "post"
      ? request.headers.get("Authorization") === null && form.get("client_id") === clientId &&
        form.get("client_secret") === clientSecret
      : request.headers.get("Authorization") === `Basic ${btoa(`${clientId}:${clientSecret}`)}`;
    const ok = request.method === "POST" &&
      request.headers.get("Content-Type") === "application/x-www-form-urlencoded" &&
      request.headers.get("Accept") === "application/json" &&
      authenticated &&
      form.get("grant_type") === "authorization_code" && form.get("code") === "good-code" &&
      form.get("redirect_uri") === `${ORIGIN}/auth/callback/${item.id}` &&
      /^[A-Za-z0-9_-]{43,128}$/.test(form.get("code_verifier") ?? "");
    return ok ? json(item.tokenBody) : json({ error: "invalid_request" }, 400);
  };
}

function userInfoEndpoint(item: BuiltInCase): Endpoint {
  return (request) =>
    request.headers.get("Authorization") === `Bearer ${item.tokenBody.access_token}`
      ? json(item.userBody)
      : json({ message: "Bad credentials" }, 401);
}

for (const item of BUILT_INS) {
  Deno.test(`built-in ${item.id} signs in end to end with its documented responses`, async () => {
    const scripted = scriptedFetch({
      [item.token]: tokenEndpoint(item),
      [item.userInfo]: userInfoEndpoint(item),
      ...item.extra,
    });
    const upper = item.id.toUpperCase();
    const auth = createAuth({
      oauth: [item.id as "github"],
      secret: SECRET,
      logger: false,
      fetch: scripted.fetch,
      env: {
        [`${upper}_CLIENT_ID`]: `${item.id}-client-id`,
        [`${upper}_CLIENT_SECRET`]: `${item.id}-client-secret`,
      },
    });
    const browser = new Browser(auth.handlers.ALL);
    const authorization = await startSignIn(browser, item.id, "?redirectTo=%2Fme");
    const query = new URLSearchParams({
      code: "good-code",
      state: authorization.searchParams.get("state")!,
    });
    const callback = await browser.get(`/auth/callback/${item.id}?${query}`);
    assert.equal(callback.headers.get("Location"), "/me");
    const session = await getSession(browser);
    assert.equal(session.status, 200);
    assert.deepEqual((await session.json()).user, item.expected);
  });
}

Deno.test("built-in github keeps a public profile email only when /user/emails lists it verified", async () => {
  const github = BUILT_INS[0];
  let emailsCalled = false;
  const scripted = scriptedFetch({
    [github.token]: tokenEndpoint(github),
    [github.userInfo]: () =>
      json({ ...(github.userBody as object), email: "mona@example.com", name: null }),
    "https://api.github.com/user/emails": () => {
      emailsCalled = true;
      return json([{ email: "mona@example.com", verified: true, primary: false }]);
    },
  });
  const auth = createAuth({
    oauth: ["github"],
    secret: SECRET,
    logger: false,
    fetch: scripted.fetch,
    env: { GITHUB_CLIENT_ID: "github-client-id", GITHUB_CLIENT_SECRET: "github-client-secret" },
  });
  const browser = new Browser(auth.handlers.ALL);
  const authorization = await startSignIn(browser, "github");
  const query = new URLSearchParams({
    code: "good-code",
    state: authorization.searchParams.get("state")!,
  });
  await browser.get(`/auth/callback/github?${query}`);
  const { user } = await (await getSession(browser)).json();
  assert.deepEqual(user, {
    sub: "1",
    name: "octocat",
    email: "mona@example.com",
    emailVerified: true,
    image: "https://github.com/images/error/octocat_happy.gif",
  });
  assert.equal(emailsCalled, true);
});

Deno.test("sign-in with redirect=true answers the 302 like the default", async () => {
  const { browser } = setupMock();
  const response = await browser.get("/auth/signIn/mock?redirect=true");
  assert.equal(response.status, 302);
  assert.equal(setCookies(response).size, 4);
});

Deno.test("sign-in with a redirect value other than true or false answers 400 without cookies", async () => {
  const { browser } = setupMock();
  const response = await browser.get("/auth/signIn/mock?redirect=yes");
  await assertBadRequest(response);
  assert.equal(response.headers.getSetCookie().length, 0);
});
