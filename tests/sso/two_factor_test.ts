// The two-factor gate applies to single sign-on as to every first factor: an
// enrolled user's callback makes no session and goes to the second-step page.
import assert from "node:assert/strict";
import { createMockProvider } from "../../testing.ts";
import { codeAt, nextStep, world } from "../two_factor/_world.ts";
import { getSession, pathOf, setCookies } from "../oauth/_flow_helpers.ts";
import { Browser, ORIGIN, SSO_CALLBACK, startSso } from "./_helpers.ts";

async function postJson(browser: Browser, path: string, body: unknown = {}): Promise<Response> {
  const { csrfToken } = await (await browser.get("/auth/csrfToken")).json();
  const response = await browser.handler(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRF-Token": csrfToken,
        Origin: ORIGIN,
        Cookie: browser.cookieHeader(),
      },
      body: JSON.stringify(body),
    }),
  );
  browser.store(response);
  return response;
}

Deno.test("sso: an enrolled user stops at the second step, with no session", async () => {
  const acme = createMockProvider({
    baseURL: "http://acme.localhost",
    id: "acme",
    redirectURIs: [SSO_CALLBACK],
    users: [{ sub: "u1", name: "User One", email: "one@acme.example" }],
    oidc: { discovery: true },
  });
  const asked: string[] = [];
  const holder: { records?: Map<string, string | null> } = {};
  const w = world({
    load: (sub) => {
      asked.push(sub);
      return holder.records!.get(sub) ?? null;
    },
    config: {
      fetch: acme.fetch,
      sso: {
        resolve: () => ({
          id: "acme",
          issuer: acme.issuer,
          clientId: acme.provider.clientId,
          clientSecret: acme.provider.clientSecret as string,
          domains: ["acme.example"],
        }),
      },
    },
  });
  holder.records = w.records;
  const signIn = async (browser: Browser) => {
    const url = await startSso(browser, { organization: "acme", redirectTo: "/home" });
    const answer = await acme.fetch(url.href);
    return await browser.get(pathOf(new URL(answer.headers.get("Location")!)));
  };
  // Signed in by single sign-on, acme:u1 turns two-factor sign-in on.
  const first = new Browser(w.auth.handlers.ALL);
  assert.equal((await signIn(first)).headers.get("Location"), "/home");
  const started = await postJson(first, "/auth/twoFactor/enroll");
  assert.equal(started.status, 200, await started.clone().text());
  const { secret } = await started.json();
  const confirmed = await postJson(first, "/auth/twoFactor/confirm", {
    code: await codeAt(w, secret),
  });
  assert.equal(confirmed.status, 200, await confirmed.clone().text());
  nextStep(w);
  // The next single sign-on stops at the second step.
  const browser = new Browser(w.auth.handlers.ALL);
  const response = await signIn(browser);
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/auth/twoFactor");
  const set = [...setCookies(response).keys()];
  assert.ok(!set.some((name) => name.includes("session_token")), `a session was set: ${set}`);
  assert.ok(set.some((name) => name.includes("two_factor")), `no two_factor cookie: ${set}`);
  assert.ok(asked.includes("acme:u1"));
  assert.equal(await (await getSession(browser)).json(), null);
});
