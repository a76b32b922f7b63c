// Token-purpose confusion: a token minted for one purpose (CSRF, OAuth flow,
// another instance, another mode) is never accepted for another.
import assert from "node:assert/strict";
import { createMockProvider } from "../../testing.ts";
import { decodeBase64Url, encodeBase64Url } from "../../src/jose/base64url.ts";
import type { AuthConfig } from "../../mod.ts";
import { assertError, assertNoSession, Browser, makeAuth, ORIGIN } from "./_helpers.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";
const FLOW = ["state", "code_verifier", "redirect_to", "redirect_uri"];

function getSession(auth: ReturnType<typeof makeAuth>, token: string): Promise<Response> {
  return auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: `${SESSION}=${token}` } }),
  );
}

async function sessionToken(auth: ReturnType<typeof makeAuth>): Promise<string> {
  const browser = new Browser(auth.handlers.ALL);
  assert.equal((await browser.signIn()).status, 200);
  return browser.cookies.get(SESSION)!;
}

function json(segment: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(decodeBase64Url(segment)));
}

function segment(value: unknown): string {
  return encodeBase64Url(new TextEncoder().encode(JSON.stringify(value)));
}

for (const mode of ["sealed", "signed", "encrypted"] as const) {
  Deno.test(`confusion (${mode}): a CSRF token pasted as the session cookie is no session`, async () => {
    const auth = makeAuth({ jwt: { mode } });
    const csrf = await new Browser(auth.handlers.ALL).csrf();
    await assertNoSession(await getSession(auth, csrf));
  });

  Deno.test(`confusion (${mode}): a session token used as the CSRF token is 403`, async () => {
    const auth = makeAuth({ jwt: { mode } });
    const browser = new Browser(auth.handlers.ALL);
    await browser.signIn();
    const session = browser.cookies.get(SESSION)!;
    browser.cookies.set(CSRF, session);
    const response = await browser.fetch("POST", "/auth/signOut", {
      headers: { "X-CSRF-Token": session },
    });
    await assertError(response, 403, "invalid_csrf_token");
  });

  Deno.test(`confusion (${mode}): OAuth flow cookie values pasted as the session cookie are no session`, async () => {
    const mock = createMockProvider();
    const auth = makeAuth({ jwt: { mode }, oauth: [mock.provider], fetch: mock.fetch });
    const browser = new Browser(auth.handlers.ALL);
    const start = await browser.fetch("GET", "/auth/signIn/mock");
    assert.equal(start.status, 302);
    for (const name of FLOW) {
      const value = browser.cookies.get(`service-stack.${name}`);
      assert.ok(value, name);
      await assertNoSession(await getSession(auth, value));
    }
  });
}

Deno.test("confusion: an OAuth flow cookie value used as the CSRF token is 403", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const browser = new Browser(auth.handlers.ALL);
  await browser.fetch("GET", "/auth/signIn/mock");
  const state = browser.cookies.get("service-stack.state")!;
  browser.cookies.set(CSRF, state);
  const response = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": state },
  });
  await assertError(response, 403, "invalid_csrf_token");
});

Deno.test("confusion: a session token from an instance with another secret is no session", async () => {
  const mine = makeAuth();
  const theirs = makeAuth({ secret: "their-secret-0123456789abcdef-0123456789abcdef" });
  await assertNoSession(await getSession(mine, await sessionToken(theirs)));
});

Deno.test("confusion: a session token of another jwt.mode with the same secret is no session", async () => {
  const modes = ["sealed", "signed", "encrypted"] as const;
  for (const issuer of modes) {
    const token = await sessionToken(makeAuth({ jwt: { mode: issuer } }));
    for (const reader of modes) {
      if (reader === issuer) continue;
      const auth = makeAuth({ jwt: { mode: reader } });
      await assertNoSession(await getSession(auth, token));
    }
  }
});

Deno.test("confusion: with jwt.mode signed a tampered payload is no session", async () => {
  const auth = makeAuth({ jwt: { mode: "signed" } });
  const token = await sessionToken(auth);
  const [header, payload, signature] = token.split(".");
  const claims = json(payload);
  for (const change of [{ sub: "admin" }, { name: "Mallory" }, { exp: Number(claims.exp) + 1 }]) {
    const tampered = `${header}.${segment({ ...claims, ...change })}.${signature}`;
    await assertNoSession(await getSession(auth, tampered));
  }
  assert.equal((await getSession(auth, token)).status, 200);
});

Deno.test("confusion: with jwt.mode signed an alg none token is no session", async () => {
  const auth = makeAuth({ jwt: { mode: "signed" } });
  const token = await sessionToken(auth);
  const claims = json(token.split(".")[1]);
  for (const alg of ["none", "None", "HS512"]) {
    const forged = `${segment({ alg, typ: "JWT" })}.${segment({ ...claims, sub: "admin" })}.`;
    await assertNoSession(await getSession(auth, forged));
  }
});

Deno.test("confusion: a session token with a swapped header is no session", async () => {
  const auth = makeAuth({ jwt: { mode: "signed" } });
  const token = await sessionToken(auth);
  const [header, payload, signature] = token.split(".");
  const swapped = `${segment({ ...json(header), typ: "csrf+jwt" })}.${payload}.${signature}`;
  await assertNoSession(await getSession(auth, swapped));
});

Deno.test("confusion: a session token works with the same secret, mode and salt", async () => {
  // The positive control for the cases above.
  const config: Partial<AuthConfig> = { jwt: { mode: "sealed" } };
  const token = await sessionToken(makeAuth(config));
  assert.equal((await getSession(makeAuth(config), token)).status, 200);
});
