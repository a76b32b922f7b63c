// createAuth of core.ts (no table of built-in providers: each provider passed as an object), and
// built-ins passed as objects to either createAuth resolving as their ids do.
import assert from "node:assert/strict";
import { createAuth, github, microsoft, okta } from "../core.ts";
import { createAuth as createAuthWithTable } from "../mod.ts";
import { contextOf } from "../src/create_auth.ts";

const SECRET = "core-entry-test-secret-0123456789abcdef";
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const ENV = { GITHUB_CLIENT_ID: "gh-id", GITHUB_CLIENT_SECRET: "gh-secret" };

function providerOf(auth: object, id: string) {
  const provider = contextOf(auth).providers.get(id);
  assert.ok(provider, `provider ${id} is configured`);
  return provider;
}

Deno.test("core createAuth signs in with a built-in passed as an object", async () => {
  const auth = createAuth({ oauth: [github], secret: SECRET, env: ENV, logger: false });
  const response = await auth.handlers.ALL(
    new Request("http://localhost/auth/signIn/github?redirect=false"),
  );
  const url = new URL((await response.json()).url);
  assert.equal(url.origin + url.pathname, "https://github.com/login/oauth/authorize");
  assert.equal(url.searchParams.get("client_id"), "gh-id");
  assert.equal(url.searchParams.get("scope"), "read:user user:email");
});

Deno.test("core createAuth refuses a provider id, naming the object to pass", () => {
  assert.throws(
    () => createAuth({ oauth: ["github"], secret: SECRET, env: ENV, logger: false }),
    (error: unknown) =>
      error instanceof TypeError &&
      /provider "github" is named by its id.*@service-stack\/auth\/core exports \(oauth: \[github\]\)/
        .test(error.message),
  );
});

Deno.test("core createAuth applies a built-in's options from the environment and the entry", () => {
  const env = {
    MICROSOFT_CLIENT_ID: "ms-id",
    MICROSOFT_CLIENT_SECRET: "ms-secret",
    MICROSOFT_TENANT_ID: TENANT,
    OKTA_CLIENT_ID: "okta-id",
    OKTA_CLIENT_SECRET: "okta-secret",
  };
  const auth = createAuth({
    oauth: [microsoft, { ...okta, issuer: "https://dev-1.okta.com/" }],
    secret: SECRET,
    env,
    logger: false,
  });
  assert.equal(
    providerOf(auth, "microsoft").authorizeURL,
    `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/authorize`,
  );
  // Okta's issuer option is brought to its canonical form (no trailing slash).
  assert.equal(providerOf(auth, "okta").issuer, "https://dev-1.okta.com");
});

Deno.test("a built-in passed as an object resolves as its id does, options included", () => {
  const env = { MICROSOFT_CLIENT_ID: "ms-id", MICROSOFT_CLIENT_SECRET: "ms-secret" };
  for (
    const entry of [{ ...microsoft, tenant: TENANT }, { id: "microsoft" as const, tenant: TENANT }]
  ) {
    const auth = createAuthWithTable({ oauth: [entry], secret: SECRET, env, logger: false });
    const provider = providerOf(auth, "microsoft");
    assert.equal(
      provider.accessToken,
      `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/token`,
    );
    assert.equal(provider.issuer, `https://login.microsoftonline.com/${TENANT}/v2.0`);
  }
});

Deno.test("an entry's own field still wins over what a built-in's options set", () => {
  const env = { MICROSOFT_CLIENT_ID: "ms-id", MICROSOFT_CLIENT_SECRET: "ms-secret" };
  const authorizeURL = "https://login.example.com/authorize";
  for (const create of [createAuth, createAuthWithTable]) {
    const auth = create({
      oauth: [{ ...microsoft, tenant: TENANT, authorizeURL }],
      secret: SECRET,
      env,
      logger: false,
    });
    const provider = providerOf(auth, "microsoft");
    assert.equal(provider.authorizeURL, authorizeURL);
    assert.equal(
      provider.accessToken,
      `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/token`,
    );
  }
});

Deno.test("a custom provider's options and configure must have their shapes", () => {
  const custom = {
    id: "corp",
    name: "Corp",
    authorizeURL: "https://id.corp.example/authorize",
    accessToken: "https://id.corp.example/token",
    userInfo: "https://id.corp.example/userinfo",
    scope: "profile",
    clientId: "id",
    clientSecret: "secret",
  };
  for (const create of [createAuth, createAuthWithTable]) {
    for (
      const [extra, message] of [
        [{ options: "issuer" }, /provider "corp" options must be a list of option names/],
        [{ options: ["realm"] }, /provider "corp" options must be a list of option names/],
        [{ configure: "yes" }, /provider "corp" configure must be a function/],
      ] as const
    ) {
      assert.throws(
        // A shape the types refuse too: the check is for untyped callers.
        () => create({ oauth: [{ ...custom, ...extra } as never], secret: SECRET, logger: false }),
        (error: unknown) => error instanceof TypeError && message.test(error.message),
      );
    }
  }
});

Deno.test("a frozen custom provider object is not written to", () => {
  const custom = Object.freeze({
    id: "corp",
    name: "Corp",
    authorizeURL: "https://id.corp.example/authorize",
    accessToken: "https://id.corp.example/token",
    userInfo: "https://id.corp.example/userinfo",
    scope: "profile",
  });
  const env = { CORP_CLIENT_ID: "corp-id", CORP_CLIENT_SECRET: "corp-secret" };
  for (const create of [createAuth, createAuthWithTable]) {
    // Credentials from the environment: the types ask for clientId on a custom provider.
    const auth = create({ oauth: [custom as never], secret: SECRET, env, logger: false });
    assert.equal(providerOf(auth, "corp").clientId, "corp-id");
  }
});
