// An access token never reaches a host nobody configured: follow-up calls are
// built from the configured endpoints and go through a fetch bound to them.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, type OAuthProviderEntry } from "../../../mod.ts";
import { hostBoundFetch } from "../../../src/oauth/user_info.ts";
import { resolveProviders } from "../../../src/oauth/providers/mod.ts";
import { followUpURL } from "../../../src/oauth/providers/_fetch_json.ts";
import {
  Browser,
  callbackWithCode,
  getSession,
  json,
  scriptedFetch,
  SECRET,
} from "../_flow_helpers.ts";
import { envOf, fakeFetch } from "./_helpers.ts";

const CORP = {
  authorizeURL: "https://git.corp.example/login/oauth/authorize",
  accessToken: "https://git.corp.example/login/oauth/access_token",
  userInfo: "https://git.corp.example/api/v3/user",
};

function browserWith(oauth: unknown[], routes: Parameters<typeof scriptedFetch>[0]) {
  const scripted = scriptedFetch(routes);
  const auth = createAuth({
    oauth: oauth as OAuthProviderEntry[],
    secret: SECRET,
    logger: false,
    env: {},
    fetch: scripted.fetch,
  } as AuthConfig);
  return { browser: new Browser(auth.handlers.ALL), calls: scripted.calls };
}

Deno.test("hostBoundFetch refuses another host without sending the request", async () => {
  const { fetch, calls } = fakeFetch({});
  const bound = hostBoundFetch(fetch, ["https://api.github.com/user"]);
  await assert.rejects(
    () => bound("https://evil.example/user/emails", { headers: { Authorization: "Bearer t" } }),
    TypeError,
  );
  assert.equal(calls.length, 0);
});

Deno.test("hostBoundFetch refuses look-alike origins of a configured host", async () => {
  const { fetch, calls } = fakeFetch({});
  const bound = hostBoundFetch(fetch, ["https://api.github.com/user"]);
  for (
    const url of [
      "http://api.github.com/user/emails",
      "https://api.github.com:8443/user/emails",
      "https://api.github.com.evil.example/user/emails",
      "https://api.github.com@evil.example/user/emails",
      "https://evil.example/api.github.com/user/emails",
      "https://github.com/user/emails",
      "//api.github.com/user/emails",
      "javascript:alert(1)",
      "not a url",
    ]
  ) {
    await assert.rejects(() => bound(url), TypeError, url);
  }
  assert.equal(calls.length, 0);
});

Deno.test("hostBoundFetch checks URL and Request inputs alike", async () => {
  const { fetch, calls } = fakeFetch({ "https://api.github.com/user/emails": () => json([]) });
  const bound = hostBoundFetch(fetch, ["https://api.github.com/user"]);
  await bound(new URL("https://api.github.com/user/emails"));
  await bound(new Request("https://api.github.com/user/emails"));
  await assert.rejects(() => bound(new URL("https://evil.example/x")), TypeError);
  await assert.rejects(() => bound(new Request("https://evil.example/x")), TypeError);
  assert.equal(calls.length, 2);
});

Deno.test("hostBoundFetch forbids redirects so a configured host cannot bounce the token", async () => {
  let seen: RequestInit | undefined;
  const inner = ((_: RequestInfo | URL, init?: RequestInit) => {
    seen = init;
    return Promise.resolve(json([]));
  }) as typeof fetch;
  await hostBoundFetch(inner, ["https://api.github.com/user"])(
    "https://api.github.com/user/emails",
    { redirect: "follow" },
  );
  assert.equal(seen?.redirect, "error");
});

Deno.test("hostBoundFetch with no usable URL refuses everything", async () => {
  const { fetch } = fakeFetch({});
  const bound = hostBoundFetch(fetch, [undefined, "not a url", "ftp://files.example/"]);
  await assert.rejects(() => bound("https://files.example/"), TypeError);
});

Deno.test("followUpURL appends the segment to the user-info path and drops its query", () => {
  assert.equal(
    followUpURL("https://git.corp.example/api/v3/user?x=1#f", "emails"),
    "https://git.corp.example/api/v3/user/emails",
  );
  assert.equal(
    followUpURL("https://api.github.com/user/", "emails"),
    "https://api.github.com/user/emails",
  );
  assert.equal(followUpURL(undefined, "emails"), undefined);
});

Deno.test("github overridden for a self-hosted instance calls that host's /user/emails", async () => {
  const { browser, calls } = browserWith(
    [{ id: "github", clientId: "i", clientSecret: "s", ...CORP }],
    {
      [CORP.accessToken]: () => json({ access_token: "ghe_token", token_type: "bearer" }),
      [CORP.userInfo]: () => json({ id: 7, login: "mona", email: null }),
      "https://git.corp.example/api/v3/user/emails": () =>
        json([{ email: "mona@corp.example", primary: true, verified: true }]),
    },
  );
  await callbackWithCode(browser, "github");
  const user = (await (await getSession(browser)).json()).user;
  assert.deepEqual(user, {
    sub: "7",
    name: "mona",
    email: "mona@corp.example",
    emailVerified: true,
  });
  const hosts = calls.map((request) => new URL(request.url).host);
  assert.deepEqual(hosts, ["git.corp.example", "git.corp.example", "git.corp.example"]);
});

