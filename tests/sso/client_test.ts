// signIn.sso of the browser client against a real handler: POST /signIn/sso
// with a CSRF token, then the browser sent to the organization's provider.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth } from "../../mod.ts";
import { createAuthClient } from "../../client.ts";
import { createMockProvider } from "../../testing.ts";
import { stubLocation } from "../client/fake_auth_server.ts";
import { Browser, ORIGIN, SSO_CALLBACK } from "./_helpers.ts";

function setup() {
  const acme = createMockProvider({
    baseURL: "http://acme.localhost",
    id: "acme",
    redirectURIs: [SSO_CALLBACK],
    oidc: { discovery: true },
  });
  const auth = createAuth({
    oauth: [],
    secret: "sso-client-test-secret-0123456789-abcdef",
    logger: false,
    fetch: acme.fetch,
    sso: {
      resolve: ({ domain, organization }) =>
        domain === "acme.example" || organization === "acme"
          ? {
            id: "acme",
            issuer: acme.issuer,
            clientId: acme.provider.clientId,
            clientSecret: acme.provider.clientSecret as string,
            domains: ["acme.example"],
          }
          : null,
    },
  } as AuthConfig);
  const browser = new Browser(auth.handlers.ALL);
  // The page's fetch: same origin, the browser's cookies.
  const pageFetch = async (input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Cookie", browser.cookieHeader());
    headers.set("Origin", ORIGIN);
    const response = await auth.handlers.ALL(
      new Request(new URL(input, ORIGIN), { ...init, headers }),
    );
    browser.store(response);
    return response;
  };
  return { acme, client: createAuthClient({ fetch: pageFetch }) };
}

Deno.test("client signIn.sso by email resolves the provider's URL and navigates there", async () => {
  const { acme, client } = setup();
  const location = stubLocation();
  try {
    const result = await client.signIn.sso({ email: "ada@acme.example" }, { redirectTo: "/home" });
    assert.equal(result.error, null);
    const url = new URL(result.data!.url);
    assert.equal(url.origin, acme.issuer);
    assert.deepEqual(location.assigned, [result.data!.url]);
  } finally {
    location.restore();
  }
});

Deno.test("client signIn.sso by organization with redirect: false only returns the URL", async () => {
  const { acme, client } = setup();
  const location = stubLocation();
  try {
    const result = await client.signIn.sso({ organization: "acme" }, { redirect: false });
    assert.equal(new URL(result.data!.url).origin, acme.issuer);
    assert.deepEqual(location.assigned, []);
  } finally {
    location.restore();
  }
});

Deno.test("client signIn.sso for a domain without single sign-on resolves the 404 error", async () => {
  const { client } = setup();
  const location = stubLocation();
  try {
    const result = await client.signIn.sso({ email: "ada@nowhere.example" });
    assert.equal(result.data, null);
    assert.equal(result.error?.error, "invalid_request");
    assert.equal(result.error?.status, 404);
    assert.deepEqual(location.assigned, []);
  } finally {
    location.restore();
  }
});
