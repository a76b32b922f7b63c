// End to end through createAuth: providers whose requests differ from the
// plain flow (a POST user-info call, client_key, a required User-Agent, client
// credentials in the body).
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, type OAuthProviderEntry } from "../../../mod.ts";
import { builtInProviders } from "../../../src/oauth/providers/mod.ts";
import {
  Browser,
  callbackWithCode,
  type Endpoint,
  getSession,
  json,
  scriptedFetch,
  SECRET,
} from "../_flow_helpers.ts";

function signInWith(
  id: string,
  routes: Record<string, Endpoint>,
  entry: Record<string, unknown> = {},
) {
  const scripted = scriptedFetch(routes);
  const auth = createAuth({
    oauth: [{
      id,
      clientId: `${id}-id`,
      clientSecret: `${id}-secret`,
      ...entry,
    }] as OAuthProviderEntry[],
    secret: SECRET,
    logger: false,
    env: {},
    fetch: scripted.fetch,
  } as AuthConfig);
  return { browser: new Browser(auth.handlers.ALL), calls: scripted.calls };
}

async function sessionUser(browser: Browser): Promise<unknown> {
  return (await (await getSession(browser)).json())?.user;
}

Deno.test("dropbox signs in with a bodiless POST to get_current_account", async () => {
  const { browser, calls } = signInWith("dropbox", {
    "https://api.dropboxapi.com/oauth2/token": () =>
      json({ access_token: "sl.x", token_type: "bearer", expires_in: 14400, account_id: "dbid:1" }),
    "https://api.dropboxapi.com/2/users/get_current_account": (request) =>
      request.method === "POST"
        ? json({
          account_id: "dbid:1",
          name: { display_name: "Franz" },
          email: "franz@dropbox.com",
          email_verified: true,
        })
        : json({ error: "method" }, 405),
  });
  const response = await callbackWithCode(browser, "dropbox");
  assert.equal(response.headers.get("Location"), "/home");
  assert.deepEqual(await sessionUser(browser), {
    sub: "dbid:1",
    name: "Franz",
    email: "franz@dropbox.com",
    emailVerified: true,
  });
  assert.equal(calls[1].method, "POST");
});

Deno.test("tiktok signs in with client_key in the token body and its wrapped user", async () => {
  let tokenBody = new URLSearchParams();
  const { browser } = signInWith("tiktok", {
    "https://open.tiktokapis.com/v2/oauth/token/": async (request) => {
      tokenBody = new URLSearchParams(await request.text());
      return json({
        access_token: "act.1",
        token_type: "Bearer",
        open_id: "o-1",
        expires_in: 86400,
      });
    },
    "https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name":
      () =>
        json({ data: { user: { open_id: "o-1", display_name: "Tik" } }, error: { code: "ok" } }),
  });
  await callbackWithCode(browser, "tiktok");
  assert.deepEqual(await sessionUser(browser), { sub: "o-1", name: "Tik" });
  assert.equal(tokenBody.get("client_key"), "tiktok-id");
  assert.equal(tokenBody.get("client_secret"), "tiktok-secret");
  assert.equal(tokenBody.has("code_verifier"), false);
});

Deno.test("a tiktok error answer fails the sign-in without a session", async () => {
  const { browser } = signInWith("tiktok", {
    "https://open.tiktokapis.com/v2/oauth/token/": () =>
      json({ access_token: "act.1", token_type: "Bearer" }),
    "https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name":
      () => json({ data: { user: { open_id: "o-1" } }, error: { code: "access_token_invalid" } }),
  });
  const response = await callbackWithCode(browser, "tiktok");
  assert.match(response.headers.get("Location")!, /error=/);
  assert.equal(await sessionUser(browser), undefined);
});

Deno.test("reddit sends its User-Agent to the token and user endpoints", async () => {
  const agents: (string | null)[] = [];
  const { browser } = signInWith("reddit", {
    "https://www.reddit.com/api/v1/access_token": (request) => {
      agents.push(request.headers.get("User-Agent"));
      return json({ access_token: "r", token_type: "bearer", expires_in: 3600, scope: "identity" });
    },
    "https://oauth.reddit.com/api/v1/me": (request) => {
      agents.push(request.headers.get("User-Agent"));
      return json({ id: "1w72", name: "spez" });
    },
  }, { headers: { "User-Agent": "web:com.example:v1 (by /u/example)" } });
  await callbackWithCode(browser, "reddit");
  assert.deepEqual(await sessionUser(browser), { sub: "1w72", name: "spez" });
  assert.deepEqual(agents, [
    "web:com.example:v1 (by /u/example)",
    "web:com.example:v1 (by /u/example)",
  ]);
});

Deno.test("zoom with an unverified address signs in without an email", async () => {
  const { browser } = signInWith("zoom", {
    "https://zoom.us/oauth/token": () => json({ access_token: "z", token_type: "bearer" }),
    "https://api.zoom.us/v2/users/me": () =>
      json({ id: "z-1", display_name: "Jill", email: "victim@corp.example", verified: 0 }),
  });
  await callbackWithCode(browser, "zoom");
  assert.deepEqual(await sessionUser(browser), { sub: "z-1", name: "Jill" });
});

Deno.test("github sends its client id and secret as form parameters, no Basic header", async () => {
  let authorization: string | null = "unset";
  let form = new URLSearchParams();
  const { browser } = signInWith("github", {
    "https://github.com/login/oauth/access_token": async (request) => {
      authorization = request.headers.get("Authorization");
      form = new URLSearchParams(await request.text());
      return json({ access_token: "gho_x", token_type: "bearer", scope: "read:user,user:email" });
    },
    "https://api.github.com/user": () => json({ id: 7, login: "ada", email: null }),
    "https://api.github.com/user/emails": () =>
      json([{ email: "ada@example.org", verified: true, primary: true, visibility: null }]),
  });
  await callbackWithCode(browser, "github");
  assert.deepEqual(await sessionUser(browser), {
    sub: "7",
    name: "ada",
    email: "ada@example.org",
    emailVerified: true,
  });
  assert.equal(authorization, null);
  assert.equal(form.get("client_id"), "github-id");
  assert.equal(form.get("client_secret"), "github-secret");
});

Deno.test("each re-checked built-in authenticates to its token endpoint as its provider documents", () => {
  const documented = {
    amazon: "client_secret_post",
    auth0: "client_secret_basic",
    bitbucket: "client_secret_basic",
    discord: "client_secret_basic",
    figma: "client_secret_basic",
    github: "client_secret_post",
    gitlab: "client_secret_basic",
    keycloak: "client_secret_basic",
    okta: "client_secret_basic",
    salesforce: "client_secret_post",
    strava: "client_secret_post",
  } as const;
  for (const [id, method] of Object.entries(documented)) {
    const provider = builtInProviders[id as keyof typeof documented];
    assert.equal(provider.clientAuthMethod ?? "client_secret_basic", method, id);
  }
});