Deno.test("a self-hosted github never sends its token to api.github.com", async () => {
  const { browser, calls } = browserWith(
    [{ id: "github", clientId: "i", clientSecret: "s", ...CORP }],
    {
      [CORP.accessToken]: () => json({ access_token: "ghe_token", token_type: "bearer" }),
      [CORP.userInfo]: () => json({ id: 7, login: "mona", email: null }),
      "https://api.github.com/user/emails": () =>
        json([{ email: "attacker@evil.example", primary: true, verified: true }]),
    },
  );
  await callbackWithCode(browser, "github");
  assert.ok(calls.every((request) => new URL(request.url).host !== "api.github.com"));
  const user = (await (await getSession(browser)).json()).user;
  assert.equal(user.email, undefined);
});

Deno.test("bitbucket's /user/emails moves with an overridden userInfo", async () => {
  const base = "https://bitbucket.corp.example";
  const { browser, calls } = browserWith(
    [{
      id: "bitbucket",
      clientId: "i",
      clientSecret: "s",
      authorizeURL: `${base}/site/oauth2/authorize`,
      accessToken: `${base}/site/oauth2/access_token`,
      userInfo: `${base}/2.0/user`,
    }],
    {
      [`${base}/site/oauth2/access_token`]: () =>
        json({ access_token: "bb", token_type: "bearer" }),
      [`${base}/2.0/user`]: () => json({ uuid: "{u-1}", display_name: "Ada" }),
      [`${base}/2.0/user/emails`]: () =>
        json({ values: [{ email: "ada@corp.example", is_primary: true, is_confirmed: true }] }),
    },
  );
  await callbackWithCode(browser, "bitbucket");
  assert.equal((await (await getSession(browser)).json()).user.email, "ada@corp.example");
  assert.ok(calls.every((request) => new URL(request.url).origin === base));
});

Deno.test("a custom provider's mapper gets its endpoints and a fetch bound to their hosts", async () => {
  const seen: string[] = [];
  const providers = resolveProviders([{
    id: "corp",
    name: "Corp",
    authorizeURL: "https://id.corp.example/authorize",
    accessToken: "https://id.corp.example/token",
    userInfo: "https://api.corp.example/me",
    scope: "profile",
    responseType: "code",
    clientId: "i",
    clientSecret: "s",
    profile: async (
      raw: Record<string, unknown>,
      context: { fetch: typeof fetch; endpoints: { userInfo?: string } },
    ) => {
      seen.push(context.endpoints.userInfo ?? "");
      await assert.rejects(() => context.fetch("https://elsewhere.example/x"), TypeError);
      const ok = await context.fetch("https://api.corp.example/me/groups");
      seen.push(await ok.text());
      return { sub: String(raw.id) };
    },
  }], envOf({}));
  const { fetch, calls } = fakeFetch({
    "https://api.corp.example/me/groups": () => new Response("groups"),
  });
  const user = await providers.get("corp")!.profile({ id: 1 }, {
    tokens: { access_token: "t", token_type: "bearer" },
    fetch,
  });
  assert.deepEqual(user, { sub: "1" });
  assert.deepEqual(seen, ["https://api.corp.example/me", "groups"]);
  assert.deepEqual(calls.map((call) => call.url), ["https://api.corp.example/me/groups"]);
});

Deno.test("discovered endpoints fill the gaps of an issuer-only provider's context", async () => {
  let endpoints: unknown;
  const providers = resolveProviders([{
    id: "okta",
    issuer: "https://dev-1.okta.com/oauth2/default",
    clientId: "i",
    clientSecret: "s",
    profile: (_: Record<string, unknown>, context: { endpoints: unknown }) => {
      endpoints = context.endpoints;
      return { sub: "1" };
    },
  }], envOf({}));
  await providers.get("okta")!.profile({}, {
    tokens: { access_token: "t", token_type: "bearer" },
    fetch: fakeFetch({}).fetch,
    discovered: {
      authorizeURL: "https://dev-1.okta.com/oauth2/default/v1/authorize",
      accessToken: "https://dev-1.okta.com/oauth2/default/v1/token",
      userInfo: "https://dev-1.okta.com/oauth2/default/v1/userinfo",
    },
  });
  assert.deepEqual(endpoints, {
    authorizeURL: "https://dev-1.okta.com/oauth2/default/v1/authorize",
    accessToken: "https://dev-1.okta.com/oauth2/default/v1/token",
    userInfo: "https://dev-1.okta.com/oauth2/default/v1/userinfo",
  });
});

Deno.test("configured endpoints win over discovered ones in the mapper's context", async () => {
  let endpoints: { userInfo?: string } = {};
  const providers = resolveProviders([{
    id: "github",
    clientId: "i",
    clientSecret: "s",
    ...CORP,
    profile: (_: Record<string, unknown>, context: { endpoints: { userInfo?: string } }) => {
      endpoints = context.endpoints;
      return { sub: "1" };
    },
  }], envOf({}));
  await providers.get("github")!.profile({}, {
    tokens: { access_token: "t", token_type: "bearer" },
    fetch: fakeFetch({}).fetch,
    discovered: { userInfo: "https://evil.example/user" },
  });
  assert.equal(endpoints.userInfo, CORP.userInfo);
});
