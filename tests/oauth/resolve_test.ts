// OAuth provider configuration through createAuth: built-in ids and their
// env credentials, overrides, custom provider validation, and the
// authorization URL each provider produces.
import assert from "node:assert/strict";
import {
  type AuthConfig,
  createAuth,
  type OAuthProviderCredentials,
  type OAuthProviderEntry,
} from "../../mod.ts";
import {
  Browser,
  FAKE,
  json,
  ORIGIN,
  scriptedFetch,
  SECRET,
  startSignIn,
} from "./_flow_helpers.ts";

function make(oauth: unknown[], extra: Partial<AuthConfig> = {}) {
  return createAuth({
    oauth: oauth as OAuthProviderEntry[],
    secret: SECRET,
    logger: false,
    env: {},
    ...extra,
  });
}

function browserFor(oauth: unknown[], extra: Partial<AuthConfig> = {}): Browser {
  return new Browser(make(oauth, extra).handlers.ALL);
}

/**
 * The client id of the authorization URL and the `client_id:client_secret` the token request of
 * a github flow carries (GitHub takes them as form parameters).
 */
async function githubCredentials(
  env: Record<string, string>,
  entry: unknown = "github",
): Promise<{ clientId: string; sent: string }> {
  let sent = "";
  const scripted = scriptedFetch({
    "https://github.com/login/oauth/access_token": async (request) => {
      const form = new URLSearchParams(await request.text());
      sent = `${form.get("client_id")}:${form.get("client_secret")}`;
      return json({ error: "invalid_grant" }, 400);
    },
  });
  const browser = browserFor([entry], { env, fetch: scripted.fetch });
  const url = await startSignIn(browser, "github");
  const query = new URLSearchParams({ code: "c", state: url.searchParams.get("state")! });
  await browser.get(`/auth/callback/github?${query}`);
  return { clientId: url.searchParams.get("client_id")!, sent };
}

// Built-in ids and env credentials

Deno.test("a built-in id reads GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET from env", async () => {
  const seen = await githubCredentials({
    GITHUB_CLIENT_ID: "gh-id",
    GITHUB_CLIENT_SECRET: "gh-secret",
  });
  assert.equal(seen.clientId, "gh-id");
  assert.equal(seen.sent, "gh-id:gh-secret");
});

Deno.test("a built-in id reads AUTH_GITHUB_CLIENT_ID and AUTH_GITHUB_CLIENT_SECRET", async () => {
  const seen = await githubCredentials({
    AUTH_GITHUB_CLIENT_ID: "auth-id",
    AUTH_GITHUB_CLIENT_SECRET: "auth-secret",
  });
  assert.equal(seen.clientId, "auth-id");
  assert.equal(seen.sent, "auth-id:auth-secret");
});

Deno.test("SERVICE_AUTH_ credentials win over AUTH_ and bare names", async () => {
  const seen = await githubCredentials({
    GITHUB_CLIENT_ID: "bare-id",
    AUTH_GITHUB_CLIENT_ID: "auth-id",
    SERVICE_AUTH_GITHUB_CLIENT_ID: "service-auth-id",
    GITHUB_CLIENT_SECRET: "bare-secret",
    SERVICE_GITHUB_CLIENT_SECRET: "service-secret",
  });
  assert.equal(seen.clientId, "service-auth-id");
  assert.equal(seen.sent, "service-auth-id:service-secret");
});

Deno.test("an empty env credential falls through to the next name", async () => {
  const seen = await githubCredentials({
    AUTH_GITHUB_CLIENT_ID: "",
    GITHUB_CLIENT_ID: "bare-id",
    GITHUB_CLIENT_SECRET: "bare-secret",
  });
  assert.equal(seen.clientId, "bare-id");
});

Deno.test("credentials in the entry win over env", async () => {
  const seen = await githubCredentials(
    { GITHUB_CLIENT_ID: "env-id", GITHUB_CLIENT_SECRET: "env-secret" },
    { id: "github", clientId: "entry-id", clientSecret: "entry-secret" },
  );
  assert.equal(seen.clientId, "entry-id");
  assert.equal(seen.sent, "entry-id:entry-secret");
});

