// Enterprise sign-in end to end with two real OpenID providers (two
// oidc-provider instances, each its own issuer, keys, client and users) as
// two organizations: each signs in; every mix-up between them is refused
// before any token endpoint is called; emails are kept only for the
// connection's own domains and when verified; interleaved sign-ins land as
// their own users; discovery is fetched once per issuer.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, type SsoConnection } from "../../mod.ts";
import { assertErrorRedirect, getSession, pathOf } from "../oauth/_flow_helpers.ts";
import {
  completeDevInteractions,
  installOidcProvider,
  type OidcProviderServer,
  startOidcProvider,
} from "../support/oidc_provider.ts";
import { missingTool } from "../support/tools.ts";
import { Browser, SSO_CALLBACK, startSso, tableResolver } from "./_helpers.ts";

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

function connectionOf(id: string, op: OidcProviderServer, domain: string): SsoConnection {
  return {
    id,
    issuer: op.issuer,
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    domains: [domain],
  };
}

/** Counts the requests the app sends, by URL without query. */
function countingFetch() {
  const counts = new Map<string, number>();
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const key = `${url.origin}${url.pathname}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return fetch(input, init);
  };
  return { fetch: fetchFn as typeof fetch, hits: (url: string) => counts.get(url) ?? 0 };
}

Deno.test({
  name: "sso with two real OpenID providers as two organizations",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const [acmeOP, globexOP] = await Promise.all([
      startOidcProvider({
        redirectURIs: [SSO_CALLBACK],
        clientId: "acme-client",
        clientSecret: "acme-secret-0123456789-0123456789-abcdef",
        emailDomain: "acme.example",
      }),
      startOidcProvider({
        redirectURIs: [SSO_CALLBACK],
        clientId: "globex-client",
        clientSecret: "globex-secret-0123456789-0123456789-abcde",
        emailDomain: "globex.example",
      }),
    ]);
    try {
      const acme = connectionOf("acme", acmeOP, "acme.example");
      const globex = connectionOf("globex", globexOP, "globex.example");
      const table = tableResolver([acme, globex]);
      const counting = countingFetch();
      const signIns: { provider: string; sub: string }[] = [];
      const auth = createAuth({
        oauth: [],
        secret: "sso-real-provider-test-secret-0123456789-abcdef",
        logger: false,
        fetch: counting.fetch,
        // Some 40 sign-ins from one address: the organizations are under test, not the limiter.
        rateLimit: false,
        sso: { resolve: table.resolve },
        callbacks: {
          signIn: ({ user, provider }) => {
            signIns.push({ provider, sub: user.sub });
            return user;
          },
        },
      } as AuthConfig);
      const tokenCalls = async () =>
        (await acmeOP.requests("/token")) + (await globexOP.requests("/token"));

      /** Runs a whole sign-in for a login at the organization an email or id names. */
      const signIn = async (body: Record<string, unknown>, login: string) => {
        const browser = new Browser(auth.handlers.ALL);
        const authorization = await startSso(browser, { ...body, redirectTo: "/home" });
        const callback = await completeDevInteractions(authorization, {
          redirectURI: SSO_CALLBACK,
          login,
        });
        const response = await browser.get(pathOf(callback));
        return { browser, response };
      };

      await t.step("each organization signs in end to end as <id>:<sub>", async () => {
        for (
          const [id, op, domain] of [["acme", acmeOP, "acme.example"], [
            "globex",
            globexOP,
            "globex.example",
          ]] as const
        ) {
          const { browser, response } = await signIn({ email: `someone@${domain}` }, "alice");
          assert.equal(response.headers.get("Location"), "/home");
          const session = await (await getSession(browser)).json();
          assert.deepEqual(session.user, {
            sub: `${id}:alice`,
            name: "User alice",
            email: `alice@${domain}`,
            emailVerified: true,
          });
          assert.equal(op.issuer.startsWith("http://127.0.0.1:"), true);
        }
        assert.deepEqual(signIns.slice(-2), [
          { provider: "sso:acme", sub: "acme:alice" },
          { provider: "sso:globex", sub: "globex:alice" },
        ]);
      });

      await t.step("by organization: the authorization URL is that organization's", async () => {
        const browser = new Browser(auth.handlers.ALL);
        const url = await startSso(browser, { organization: "globex" });
        assert.equal(url.origin, globexOP.issuer);
        assert.equal(url.searchParams.get("client_id"), "globex-client");
        assert.equal(url.searchParams.get("redirect_uri"), SSO_CALLBACK);
        assert.equal(url.searchParams.get("code_challenge_method"), "S256");
        assert.match(url.searchParams.get("nonce") ?? "", /^[A-Za-z0-9_-]{43}$/);
      });

      await t.step("an email outside the connection's domains is dropped", async () => {
        const { browser, response } = await signIn({ organization: "acme" }, "eve@globex.example");
        assert.equal(response.headers.get("Location"), "/home");
        const session = await (await getSession(browser)).json();
        assert.equal(session.user.sub, "acme:eve@globex.example");
        assert.equal(session.user.email, undefined);
        assert.equal(session.user.emailVerified, undefined);
      });

      await t.step("an unverified email is dropped", async () => {
        const { browser } = await signIn({ organization: "globex" }, "bob.unverified");
        const session = await (await getSession(browser)).json();
        assert.equal(session.user.sub, "globex:bob.unverified");
        assert.equal(session.user.email, undefined);
      });

      await t.step("mix-ups are refused before any token endpoint is called", async () => {
        // Each case: A's flow in one browser, B's answer (or parts of it) delivered to it.
        const cases: [string, (a: URL, b: URL, cb: URL) => URL][] = [
          ["the other organization's whole answer (code, state, iss)", (_a, _b, cb) => cb],
          ["its code and iss with this flow's state", (a, _b, cb) => {
            cb.searchParams.set("state", a.searchParams.get("state")!);
            return cb;
          }],
          ["its code with this flow's state and no iss", (a, _b, cb) => {
            cb.searchParams.set("state", a.searchParams.get("state")!);
            cb.searchParams.delete("iss");
            return cb;
          }],
          ["this flow's state and the other's iss only", (a, b, _cb) => {
            const url = new URL(SSO_CALLBACK);
            url.searchParams.set("code", "x");
            url.searchParams.set("state", a.searchParams.get("state")!);
            url.searchParams.set("iss", b.origin);
            return url;
          }],
          ["an ID token of the other organization in the query", (a, _b, cb) => {
            const url = new URL(SSO_CALLBACK);
            url.searchParams.set("state", a.searchParams.get("state")!);
            url.searchParams.set("iss", a.origin);
            url.searchParams.set("id_token", cb.searchParams.get("code")!);
            return url;
          }],
        ];
        for (const [name, deliver] of cases) {
          for (const [first, second] of [["acme", "globex"], ["globex", "acme"]]) {
            const victim = new Browser(auth.handlers.ALL);
            const other = new Browser(auth.handlers.ALL);
            const a = await startSso(victim, { organization: first, redirectTo: "/home" });
            const b = await startSso(other, { organization: second, redirectTo: "/home" });
            const answer = await completeDevInteractions(b, {
              redirectURI: SSO_CALLBACK,
              login: "mallory",
            });
            const before = await tokenCalls();
            const response = await victim.get(pathOf(deliver(a, b, answer)));
            assertErrorRedirect(response, "/home", "invalid_request");
            assert.equal(
              await tokenCalls(),
              before,
              `${name} (${first}): a token endpoint was called`,
            );
            assert.equal(await (await getSession(victim)).json(), null, name);
          }
        }
      });

      await t.step(
        "the RFC 9207 forwarding attack is refused before the code is sent",
        async () => {
          // The browser starts at globex (the attacker's organization here); its authorization
          // request is forwarded to acme with the same state, PKCE challenge and nonce; acme's
          // honest answer (iss = acme) comes back to the globex flow.
          const browser = new Browser(auth.handlers.ALL);
          const globexStart = await startSso(browser, {
            organization: "globex",
            redirectTo: "/home",
          });
          const forwarded = new URL(`${acmeOP.issuer}/auth`);
          for (const [key, value] of globexStart.searchParams) {
            forwarded.searchParams.set(key, value);
          }
          forwarded.searchParams.set("client_id", "acme-client");
          const answer = await completeDevInteractions(forwarded, {
            redirectURI: SSO_CALLBACK,
            login: "victim",
          });
          assert.equal(answer.searchParams.get("iss"), acmeOP.issuer);
          const before = await tokenCalls();
          assertErrorRedirect(await browser.get(pathOf(answer)), "/home", "invalid_request");
          assert.equal(await tokenCalls(), before);
          // Stripped of iss, the answer is refused too (globex advertises RFC 9207).
          const again = new Browser(auth.handlers.ALL);
          const second = await startSso(again, { organization: "globex", redirectTo: "/home" });
          const forwardedAgain = new URL(`${acmeOP.issuer}/auth`);
          for (const [key, value] of second.searchParams) {
            forwardedAgain.searchParams.set(key, value);
          }
          forwardedAgain.searchParams.set("client_id", "acme-client");
          const stripped = await completeDevInteractions(forwardedAgain, {
            redirectURI: SSO_CALLBACK,
            login: "victim",
          });
          stripped.searchParams.delete("iss");
          assertErrorRedirect(await again.get(pathOf(stripped)), "/home", "invalid_request");
          assert.equal(await tokenCalls(), before);
        },
      );

      await t.step("10 interleaved sign-ins across both land as their own users", async () => {
        const flows = await Promise.all(Array.from({ length: 10 }, async (_, i) => {
          const org = i % 2 === 0 ? "acme" : "globex";
          const browser = new Browser(auth.handlers.ALL);
          const authorization = await startSso(browser, { organization: org, redirectTo: "/home" });
          return { browser, authorization, expected: `${org}:user${i}`, login: `user${i}` };
        }));
        const answers = await Promise.all(
          flows.map((flow) =>
            completeDevInteractions(flow.authorization, {
              redirectURI: SSO_CALLBACK,
              login: flow.login,
            })
          ),
        );
        // Completed in reverse order of their start.
        for (let i = flows.length - 1; i >= 0; i--) {
          const response = await flows[i].browser.get(pathOf(answers[i]));
          assert.equal(response.headers.get("Location"), "/home");
        }
        for (const flow of flows) {
          const session = await (await getSession(flow.browser)).json();
          assert.equal(session.user.sub, flow.expected);
        }
      });

      await t.step("discovery and the JWKS were fetched once per issuer", () => {
        for (const op of [acmeOP, globexOP]) {
          assert.equal(counting.hits(`${op.issuer}/.well-known/openid-configuration`), 1);
          assert.equal(counting.hits(`${op.issuer}/jwks`), 1);
        }
      });
    } finally {
      await Promise.all([acmeOP.stop(), globexOP.stop()]);
    }
  },
});
