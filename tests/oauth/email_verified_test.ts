// emailVerified on a provider sign-in: true only for the address the provider vouched for.
import assert from "node:assert/strict";
import { ORIGIN, setupMock, signInThrough } from "./_flow_helpers.ts";

async function sessionUser(
  options: Parameters<typeof setupMock>[0],
): Promise<Record<string, unknown>> {
  const { mock, browser } = setupMock(options);
  const callback = await signInThrough(browser, mock);
  assert.equal(callback.status, 302);
  const session = await (await browser.get("/auth/session")).json();
  assert.ok(session, `no session at ${ORIGIN}`);
  return session.user;
}

Deno.test("OIDC: email_verified true marks the session's address verified", async () => {
  const user = await sessionUser({
    mock: { users: [{ sub: "u1", name: "Ada", email: "ada@example.com", email_verified: true }] },
  });
  assert.equal(user.email, "ada@example.com");
  assert.equal(user.emailVerified, true);
});

Deno.test("OAuth without a verification flag: the email is kept but not marked verified", async () => {
  const user = await sessionUser({
    mock: { oidc: false, users: [{ sub: "u2", name: "Bob", email: "bob@example.com" }] },
  });
  assert.equal(user.email, "bob@example.com");
  assert.equal(user.emailVerified, undefined);
});

Deno.test("a profile mapper that returns another address than the verified one gets no mark", async () => {
  const { mock } = setupMock();
  const user = await sessionUser({
    mock: { users: [{ sub: "u3", email: "carol@example.com", email_verified: true }] },
    auth: {
      oauth: [{
        ...mock.provider,
        profile: (p) => ({ sub: String(p.sub), email: "other@example.com" }),
      }],
    },
  });
  assert.equal(user.email, "other@example.com");
  assert.equal(user.emailVerified, undefined);
});

Deno.test("a profile cannot set emailVerified itself; a hook passing it through adds nothing", async () => {
  const user = await sessionUser({
    mock: { oidc: false, users: [{ sub: "u4", email: "dan@example.com" }] },
    auth: { callbacks: { signIn: ({ user }) => user } },
  });
  assert.equal(user.emailVerified, undefined);
});

Deno.test("callbacks.signIn may say the address is verified in the app's records (DECISIONS, Sessions)", async () => {
  const user = await sessionUser({
    mock: { oidc: false, users: [{ sub: "u4", email: "dan@example.com" }] },
    auth: { callbacks: { signIn: ({ user }) => ({ ...user, emailVerified: true }) } },
  });
  assert.equal(user.emailVerified, true);
});

Deno.test("built-ins whose mapper keeps only verified addresses say so; those without a flag do not", async () => {
  const { builtInProviders } = await import("../../src/oauth/providers/mod.ts");
  const verifying = Object.values(builtInProviders).filter((p) => p.verifiesEmail === true)
    .map((p) => p.id).sort();
  assert.deepEqual(verifying, [
    "apple",
    "auth0",
    "bitbucket",
    "cognito",
    "discord",
    "dropbox",
    "github",
    "gitlab",
    "google",
    "kakao",
    "keycloak",
    "linkedin",
    "microsoft",
    "okta",
    "patreon",
    "salesforce",
    "slack",
    "twitch",
    "x",
    "yahoo",
    "zoom",
  ]);
});

Deno.test("a built-in's guarantee holds only with its own mapper; a custom provider cannot claim it", async () => {
  const { createAuth } = await import("../../mod.ts");
  const { github } = await import("../../core.ts");
  const resolved = (oauth: unknown[]) =>
    createAuth({ oauth: oauth as never, secret: "x".repeat(40), logger: false, env: {} });
  // A spread keeps the mapper, so it keeps the guarantee; an app's own profile drops it.
  resolved([{ ...github, clientId: "id", clientSecret: "secret" }]);
  assert.throws(
    () =>
      resolved([{
        id: "corp",
        name: "Corp",
        authorizeURL: "https://id.corp.example/authorize",
        accessToken: "https://id.corp.example/token",
        userInfo: "https://id.corp.example/userinfo",
        scope: "email",
        responseType: "code",
        clientId: "id",
        clientSecret: "secret",
        verifiesEmail: true,
      }]),
    /verifiesEmail, which only built-in providers declare/,
  );
});

Deno.test("github: the verified address from /user/emails is marked verified; with the app's own profile it is not", async () => {
  const { createAuth } = await import("../../mod.ts");
  const { Browser, pathOf } = await import("./_flow_helpers.ts");
  const answer = (body: unknown) =>
    Promise.resolve(
      new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } }),
    );
  const fetchGithub = (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/login/oauth/access_token") {
      return answer({ access_token: "t", token_type: "bearer", scope: "read:user,user:email" });
    }
    if (url.pathname === "/user") return answer({ id: 1, login: "mona", email: null });
    if (url.pathname === "/user/emails") {
      return answer([{ email: "mona@example.com", primary: true, verified: true }]);
    }
    return Promise.resolve(new Response("not found", { status: 404 }));
  };
  for (const own of [false, true]) {
    const entry = own
      ? {
        id: "github" as const,
        profile: (p: Record<string, unknown>) => ({ sub: String(p.id), email: "mona@example.com" }),
      }
      : "github" as const;
    const auth = createAuth({
      oauth: [entry],
      secret: "x".repeat(40),
      logger: false,
      env: { GITHUB_CLIENT_ID: "id", GITHUB_CLIENT_SECRET: "secret" },
      fetch: fetchGithub as typeof fetch,
    });
    const browser = new Browser(auth.handlers.ALL);
    const start = await browser.get("/auth/signIn/github");
    const state = new URL(start.headers.get("Location")!).searchParams.get("state")!;
    const callback = new URL(`${ORIGIN}/auth/callback/github?code=c&state=${state}`);
    await browser.get(pathOf(callback));
    const session = await (await browser.get("/auth/session")).json();
    assert.equal(session.user.email, "mona@example.com");
    assert.equal(
      session.user.emailVerified,
      own ? undefined : true,
      own ? "own profile" : "built-in",
    );
  }
});