Deno.test("createAuth throws naming GITHUB_CLIENT_ID when it is missing", () => {
  assert.throws(
    () => make(["github"], { env: { GITHUB_CLIENT_SECRET: "s" } }),
    (error: unknown) =>
      error instanceof TypeError && /GITHUB_CLIENT_ID/.test(error.message) &&
      /AUTH_GITHUB_CLIENT_ID/.test(error.message),
  );
});

Deno.test("createAuth throws naming GITHUB_CLIENT_SECRET when only the id is set", () => {
  assert.throws(
    () => make(["github"], { env: { GITHUB_CLIENT_ID: "id" } }),
    (error: unknown) => error instanceof TypeError && /GITHUB_CLIENT_SECRET/.test(error.message),
  );
});

Deno.test("an empty GITHUB_CLIENT_ID counts as missing", () => {
  assert.throws(
    () => make(["github"], { env: { GITHUB_CLIENT_ID: "", GITHUB_CLIENT_SECRET: "s" } }),
    /GITHUB_CLIENT_ID/,
  );
});

Deno.test("createAuth names the variable of the built-in that lacks it", () => {
  assert.throws(
    () => make(["github", "x"], { env: { GITHUB_CLIENT_ID: "i", GITHUB_CLIENT_SECRET: "s" } }),
    /X_CLIENT_ID/,
  );
});

Deno.test("{ id: 'github', scope } overrides the scope and keeps GitHub's endpoints", async () => {
  const browser = browserFor([{ id: "github", scope: "read:user" }], {
    env: { GITHUB_CLIENT_ID: "i", GITHUB_CLIENT_SECRET: "s" },
  });
  const url = await startSignIn(browser, "github");
  assert.equal(url.searchParams.get("scope"), "read:user");
  assert.equal(`${url.origin}${url.pathname}`, "https://github.com/login/oauth/authorize");
});

Deno.test("{ id: 'gitlab' } with its three URLs replaced targets a self-managed instance", async () => {
  const browser = browserFor([{
    id: "gitlab",
    authorizeURL: "https://git.example.com/oauth/authorize",
    accessToken: "https://git.example.com/oauth/token",
    userInfo: "https://git.example.com/api/v4/user",
  }], { env: { GITLAB_CLIENT_ID: "i", GITLAB_CLIENT_SECRET: "s" } });
  const url = await startSignIn(browser, "gitlab");
  assert.equal(`${url.origin}${url.pathname}`, "https://git.example.com/oauth/authorize");
  assert.equal(url.searchParams.get("scope"), "read_user");
});

// Custom provider validation

function invalid(entry: Record<string, unknown>, message: RegExp): void {
  assert.throws(
    () => make([entry]),
    (error: unknown) => error instanceof TypeError && message.test(error.message),
  );
}

const MISSING: Record<string, RegExp> = {
  name: /"fake".*"name"/,
  authorizeURL: /"fake".*"authorizeURL"/,
  accessToken: /"fake".*"accessToken"/,
  userInfo: /"fake".*"userInfo"/,
  clientId: /"fake" has no client id.*FAKE_CLIENT_ID/,
  clientSecret: /"fake" has no client secret.*FAKE_CLIENT_SECRET/,
};

for (const [field, message] of Object.entries(MISSING)) {
  Deno.test(`a custom provider without ${field} is refused naming it`, () => {
    const { [field as keyof typeof FAKE]: _, ...rest } = FAKE;
    invalid(rest, message);
  });

  Deno.test(`a custom provider with a blank ${field} is refused`, () => {
    invalid({ ...FAKE, [field]: "  " }, new RegExp(field));
  });
}

Deno.test("a custom provider without credentials takes them from {ID}_CLIENT_ID/_SECRET", async () => {
  const { clientId: _, clientSecret: __, ...rest } = FAKE;
  const browser = browserFor([rest], {
    env: { FAKE_CLIENT_ID: "env-fake-id", FAKE_CLIENT_SECRET: "env-fake-secret" },
  });
  const url = await startSignIn(browser, "fake");
  assert.equal(url.searchParams.get("client_id"), "env-fake-id");
});

