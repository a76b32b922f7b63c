// End to end through the handler against a real, OpenID-certified provider
// (panva's oidc-provider under Node): discovery, the authorization-code flow
// with PKCE and a nonce, the ID token, user info and the session; RFC 9207
// (it announces iss, so a callback without it is refused); and form_post,
// with the provider's page posting cross-site to the callback.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth } from "../../../mod.ts";
import { assertErrorRedirect, Browser, getSession, ORIGIN, pathOf } from "../_flow_helpers.ts";
import {
  completeDevInteractions,
  completeDevInteractionsFormPost,
  installOidcProvider,
  type OidcProviderServer,
  startOidcProvider,
} from "../../support/oidc_provider.ts";
import { missingTool } from "../../support/tools.ts";

const REDIRECT_URI = `${ORIGIN}/auth/callback/oidc`;

/** Why these tests cannot run here, or undefined when they can. */
async function unavailable(): Promise<string | undefined> {
  if (missingTool("node")) return "no node";
  const install = await installOidcProvider();
  if ("skipped" in install) {
    console.log(`skipped: ${install.skipped}`);
    return install.skipped;
  }
  return undefined;
}

const ignore = (await unavailable()) !== undefined;

/** Counts the requests an instance sends, by path. */
function countingFetch(): { fetch: typeof fetch; hits: (path: string) => number } {
  const counts = new Map<string, number>();
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    return fetch(input, init);
  };
  return { fetch: fetchFn as typeof fetch, hits: (path) => counts.get(path) ?? 0 };
}

function setup(op: OidcProviderServer, entry: Record<string, unknown> = {}) {
  const counting = countingFetch();
  const auth = createAuth({
    oauth: [{
      id: "oidc",
      name: "oidc-provider",
      issuer: op.issuer,
      scope: "openid email profile",
      responseType: "code",
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      ...entry,
    }],
    secret: "real-provider-test-secret-0123456789-abcdef",
    logger: false,
    fetch: counting.fetch,
  } as AuthConfig);
  return { auth, browser: new Browser(auth.handlers.ALL), hits: counting.hits };
}

/** Starts a sign-in landing on /home; returns the provider's authorization URL. */
async function start(browser: Browser): Promise<URL> {
  const response = await browser.get("/auth/signIn/oidc?redirectTo=%2Fhome");
  assert.equal(response.status, 302);
  return new URL(response.headers.get("Location")!);
}

Deno.test({
  name: "a real provider: sign-in by discovery through the handler yields a session",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const { browser } = setup(op);
    const authorization = await start(browser);
    assert.match(authorization.searchParams.get("nonce") ?? "", /^[A-Za-z0-9_-]{43}$/);
    const callback = await completeDevInteractions(authorization, {
      redirectURI: REDIRECT_URI,
      login: "alice",
    });
    const response = await browser.get(pathOf(callback));
    assert.equal(response.headers.get("Location"), "/home");
    const session = await (await getSession(browser)).json();
    assert.deepEqual(session.user, {
      sub: "alice",
      name: "User alice",
      email: "alice@example.com",
      emailVerified: true,
    });
  },
});

Deno.test({
  name: "a real provider: discovery and the JWKS are fetched once for several sign-ins",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const { auth, hits } = setup(op);
    for (const login of ["alice", "bob", "carol"]) {
      const browser = new Browser(auth.handlers.ALL);
      const callback = await completeDevInteractions(await start(browser), {
        redirectURI: REDIRECT_URI,
        login,
      });
      assert.equal((await browser.get(pathOf(callback))).headers.get("Location"), "/home");
    }
    assert.equal(hits("/.well-known/openid-configuration"), 1);
    assert.equal(hits("/jwks"), 1);
    assert.equal(hits("/token"), 3);
  },
});

Deno.test({
  name: "a real provider: a callback stripped of iss is refused (it announces RFC 9207)",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const { browser, hits } = setup(op);
    const callback = await completeDevInteractions(await start(browser), {
      redirectURI: REDIRECT_URI,
    });
    callback.searchParams.delete("iss");
    assertErrorRedirect(await browser.get(pathOf(callback)), "/home", "invalid_request");
    assert.equal(hits("/token"), 0);
  },
});

Deno.test({
  name: "a real provider: the code of one browser's flow does not complete another's",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const { auth, browser } = setup(op);
    const victim = new Browser(auth.handlers.ALL);
    const victimFlow = await start(victim);
    const callback = await completeDevInteractions(await start(browser), {
      redirectURI: REDIRECT_URI,
      login: "mallory",
    });
    callback.searchParams.set("state", victimFlow.searchParams.get("state")!);
    const response = await victim.get(pathOf(callback));
    assertErrorRedirect(response, "/home", "invalid_grant");
  },
});

Deno.test({
  name: "a real provider: form_post posts cross-site to the callback and signs in",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const { auth, browser } = setup(op, { responseMode: "form_post" });
    const authorization = await start(browser);
    assert.equal(authorization.searchParams.get("response_mode"), "form_post");
    const post = await completeDevInteractionsFormPost(authorization, {
      redirectURI: REDIRECT_URI,
      login: "dave",
    });
    assert.equal(post.action.href, REDIRECT_URI);
    assert.deepEqual([...post.fields.keys()].sort(), ["code", "iss", "state"]);
    const response = await auth.handlers.ALL(
      new Request(post.action, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: post.origin,
          Cookie: browser.cookieHeader(),
        },
        body: post.fields,
      }),
    );
    browser.store(response);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get("Location"), "/home");
    const session = await (await getSession(browser)).json();
    assert.equal(session.user.sub, "dave");
  },
});
