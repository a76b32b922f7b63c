// The whole OAuth flow over loopback: the mock provider and the auth
// handlers each served by Deno.serve on port 0, driven like a browser that
// follows redirects by hand and keeps cookies.
import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { createMockProvider, type MockProvider } from "../../testing.ts";
import { CookieJar as Jar } from "../support/cookie_jar.ts";

const SECRET = "e2e-secret-0123456789abcdef-0123456789abcdef";

interface Served {
  url: string;
  close(): Promise<void>;
}

function serve(handler: (request: Request) => Response | Promise<Response>): Served {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function withServers(
  fn: (app: Served, mock: MockProvider) => Promise<void>,
  mockOptions: Parameters<typeof createMockProvider>[0] = {},
): Promise<void> {
  const holder: { mock?: MockProvider } = {};
  const provider = serve((request) => holder.mock!.handler(request));
  const mock = holder.mock = createMockProvider({
    baseURL: provider.url,
    users: [{ sub: "mock-user-1", name: "Grace Hopper", email: "grace@example.com" }],
    ...mockOptions,
  });
  const auth = createAuth({ oauth: [mock.provider], secret: SECRET, logger: false });
  const app = serve((request) => auth.handlers.ALL(request));
  try {
    await fn(app, mock);
  } finally {
    await app.close();
    await provider.close();
  }
}

async function get(url: string, jar: Jar, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, {
    redirect: "manual",
    headers: { Cookie: jar.header(url), ...headers },
  });
  jar.store(response, url);
  return response;
}

/** Follows the sign-in through the provider back to the callback; returns the callback response. */
async function signInThroughProvider(app: Served, jar: Jar, query = ""): Promise<Response> {
  const start = await get(`${app.url}/auth/signIn/mock${query}`, jar);
  assert.equal(start.status, 302);
  const authorize = await get(start.headers.get("Location")!, jar);
  assert.equal(authorize.status, 302);
  const callback = authorize.headers.get("Location")!;
  assert.ok(callback.startsWith(`${app.url}/auth/callback/mock?`));
  return get(callback, jar);
}

Deno.test("oauth e2e: sign-in, callback, session and sign-out over loopback", async () => {
  await withServers(async (app, mock) => {
    const jar = new Jar();
    const callback = await signInThroughProvider(app, jar, "?redirectTo=%2Fdashboard");
    assert.equal(callback.status, 302);
    assert.equal(callback.headers.get("Location"), "/dashboard");
    assert.ok(jar.get("service-stack.session_token") !== undefined);
    assert.ok(jar.get("service-stack.state") === undefined, "flow cookies are cleared");

    const session = await get(`${app.url}/auth/session`, jar);
    assert.equal(session.status, 200);
    const body = await session.json();
    assert.deepEqual(body.user, {
      sub: "mock-user-1",
      name: "Grace Hopper",
      email: "grace@example.com",
      emailVerified: true,
    });
    assert.ok(new Date(body.expires).getTime() > Date.now());

    const token = mock.requests.find((record) => record.endpoint === "token");
    assert.equal(token?.clientAuthMethod, "client_secret_basic");
    assert.equal(token?.status, 200);

    const csrf = await (await get(`${app.url}/auth/csrfToken`, jar)).json();
    const signOut = await fetch(`${app.url}/auth/signOut`, {
      method: "POST",
      headers: { Cookie: jar.header(app.url), "X-CSRF-Token": csrf.csrfToken },
    });
    jar.store(signOut, `${app.url}/auth/signOut`);
    assert.equal(signOut.status, 200);
    assert.deepEqual(await signOut.json(), { ok: true });
    const after = await get(`${app.url}/auth/session`, jar);
    assert.equal(after.status, 200);
    assert.equal(await after.json(), null);
  });
});

Deno.test("oauth e2e: the authorization request carries S256 PKCE, state and the callback URI", async () => {
  await withServers(async (app) => {
    const jar = new Jar();
    const start = await get(
      `${app.url}/auth/signIn/mock?state=evil&client_id=evil&redirect_uri=http://evil`,
      jar,
    );
    const url = new URL(start.headers.get("Location")!);
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.match(url.searchParams.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(url.searchParams.get("state")!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(url.searchParams.get("redirect_uri"), `${app.url}/auth/callback/mock`);
    assert.equal(url.searchParams.get("client_id"), "mock-client-id");
    assert.equal(url.searchParams.getAll("state").length, 1);
    for (const line of start.headers.getSetCookie()) {
      assert.match(line, /HttpOnly/);
      assert.match(line, /SameSite=Lax/);
      assert.match(line, /Max-Age=600/);
    }
  });
});

Deno.test("oauth e2e: a provider denial redirects to the target with access_denied", async () => {
  await withServers(async (app) => {
    const jar = new Jar();
    const callback = await signInThroughProvider(app, jar, "?redirectTo=%2Fhome");
    assert.equal(callback.status, 302);
    const location = new URL(callback.headers.get("Location")!, app.url);
    assert.equal(location.pathname, "/home");
    assert.equal(location.searchParams.get("error"), "access_denied");
    assert.ok(jar.get("service-stack.session_token") === undefined);
  }, { decide: "deny" });
});

Deno.test("oauth e2e: a replayed callback URL fails and creates no session", async () => {
  await withServers(async (app) => {
    const jar = new Jar();
    const start = await get(`${app.url}/auth/signIn/mock`, jar);
    const flowCookies = jar.header(app.url);
    const authorize = await get(start.headers.get("Location")!, jar);
    const callbackURL = authorize.headers.get("Location")!;
    const first = await get(callbackURL, jar);
    assert.equal(new URL(first.headers.get("Location")!, app.url).searchParams.get("error"), null);
    // The attacker replays the same callback with the captured flow cookies.
    const replayJar = new Jar();
    const replay = await fetch(callbackURL, {
      redirect: "manual",
      headers: { Cookie: flowCookies },
    });
    replayJar.store(replay, callbackURL);
    assert.equal(replay.status, 302);
    // Refused by the single-use state (this process's memory, no store) before the provider is asked.
    assert.equal(
      new URL(replay.headers.get("Location")!, app.url).searchParams.get("error"),
      "invalid_request",
    );
    assert.ok(replayJar.get("service-stack.session_token") === undefined);
  });
});