Deno.test("a custom provider without scope is refused", () => {
  const { scope: _, ...rest } = FAKE;
  invalid(rest, /scope/);
});

Deno.test("a provider with an issuer and an endpoint given by hand still needs a scope", () => {
  const { scope: _, ...rest } = FAKE;
  invalid(
    { ...rest, issuer: "https://fake.example" },
    /needs a string "scope" when its endpoints are given by hand; expected/,
  );
  const { authorizeURL: __, accessToken: ___, ...userInfoOnly } = rest;
  invalid({ ...userInfoOnly, issuer: "https://fake.example" }, /scope/);
});

Deno.test("the type of a provider with endpoints by hand still requires scope", () => {
  const { scope: _, ...rest } = FAKE;
  // @ts-expect-error scope is required once endpoints are given by hand.
  const entry: OAuthProviderCredentials = { ...rest };
  invalid(entry as unknown as Record<string, unknown>, /scope/);
});

Deno.test("an issuer-only provider's scope, when given, must be a string", () => {
  invalid({
    id: "idp",
    name: "IdP",
    issuer: "https://id.example",
    scope: 1,
    clientId: "c",
    clientSecret: "s",
  }, /scope/);
});

Deno.test("a custom provider without id is refused", () => {
  const { id: _, ...rest } = FAKE;
  invalid(rest, /provider id/);
});

for (const field of ["authorizeURL", "accessToken", "userInfo"]) {
  Deno.test(`a custom provider whose ${field} is plain http on another host is refused`, () => {
    invalid({ ...FAKE, [field]: "http://provider.example/endpoint" }, /https/);
  });
}

Deno.test("a custom provider endpoint that is not an absolute URL is refused", () => {
  invalid({ ...FAKE, accessToken: "/oauth/token" }, /absolute URL/);
});

Deno.test("a custom provider endpoint with credentials in the URL is refused", () => {
  invalid({ ...FAKE, accessToken: "https://user:pass@fake.example/token" }, /credentials/);
});

Deno.test("a custom provider endpoint with a fragment is refused", () => {
  invalid({ ...FAKE, userInfo: "https://fake.example/userinfo#me" }, /fragment/);
});

Deno.test("plain http endpoints on localhost and 127.0.0.1 are allowed for development", () => {
  make([{
    ...FAKE,
    authorizeURL: "http://localhost:9000/authorize",
    accessToken: "http://127.0.0.1:9000/token",
    userInfo: "http://auth.localhost/userinfo",
  }]);
});

for (
  const key of [
    "state",
    "code_challenge",
    "code_challenge_method",
    "redirect_uri",
    "client_id",
    "response_type",
    "scope",
  ]
) {
  Deno.test(`authorizationParams may not set the reserved ${key}`, () => {
    invalid({ ...FAKE, authorizationParams: { [key]: "x" } }, new RegExp(`"${key}"`));
  });
}

Deno.test("authorizationParams with a non-string value is refused", () => {
  invalid({ ...FAKE, authorizationParams: { prompt: true } }, /authorizationParams/);
});

Deno.test("two providers with the same id are refused", () => {
  assert.throws(() => make([FAKE, { ...FAKE, name: "Again" }]), /"fake" is configured twice/);
});

Deno.test("a built-in id given twice is refused", () => {
  assert.throws(
    () =>
      make(["github", { id: "github", scope: "read:user" }], {
        env: { GITHUB_CLIENT_ID: "i", GITHUB_CLIENT_SECRET: "s" },
      }),
    /"github" is configured twice/,
  );
});

Deno.test("the provider id credentials is refused", () => {
  invalid({ ...FAKE, id: "credentials" }, /"credentials" is reserved/);
});

Deno.test("a provider id with a slash or a space is refused", () => {
  invalid({ ...FAKE, id: "a/b" }, /provider id/);
  invalid({ ...FAKE, id: "a b" }, /provider id/);
});

