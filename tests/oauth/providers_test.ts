import assert from "node:assert/strict";
import type { ProfileContext, ProviderEndpoints } from "../../src/oauth/types.ts";
import { ProfileError } from "../../src/oauth/profile.ts";
import { builtInProviders, isBuiltInProviderId } from "../../src/oauth/providers/mod.ts";

interface Call {
  url: string;
  authorization: string | null;
}

/** A fake fetch answering from a URL -> response map, recording each call. */
function fakeFetch(routes: Record<string, () => Response>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    calls.push({ url: request.url, authorization: request.headers.get("authorization") });
    const route = routes[request.url];
    return route ? Promise.resolve(route()) : Promise.reject(new TypeError("no route"));
  };
  return { fetch: fetchFn as typeof fetch, calls };
}

/** A mapper's context with a provider's default endpoints (as the resolved provider hands it). */
function context(
  fetchFn: typeof fetch = fakeFetch({}).fetch,
  endpoints: ProviderEndpoints = {},
): ProfileContext {
  return { tokens: { access_token: "at-123", token_type: "bearer" }, fetch: fetchFn, endpoints };
}

const GITHUB_ENDPOINTS: ProviderEndpoints = {
  accessToken: "https://github.com/login/oauth/access_token",
  userInfo: "https://api.github.com/user",
};
const BITBUCKET_ENDPOINTS: ProviderEndpoints = {
  accessToken: "https://bitbucket.org/site/oauth2/access_token",
  userInfo: "https://api.bitbucket.org/2.0/user",
};