Deno.test("an unknown built-in id is refused naming the built-ins", () => {
  assert.throws(() => make(["myspace"]), /unknown built-in provider "myspace".*github/);
});

Deno.test("an inherited property name is not a built-in id", () => {
  assert.throws(() => make(["constructor"]), /unknown built-in provider/);
});

Deno.test("a responseType other than code is refused", () => {
  invalid({ ...FAKE, responseType: "id_token" }, /responseType must be "code"/);
});

Deno.test("a clientAuthMethod other than basic or post is refused", () => {
  invalid({ ...FAKE, clientAuthMethod: "private_key_jwt" }, /clientAuthMethod/);
});

Deno.test("a profile that is not a function is refused", () => {
  invalid({ ...FAKE, profile: "github" }, /profile must be a function/);
});

Deno.test("an oauth entry that is neither an id nor an object is refused", () => {
  assert.throws(() => make([42]), /built-in provider id or a provider object/);
});

// Authorization URLs

Deno.test("authorizationParams appear in the authorization URL", async () => {
  const browser = browserFor([{
    ...FAKE,
    authorizationParams: { prompt: "consent", access_type: "offline" },
  }]);
  const url = await startSignIn(browser, "fake");
  assert.equal(url.searchParams.get("prompt"), "consent");
  assert.equal(url.searchParams.get("access_type"), "offline");
  assert.equal(url.searchParams.get("code_challenge_method"), "S256");
});

Deno.test("the flow's parameters replace same-named ones in the configured authorizeURL", async () => {
  const browser = browserFor([{
    ...FAKE,
    authorizeURL: "https://fake.example/authorize?tenant=acme&state=fixed&response_type=token",
  }]);
  const url = await startSignIn(browser, "fake");
  assert.equal(url.searchParams.get("tenant"), "acme");
  assert.equal(url.searchParams.getAll("state").length, 1);
  assert.notEqual(url.searchParams.get("state"), "fixed");
  assert.deepEqual(url.searchParams.getAll("response_type"), ["code"]);
});

const AUTHORIZE: Record<string, { url: string; scope: string }> = {
  github: { url: "https://github.com/login/oauth/authorize", scope: "read:user user:email" },
  bitbucket: { url: "https://bitbucket.org/site/oauth2/authorize", scope: "account email" },
  figma: { url: "https://www.figma.com/oauth", scope: "current_user:read" },
  discord: { url: "https://discord.com/oauth2/authorize", scope: "identify email" },
  gitlab: { url: "https://gitlab.com/oauth/authorize", scope: "read_user" },
  spotify: { url: "https://accounts.spotify.com/authorize", scope: "user-read-email" },
  x: { url: "https://x.com/i/oauth2/authorize", scope: "users.read tweet.read" },
};

for (const [id, expected] of Object.entries(AUTHORIZE)) {
  Deno.test(`built-in ${id}'s authorization URL has its endpoint, scope, S256 and callback`, async () => {
    const upper = id.toUpperCase();
    const browser = browserFor([id], {
      env: { [`${upper}_CLIENT_ID`]: `${id}-id`, [`${upper}_CLIENT_SECRET`]: `${id}-secret` },
    });
    const url = await startSignIn(browser, id);
    assert.equal(`${url.origin}${url.pathname}`, expected.url);
    assert.equal(url.searchParams.get("scope"), expected.scope);
    assert.equal(url.searchParams.get("response_type"), "code");
    assert.equal(url.searchParams.get("client_id"), `${id}-id`);
    assert.equal(url.searchParams.get("redirect_uri"), `${ORIGIN}/auth/callback/${id}`);
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.match(url.searchParams.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(url.searchParams.get("state")!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(url.searchParams.has("client_secret"), false);
  });
}

Deno.test("redirect_uri follows basePath", async () => {
  const auth = make([FAKE], { basePath: "/api/auth" });
  const response = await auth.handlers.GET(new Request(`${ORIGIN}/api/auth/signIn/fake`));
  const url = new URL(response.headers.get("Location")!);
  assert.equal(url.searchParams.get("redirect_uri"), `${ORIGIN}/api/auth/callback/fake`);
});

Deno.test("over https the redirect_uri is https and flow cookies are __Host- and Secure", async () => {
  const auth = make([FAKE]);
  const response = await auth.handlers.GET(new Request("https://app.example.com/auth/signIn/fake"));
  const url = new URL(response.headers.get("Location")!);
  assert.equal(url.searchParams.get("redirect_uri"), "https://app.example.com/auth/callback/fake");
  const lines = response.headers.getSetCookie();
  assert.equal(lines.length, 4);
  for (const line of lines) {
    assert.match(line, /^__Host-service-stack\./);
    assert.match(line, /; Secure/);
  }
});

Deno.test('redirect_uri ignores X-Forwarded-Host unless trustedProxyHeaders is "x-forwarded"', async () => {
  const headers = { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" };
  const plain = make([FAKE]);
  const ignored = await plain.handlers.GET(
    new Request(`${ORIGIN}/auth/signIn/fake`, { headers }),
  );
  assert.equal(
    new URL(ignored.headers.get("Location")!).searchParams.get("redirect_uri"),
    `${ORIGIN}/auth/callback/fake`,
  );
  // `true` never reads X-Forwarded-Host: a proxy may set only X-Forwarded-Proto.
  const unnamed = make([FAKE], { trustedProxyHeaders: true });
  const protoOnly = await unnamed.handlers.GET(
    new Request(`${ORIGIN}/auth/signIn/fake`, { headers }),
  );
  assert.equal(
    new URL(protoOnly.headers.get("Location")!).searchParams.get("redirect_uri"),
    "https://localhost:8000/auth/callback/fake",
  );
  const proxied = make([FAKE], { trustedProxyHeaders: "x-forwarded" });
  const used = await proxied.handlers.GET(new Request(`${ORIGIN}/auth/signIn/fake`, { headers }));
  assert.equal(
    new URL(used.headers.get("Location")!).searchParams.get("redirect_uri"),
    "https://evil.example/auth/callback/fake",
  );
});

// The new built-ins through createAuth

const NEW_AUTHORIZE: Record<string, { url: string; scope: string | null; pkce: boolean }> = {
  google: {
    url: "https://accounts.google.com/o/oauth2/v2/auth",
    scope: "openid email profile",
    pkce: true,
  },
  apple: {
    url: "https://appleid.apple.com/auth/authorize",
    scope: "openid name email",
    pkce: true,
  },
  microsoft: {
    url: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    scope: "openid profile email",
    pkce: true,
  },
  facebook: {
    url: "https://www.facebook.com/v26.0/dialog/oauth",
    scope: "email public_profile",
    pkce: true,
  },
  linkedin: {
    url: "https://www.linkedin.com/oauth/v2/authorization",
    scope: "openid profile email",
    pkce: false,
  },
  slack: {
    url: "https://slack.com/openid/connect/authorize",
    scope: "openid profile email",
    pkce: false,
  },
  twitch: {
    url: "https://id.twitch.tv/oauth2/authorize",
    scope: "openid user:read:email",
    pkce: true,
  },
  reddit: { url: "https://www.reddit.com/api/v1/authorize", scope: "identity", pkce: true },
  dropbox: {
    url: "https://www.dropbox.com/oauth2/authorize",
    scope: "account_info.read",
    pkce: true,
  },
  notion: { url: "https://api.notion.com/v1/oauth/authorize", scope: null, pkce: true },
  zoom: { url: "https://zoom.us/oauth/authorize", scope: "user:read:user", pkce: true },
  atlassian: { url: "https://auth.atlassian.com/authorize", scope: "read:me", pkce: true },
  salesforce: {
    url: "https://login.salesforce.com/services/oauth2/authorize",
    scope: "openid profile email",
    pkce: true,
  },
  line: {
    url: "https://access.line.me/oauth2/v2.1/authorize",
    scope: "openid profile email",
    pkce: true,
  },
  kakao: {
    url: "https://kauth.kakao.com/oauth/authorize",
    scope: "openid profile_nickname profile_image account_email",
    pkce: true,
  },
  naver: { url: "https://nid.naver.com/oauth2.0/authorize", scope: null, pkce: true },
  patreon: {
    url: "https://www.patreon.com/oauth2/authorize",
    scope: "identity identity[email]",
    pkce: true,
  },
  strava: { url: "https://www.strava.com/oauth/authorize", scope: "read", pkce: true },
  roblox: {
    url: "https://apis.roblox.com/oauth/v1/authorize",
    scope: "openid profile",
    pkce: true,
  },
  yahoo: {
    url: "https://api.login.yahoo.com/oauth2/request_auth",
    scope: "openid profile email",
    pkce: true,
  },
  amazon: { url: "https://www.amazon.com/ap/oa", scope: "profile", pkce: true },
};

for (const [id, expected] of Object.entries(NEW_AUTHORIZE)) {
  Deno.test(`built-in ${id}'s authorization URL has its endpoint, scope and callback`, async () => {
    const upper = id.toUpperCase();
    const browser = browserFor([id], {
      env: { [`${upper}_CLIENT_ID`]: `${id}-id`, [`${upper}_CLIENT_SECRET`]: `${id}-secret` },
    });
    const url = await startSignIn(browser, id);
    assert.equal(`${url.origin}${url.pathname}`, expected.url);
    assert.equal(url.searchParams.get("scope"), expected.scope);
    assert.equal(url.searchParams.get("client_id"), `${id}-id`);
    assert.equal(url.searchParams.get("redirect_uri"), `${ORIGIN}/auth/callback/${id}`);
    assert.equal(url.searchParams.get("code_challenge_method"), expected.pkce ? "S256" : null);
    assert.equal(url.searchParams.has("client_secret"), false);
  });
}

Deno.test("built-in tiktok's authorization URL carries client_key and no PKCE", async () => {
  const browser = browserFor(["tiktok"], {
    env: { TIKTOK_CLIENT_ID: "tk-key", TIKTOK_CLIENT_SECRET: "tk-secret" },
  });
  const url = await startSignIn(browser, "tiktok");
  assert.equal(`${url.origin}${url.pathname}`, "https://www.tiktok.com/v2/auth/authorize/");
  assert.equal(url.searchParams.get("client_key"), "tk-key");
  assert.equal(url.searchParams.has("client_id"), false);
  assert.equal(url.searchParams.has("code_challenge"), false);
});

Deno.test("{ id: 'microsoft', tenant } signs in at that tenant", async () => {
  const tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
  const browser = browserFor([{ id: "microsoft", tenant }], {
    env: { MICROSOFT_CLIENT_ID: "i", MICROSOFT_CLIENT_SECRET: "s" },
  });
  const url = await startSignIn(browser, "microsoft");
  assert.equal(url.pathname, `/${tenant}/oauth2/v2.0/authorize`);
});

Deno.test("createAuth refuses okta without an issuer, naming OKTA_ISSUER", () => {
  assert.throws(
    () => make(["okta"], { env: { OKTA_CLIENT_ID: "i", OKTA_CLIENT_SECRET: "s" } }),
    (error: unknown) =>
      error instanceof TypeError && /"okta" needs an issuer; expected e\.g\./.test(error.message) &&
      /OKTA_ISSUER/.test(error.message),
  );
});

Deno.test("createAuth accepts okta with OKTA_ISSUER in the environment", () => {
  make(["okta"], {
    env: { OKTA_CLIENT_ID: "i", OKTA_CLIENT_SECRET: "s", OKTA_ISSUER: "https://dev-1.okta.com" },
  });
});

Deno.test("a custom provider endpoint on an http IP that is not loopback is refused", () => {
  invalid({ ...FAKE, userInfo: "http://10.0.0.1/userinfo" }, /https/);
  invalid({ ...FAKE, userInfo: "http://localhost.evil.example/userinfo" }, /https/);
});