function endpointsOf(id: string): ProviderEndpoints {
  return id === "github" ? GITHUB_ENDPOINTS : id === "bitbucket" ? BITBUCKET_ENDPOINTS : {};
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

// Shapes below follow each provider's documented user-info example.
const GITHUB_USER = {
  login: "octocat",
  id: 1,
  node_id: "MDQ6VXNlcjE=",
  avatar_url: "https://github.com/images/error/octocat_happy.gif",
  gravatar_id: "",
  url: "https://api.github.com/users/octocat",
  html_url: "https://github.com/octocat",
  type: "User",
  site_admin: false,
  name: "monalisa octocat",
  company: "GitHub",
  blog: "https://github.com/blog",
  location: "San Francisco",
  email: "octocat@github.com",
  hireable: false,
  bio: "There once was...",
  twitter_username: "monatheoctocat",
  public_repos: 2,
  followers: 20,
  following: 0,
  created_at: "2008-01-14T04:33:35Z",
  updated_at: "2008-01-14T04:33:35Z",
};

const GITHUB_EMAILS = [
  { email: "old@example.com", verified: true, primary: false, visibility: null },
  { email: "octocat@github.com", verified: true, primary: true, visibility: "private" },
];

const BITBUCKET_USER = {
  display_name: "Ada Lovelace",
  links: {
    self: {
      href: "https://api.bitbucket.org/2.0/users/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D",
    },
    avatar: { href: "https://secure.gravatar.com/avatar/3f1c?d=identicon" },
    html: { href: "https://bitbucket.org/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D/" },
  },
  created_on: "2018-11-05T09:12:11.222933+00:00",
  type: "user",
  uuid: "{d301aafa-d676-4ee0-88be-962be7417567}",
  has_2fa_enabled: null,
  account_id: "557058:1d3a4f2e-0c3b-4f4e-9a55-1234567890ab",
  nickname: "ada",
  account_status: "active",
  location: null,
};

const BITBUCKET_EMAILS = {
  pagelen: 10,
  values: [
    { is_primary: false, is_confirmed: true, type: "email", email: "old@example.com", links: {} },
    { is_primary: true, is_confirmed: false, type: "email", email: "unconfirmed@example.com" },
    { is_primary: true, is_confirmed: true, type: "email", email: "ada@example.com", links: {} },
  ],
  page: 1,
  size: 3,
};

const FIGMA_ME = {
  id: "1234567890123456789",
  email: "ada@example.com",
  handle: "Ada Lovelace",
  img_url: "https://s3-alpha-sig.figma.com/profile/9b1a7f0e-1234",
};

const DISCORD_ME = {
  id: "80351110224678912",
  username: "nelly",
  discriminator: "0",
  global_name: "Nelly",
  avatar: "8342729096ea3675442027381ff50dfe",
  verified: true,
  email: "nelly@discord.com",
  flags: 64,
  banner: "06c16474723fe537c283b8efa61a30c8",
  accent_color: 16711680,
  premium_type: 1,
  public_flags: 64,
  mfa_enabled: true,
  locale: "en-US",
};

const GITLAB_USER = {
  id: 1,
  username: "john_smith",
  email: "john@example.com",
  name: "John Smith",
  state: "active",
  locked: false,
  avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
  web_url: "https://gitlab.com/john_smith",
  created_at: "2012-05-23T08:00:58Z",
  bio: "",
  public_email: "john@example.com",
  confirmed_at: "2012-05-23T09:05:22Z",
  two_factor_enabled: true,
};

const SPOTIFY_ME = {
  country: "SE",
  display_name: "JM Wizzler",
  email: "email@example.com",
  explicit_content: { filter_enabled: false, filter_locked: false },
  external_urls: { spotify: "https://open.spotify.com/user/wizzler" },
  followers: { href: null, total: 3829 },
  href: "https://api.spotify.com/v1/users/wizzler",
  id: "wizzler",
  images: [
    { url: "https://i.scdn.co/image/ab6775700000ee85a7b1c2d3", height: 300, width: 300 },
    { url: "https://i.scdn.co/image/ab67757000003b82a7b1c2d3", height: 64, width: 64 },
  ],
  product: "premium",
  type: "user",
  uri: "spotify:user:wizzler",
};

const X_ME = {
  data: {
    id: "2244994945",
    name: "X Dev",
    username: "TwitterDev",
    profile_image_url:
      "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
  },
};

/** The seven providers of the first version, whose fixtures this file holds. */
const FIRST_SEVEN = ["bitbucket", "discord", "figma", "github", "gitlab", "spotify", "x"] as const;

Deno.test("builtInProviders has the 33 ids, each matching its key", () => {
  assert.deepEqual(Object.keys(builtInProviders).sort(), [
    "amazon",
    "apple",
    "atlassian",
    "auth0",
    "bitbucket",
    "cognito",
    "discord",
    "dropbox",
    "facebook",
    "figma",
    "github",
    "gitlab",
    "google",
    "kakao",
    "keycloak",
    "line",
    "linkedin",
    "microsoft",
    "naver",
    "notion",
    "okta",
    "patreon",
    "reddit",
    "roblox",
    "salesforce",
    "slack",
    "spotify",
    "strava",
    "tiktok",
    "twitch",
    "x",
    "yahoo",
    "zoom",
  ]);
  for (const [id, provider] of Object.entries(builtInProviders)) assert.equal(provider.id, id);
});

Deno.test("every built-in provider uses https endpoints, the code flow and a display name", () => {
  for (const provider of Object.values(builtInProviders)) {
    const urls = [
      provider.authorizeURL,
      provider.accessToken,
      provider.userInfo,
      provider.jwksURI,
      provider.issuer,
    ].filter((url) => url !== undefined);
    for (const url of urls) assert.equal(new URL(url).protocol, "https:", `${provider.id}: ${url}`);
    assert.equal(provider.responseType, "code");
    assert.equal(typeof provider.scope, "string");
    assert.ok(provider.name.length > 0);
  }
});

Deno.test("only Notion and Naver, which have no scope parameter, send no scope", () => {
  const empty = Object.values(builtInProviders).filter((provider) => provider.scope === "");
  assert.deepEqual(empty.map((provider) => provider.id).sort(), ["naver", "notion"]);
});

Deno.test("a built-in without endpoints is one that takes an issuer", () => {
  for (const provider of Object.values(builtInProviders)) {
    if (provider.authorizeURL === undefined || provider.accessToken === undefined) {
      assert.deepEqual(provider.options, ["issuer"], provider.id);
    }
  }
});

Deno.test("built-in providers and their record are frozen", () => {
  assert.ok(Object.isFrozen(builtInProviders));
  for (const provider of Object.values(builtInProviders)) assert.ok(Object.isFrozen(provider));
});

Deno.test("isBuiltInProviderId accepts the seven ids and nothing inherited", () => {
  assert.ok(isBuiltInProviderId("github"));
  assert.ok(isBuiltInProviderId("x"));
  for (const id of ["mock", "GitHub", "constructor", "__proto__", "toString", "hasOwnProperty"]) {
    assert.equal(isBuiltInProviderId(id), false, id);
  }
});

Deno.test("provider endpoints and scopes are the documented ones", () => {
  const p = builtInProviders;
  assert.equal(p.github.accessToken, "https://github.com/login/oauth/access_token");
  assert.equal(p.github.scope, "read:user user:email");
  assert.equal(p.bitbucket.authorizeURL, "https://bitbucket.org/site/oauth2/authorize");
  assert.equal(p.bitbucket.scope, "account email");
  assert.equal(p.figma.accessToken, "https://api.figma.com/v1/oauth/token");
  assert.equal(p.discord.userInfo, "https://discord.com/api/users/@me");
  assert.equal(p.gitlab.userInfo, "https://gitlab.com/api/v4/user");
  assert.equal(p.spotify.accessToken, "https://accounts.spotify.com/api/token");
  assert.equal(p.x.authorizeURL, "https://x.com/i/oauth2/authorize");
  assert.equal(p.x.accessToken, "https://api.x.com/2/oauth2/token");
});

Deno.test("x asks for profile_image_url in the user-info URL", () => {
  const url = new URL(builtInProviders.x.userInfo!);
  assert.equal(url.searchParams.get("user.fields"), "profile_image_url");
});

Deno.test("github maps the documented /user shape, its email only once /user/emails marks it verified", async () => {
  const { fetch, calls } = fakeFetch({
    "https://api.github.com/user/emails": () => json(GITHUB_EMAILS),
  });
  const user = await builtInProviders.github.profile(GITHUB_USER, context(fetch, GITHUB_ENDPOINTS));
  assert.deepEqual(user, {
    sub: "1",
    name: "monalisa octocat",
    email: "octocat@github.com",
    image: "https://github.com/images/error/octocat_happy.gif",
  });
  assert.equal(calls.length, 1);
});

Deno.test("github never trusts a public profile email that /user/emails lists as unverified", async () => {
  const { fetch } = fakeFetch({
    "https://api.github.com/user/emails": () =>
      json([
        { email: "ceo@corp.example", verified: false, primary: false, visibility: "public" },
        { email: "octocat@github.com", verified: true, primary: true, visibility: null },
      ]),
  });
  const user = await builtInProviders.github.profile(
    { ...GITHUB_USER, email: "ceo@corp.example" },
    context(fetch, GITHUB_ENDPOINTS),
  );
  assert.equal(user.email, "octocat@github.com");
});

Deno.test("github falls back to the primary verified address of /user/emails", async () => {
  const { fetch, calls } = fakeFetch({
    "https://api.github.com/user/emails": () => json(GITHUB_EMAILS),
  });
  const user = await builtInProviders.github.profile(
    { ...GITHUB_USER, email: null },
    context(fetch, GITHUB_ENDPOINTS),
  );
  assert.equal(user.email, "octocat@github.com");
  assert.deepEqual(calls, [{
    url: "https://api.github.com/user/emails",
    authorization: "Bearer at-123",
  }]);
});

Deno.test("github ignores an unverified primary address", async () => {
  const { fetch } = fakeFetch({
    "https://api.github.com/user/emails": () =>
      json([{ email: "octocat@github.com", verified: false, primary: true, visibility: null }]),
  });
  const user = await builtInProviders.github.profile(
    { ...GITHUB_USER, email: null },
    context(fetch, GITHUB_ENDPOINTS),
  );
  assert.equal("email" in user, false);
});

Deno.test("github omits the email when /user/emails fails", async () => {
  for (
    const route of [
      () => json({ message: "Requires authentication" }, 401),
      () => new Response("not json", { status: 200 }),
      () => json({ not: "an array" }),
    ]
  ) {
    const { fetch } = fakeFetch({ "https://api.github.com/user/emails": route });
    const user = await builtInProviders.github.profile(
      { ...GITHUB_USER, email: null },
      context(fetch, GITHUB_ENDPOINTS),
    );
    assert.deepEqual(Object.keys(user).sort(), ["image", "name", "sub"]);
  }
});

Deno.test("github omits the email when the network call rejects", async () => {
  const { fetch } = fakeFetch({});
  const user = await builtInProviders.github.profile(
    { ...GITHUB_USER, email: null },
    context(fetch, GITHUB_ENDPOINTS),
  );
  assert.equal(user.email, undefined);
});

Deno.test("github uses login when name is null", async () => {
  const user = await builtInProviders.github.profile({ ...GITHUB_USER, name: null }, context());
  assert.equal(user.name, "octocat");
});

Deno.test("github throws a ProfileError when id is missing", async () => {
  const { id: _id, ...withoutId } = GITHUB_USER;
  await assert.rejects(
    async () => await builtInProviders.github.profile(withoutId, context()),
    ProfileError,
  );
});

Deno.test("github rejects a tricky public email and falls back", async () => {
  const { fetch } = fakeFetch({
    "https://api.github.com/user/emails": () => json(GITHUB_EMAILS),
  });
  const user = await builtInProviders.github.profile(
    { ...GITHUB_USER, email: "victim@example.com,attacker@evil.test" },
    context(fetch, GITHUB_ENDPOINTS),
  );
  assert.equal(user.email, "octocat@github.com");
});

Deno.test("bitbucket maps uuid, display_name, avatar and the primary confirmed address", async () => {
  const { fetch, calls } = fakeFetch({
    "https://api.bitbucket.org/2.0/user/emails": () => json(BITBUCKET_EMAILS),
  });
  const user = await builtInProviders.bitbucket.profile(
    BITBUCKET_USER,
    context(fetch, BITBUCKET_ENDPOINTS),
  );
  assert.deepEqual(user, {
    sub: "{d301aafa-d676-4ee0-88be-962be7417567}",
    name: "Ada Lovelace",
    email: "ada@example.com",
    image: "https://secure.gravatar.com/avatar/3f1c?d=identicon",
  });
  assert.equal(calls[0].authorization, "Bearer at-123");
});

Deno.test("bitbucket omits the email when no primary address is confirmed", async () => {
  const { fetch } = fakeFetch({
    "https://api.bitbucket.org/2.0/user/emails": () =>
      json({ values: [{ is_primary: true, is_confirmed: false, email: "a@example.com" }] }),
  });
  const user = await builtInProviders.bitbucket.profile(
    BITBUCKET_USER,
    context(fetch, BITBUCKET_ENDPOINTS),
  );
  assert.equal("email" in user, false);
});

Deno.test("bitbucket throws a ProfileError without uuid", async () => {
  const { uuid: _uuid, ...withoutUuid } = BITBUCKET_USER;
  await assert.rejects(
    async () => await builtInProviders.bitbucket.profile(withoutUuid, context()),
    ProfileError,
  );
});

Deno.test("figma maps id, handle, email and img_url", async () => {
  const user = await builtInProviders.figma.profile(FIGMA_ME, context());
  assert.deepEqual(user, {
    sub: "1234567890123456789",
    name: "Ada Lovelace",
    email: "ada@example.com",
    image: "https://s3-alpha-sig.figma.com/profile/9b1a7f0e-1234",
  });
});

Deno.test("figma omits a missing email", async () => {
  const { email: _email, ...withoutEmail } = FIGMA_ME;
  const user = await builtInProviders.figma.profile(withoutEmail, context());
  assert.equal("email" in user, false);
});

Deno.test("discord maps global_name, verified email and the avatar CDN URL", async () => {
  const user = await builtInProviders.discord.profile(DISCORD_ME, context());
  assert.deepEqual(user, {
    sub: "80351110224678912",
    name: "Nelly",
    email: "nelly@discord.com",
    image:
      "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
  });
});

Deno.test("discord uses a GIF for an animated avatar", async () => {
  const user = await builtInProviders.discord.profile(
    { ...DISCORD_ME, avatar: "a_1269e74af4df7417b13759eae50c83dc" },
    context(),
  );
  assert.equal(
    user.image,
    "https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif",
  );
});

Deno.test("discord falls back to the default avatar by id for new usernames", async () => {
  const user = await builtInProviders.discord.profile({ ...DISCORD_ME, avatar: null }, context());
  // (80351110224678912 >> 22) % 6 === 5
  assert.equal(user.image, "https://cdn.discordapp.com/embed/avatars/5.png");
});

Deno.test("discord falls back to the default avatar by discriminator for legacy users", async () => {
  const user = await builtInProviders.discord.profile(
    { ...DISCORD_ME, avatar: null, discriminator: "1337" },
    context(),
  );
  assert.equal(user.image, "https://cdn.discordapp.com/embed/avatars/2.png");
});

Deno.test("discord rejects an avatar hash that could alter the URL path", async () => {
  const user = await builtInProviders.discord.profile(
    { ...DISCORD_ME, avatar: "../../evil" },
    context(),
  );
  assert.equal(user.image, "https://cdn.discordapp.com/embed/avatars/5.png");
});

Deno.test("discord omits an unverified email", async () => {
  const user = await builtInProviders.discord.profile(
    { ...DISCORD_ME, verified: false },
    context(),
  );
  assert.equal("email" in user, false);
});

Deno.test("discord uses username when global_name is null", async () => {
  const user = await builtInProviders.discord.profile(
    { ...DISCORD_ME, global_name: null },
    context(),
  );
  assert.equal(user.name, "nelly");
});

Deno.test("gitlab maps id, name, email and avatar_url", async () => {
  const user = await builtInProviders.gitlab.profile(GITLAB_USER, context());
  assert.deepEqual(user, {
    sub: "1",
    name: "John Smith",
    email: "john@example.com",
    image: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
  });
});

Deno.test("gitlab drops an email of the wrong type", async () => {
  const user = await builtInProviders.gitlab.profile(
    { ...GITLAB_USER, email: { address: "john@example.com" } },
    context(),
  );
  assert.equal("email" in user, false);
});

Deno.test("spotify maps id, display_name and images[0].url, never its unverified email", async () => {
  const user = await builtInProviders.spotify.profile(SPOTIFY_ME, context());
  assert.deepEqual(user, {
    sub: "wizzler",
    name: "JM Wizzler",
    image: "https://i.scdn.co/image/ab6775700000ee85a7b1c2d3",
  });
});

Deno.test("spotify omits image and name when images is empty and display_name null", async () => {
  const user = await builtInProviders.spotify.profile(
    { ...SPOTIFY_ME, images: [], display_name: null },
    context(),
  );
  assert.deepEqual(user, { sub: "wizzler" });
});

Deno.test("x unwraps data and maps id, name and profile_image_url", async () => {
  const user = await builtInProviders.x.profile(X_ME, context());
  assert.deepEqual(user, {
    sub: "2244994945",
    name: "X Dev",
    image: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
  });
});

Deno.test("x maps confirmed_email when X returns it", async () => {
  const user = await builtInProviders.x.profile(
    { data: { ...X_ME.data, confirmed_email: "dev@example.com" } },
    context(),
  );
  assert.equal(user.email, "dev@example.com");
});

Deno.test("x throws a ProfileError when data is missing", async () => {
  await assert.rejects(
    async () => await builtInProviders.x.profile(X_ME.data, context()),
    ProfileError,
  );
});

Deno.test("every provider throws a ProfileError for an empty object", async () => {
  const { fetch } = fakeFetch({
    "https://api.github.com/user/emails": () => json(GITHUB_EMAILS),
    "https://api.bitbucket.org/2.0/user/emails": () => json(BITBUCKET_EMAILS),
  });
  for (const provider of Object.values(builtInProviders)) {
    await assert.rejects(
      async () => await provider.profile({}, context(fetch)),
      ProfileError,
      provider.id,
    );
  }
});

Deno.test("every provider rejects email tricks in its email field", async () => {
  const tricks = [
    "victim@example.com,attacker@evil.test",
    '"victim@example.com"@evil.test',
    "victim＠example.com@evil.test",
    "<b>victim</b>@example.com",
  ];
  for (const trick of tricks) {
    const fixtures: Record<string, Record<string, unknown>> = {
      github: { ...GITHUB_USER, email: trick },
      figma: { ...FIGMA_ME, email: trick },
      discord: { ...DISCORD_ME, email: trick },
      gitlab: { ...GITLAB_USER, email: trick },
      spotify: { ...SPOTIFY_ME, email: trick },
      x: { data: { ...X_ME.data, confirmed_email: trick } },
      bitbucket: BITBUCKET_USER,
    };
    const { fetch } = fakeFetch({
      "https://api.github.com/user/emails": () =>
        json([{ email: trick, primary: true, verified: true }]),
      "https://api.bitbucket.org/2.0/user/emails": () =>
        json({ values: [{ email: trick, is_primary: true, is_confirmed: true }] }),
    });
    for (const provider of FIRST_SEVEN.map((id) => builtInProviders[id])) {
      const user = await provider.profile(
        fixtures[provider.id],
        context(fetch, endpointsOf(provider.id)),
      );
      assert.equal("email" in user, false, `${provider.id}: ${trick}`);
    }
  }
});

Deno.test("no provider returns an empty string for any field", async () => {
  const blank = { id: "1", uuid: "{1}", data: { id: "1", name: "", profile_image_url: "" } };
  const { fetch } = fakeFetch({});
  for (const provider of FIRST_SEVEN.map((id) => builtInProviders[id])) {
    const user = await provider.profile(
      { ...blank, name: "", login: "", email: "", avatar_url: "", handle: "", img_url: "" },
      context(fetch),
    );
    for (const [key, value] of Object.entries(user)) {
      assert.notEqual(value, "", `${provider.id}.${key}`);
    }
    assert.ok(typeof user.sub === "string" && user.sub.length > 0);
  }
});
