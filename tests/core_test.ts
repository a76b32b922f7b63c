// createAuth of core.ts (no table of built-in providers: each provider passed as an object), and
// built-ins passed as objects to either createAuth resolving as their ids do.
import assert from "node:assert/strict";
import {
  type AuthConfig,
  createAuth,
  email,
  github,
  microsoft,
  okta,
  passkeys,
  twoFactor,
  webCryptoKeys,
} from "../core.ts";
import { decodeBase64Url } from "../jose.ts";
import { createAuth as createAuthWithTable, memoryStore } from "../mod.ts";
import { contextOf } from "../src/create_auth.ts";
import { decodeBase32 } from "../src/two_factor/base32.ts";
import { totpCode } from "../src/two_factor/totp.ts";
import { Outbox } from "./email/_helpers.ts";
import { ADA, Browser } from "./server/_helpers.ts";
import { createAuthenticator } from "./webauthn/_authenticator.ts";

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

// Optional features with createAuth of core.ts: each works only when listed in `features`.

const PASSKEY_ORIGIN = "https://example.com";

function coreAuth(config: Partial<AuthConfig>) {
  return createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    env: {},
    credentials: {
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? ADA : null,
    },
    ...config,
  } as AuthConfig);
}

async function postJSON(browser: Browser, path: string, json: unknown = {}): Promise<Response> {
  const csrf = await browser.csrf();
  return await browser.fetch("POST", path, { json, headers: { "X-CSRF-Token": csrf } });
}

const FEATURE_CONFIGS = {
  email: { send: () => {}, findUser: () => null },
  twoFactor: { load: () => null, save: () => {} },
  passkeys: { store: memoryStore(), findUser: () => null },
} as const;

Deno.test("core createAuth refuses a feature's config key without its feature, naming the import", () => {
  for (const [key, value] of Object.entries(FEATURE_CONFIGS)) {
    const others = [email, twoFactor, passkeys].filter((feature) => feature.key !== key);
    for (const features of [undefined, [], others]) {
      assert.throws(
        () => coreAuth({ [key]: value, features }),
        (error: unknown) =>
          error instanceof TypeError &&
          error.message ===
            `createAuth: "${key}" needs the ${key} feature with createAuth of core.ts; expected import { ${key} } from "@service-stack/auth/core" and features: [${key}].`,
      );
    }
  }
});

Deno.test("features holds only the library's features", () => {
  for (const features of ["email", ["email"], [{}], [{ ...email, key: "sms" }], [null]]) {
    assert.throws(
      () => coreAuth({ features: features as never }),
      (error: unknown) =>
        error instanceof TypeError &&
        /^createAuth: features holds a value that is not a feature/.test(error.message),
    );
  }
  assert.throws(
    () => coreAuth({ features: [email, { ...email }] }),
    (error: unknown) =>
      error instanceof TypeError && /features lists two "email" features/.test(error.message),
  );
});

Deno.test("without features, core serves no feature route and the passkey API says why", async () => {
  const auth = coreAuth({});
  const browser = new Browser(auth.handlers.ALL);
  for (
    const [method, path] of [
      ["POST", "/auth/email/verify"],
      ["POST", "/auth/password/forgot"],
      ["GET", "/auth/twoFactor"],
      ["POST", "/auth/twoFactor/verify"],
      ["POST", "/auth/passkey/signIn/options"],
      ["GET", "/auth/passkeys"],
    ]
  ) {
    const response = await browser.fetch(method, path);
    assert.equal(response.status, 404, `${method} ${path}`);
    await response.body?.cancel();
  }
  // Without the email routes, signIn/email is only the GET of signIn/:provider.
  const posted = await browser.fetch("POST", "/auth/signIn/email");
  assert.equal(posted.status, 405);
  await posted.body?.cancel();
  await assert.rejects(() => auth.api.listPasskeys("user-1"), TypeError);
  // Credentials sign-in still works, with no second step.
  const signedIn = await browser.signIn();
  assert.equal(signedIn.status, 200);
  assert.equal((await signedIn.json()).user.sub, ADA.sub);
});

Deno.test("core createAuth with features: [email] signs in by link and verifies on sign-up", async () => {
  const outbox = new Outbox();
  const auth = coreAuth({
    features: [email],
    email: { send: outbox.send, findUser: (address: string) => address === ADA.email ? ADA : null },
    signUp: {
      onCreateUser: () => ({ sub: "new-user", email: "new@example.com" }),
      verifyEmail: true,
    },
  });
  const asked = await postJSON(new Browser(auth.handlers.ALL), "/auth/signIn/email", {
    email: ADA.email,
  });
  assert.equal(asked.status, 200);
  assert.equal(outbox.last().kind, "sign-in");
  const user = new Browser(auth.handlers.ALL);
  const signedIn = await user.fetch("POST", "/auth/callback/email", {
    json: { token: outbox.lastToken() },
  });
  assert.equal(signedIn.status, 200);
  assert.equal((await signedIn.json()).user.sub, ADA.sub);
  // Sign-up's verification message goes through the email feature's hook.
  const signedUp = await postJSON(new Browser(auth.handlers.ALL), "/auth/signUp", {});
  assert.equal(signedUp.status, 201);
  assert.equal(outbox.last().kind, "verify-email");
  assert.equal(outbox.last().to, "new@example.com");
  // The other features stay off.
  const page = await user.fetch("GET", "/auth/twoFactor");
  assert.equal(page.status, 404);
  await page.body?.cancel();
});

Deno.test("core createAuth with features: [twoFactor] enrolls and gates the next sign-in", async () => {
  const records = new Map<string, string | null>();
  const clock = Math.floor(Date.now() / 30_000) * 30_000 + 5_000;
  const auth = coreAuth({
    features: [twoFactor],
    clock: () => clock,
    twoFactor: {
      load: (sub: string) => records.get(sub) ?? null,
      save: (sub: string, value: string | null) => void records.set(sub, value),
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  assert.equal((await browser.signIn()).status, 200);
  const started = await postJSON(browser, "/auth/twoFactor/enroll");
  assert.equal(started.status, 200);
  const secret = decodeBase32((await started.json()).secret);
  const confirmed = await postJSON(browser, "/auth/twoFactor/confirm", {
    code: await totpCode(secret, clock / 1000),
  });
  assert.equal(confirmed.status, 200);
  // The gate of finishSignIn, through the feature's hook: no session before the code.
  const next = new Browser(auth.handlers.ALL);
  const pending = await next.signIn();
  assert.deepEqual(await pending.json(), { twoFactorRequired: true });
  assert.ok(next.cookies.has("service-stack.two_factor"));
  assert.ok(!next.cookies.has("service-stack.session_token"));
});

Deno.test("core createAuth with features: [passkeys] registers, signs in, lists and deletes", async () => {
  const auth = coreAuth({
    baseURL: PASSKEY_ORIGIN,
    features: [passkeys],
    passkeys: { store: memoryStore(), findUser: (sub: string) => sub === ADA.sub ? ADA : null },
  });
  const browser = new Browser(auth.handlers.ALL, PASSKEY_ORIGIN);
  assert.equal((await browser.signIn()).status, 200);
  const options = await (await postJSON(browser, "/auth/passkey/register/options")).json();
  const authenticator = await createAuthenticator(-7, { userHandle: options.user.id });
  const registered = await postJSON(browser, "/auth/passkey/register", {
    response: await authenticator.register({ challenge: options.challenge }),
    name: "Laptop",
  });
  assert.equal(registered.status, 201, await registered.clone().text());
  const other = new Browser(auth.handlers.ALL, PASSKEY_ORIGIN);
  const signInOptions = await (await postJSON(other, "/auth/passkey/signIn/options")).json();
  const signedIn = await postJSON(other, "/auth/passkey/signIn", {
    response: await authenticator.authenticate({ challenge: signInOptions.challenge }),
  });
  assert.equal(signedIn.status, 200, await signedIn.clone().text());
  assert.equal((await signedIn.json()).user.sub, ADA.sub);
  const [listed] = await auth.api.listPasskeys(ADA.sub);
  assert.equal(listed.name, "Laptop");
  assert.equal(await auth.api.deletePasskey(ADA.sub, listed.id), true);
  assert.deepEqual(await auth.api.listPasskeys(ADA.sub), []);
});

Deno.test("createAuth of mod.ts includes every feature; a features list changes nothing", async () => {
  for (const features of [undefined, [email]]) {
    const auth = createAuthWithTable({
      oauth: [],
      secret: SECRET,
      env: {},
      logger: false,
      features,
      twoFactor: { load: () => null, save: () => {} },
      passkeys: { store: memoryStore(), findUser: () => null },
    });
    // The route exists (a pending sign-in is missing), where an instance without it answers 404.
    const page = await auth.handlers.ALL(new Request("http://localhost/auth/twoFactor"));
    assert.equal(page.status, 400);
    await page.body?.cancel();
    assert.deepEqual(await auth.api.listPasskeys("user-1"), []);
  }
});

// Web Crypto keys in `secret` with createAuth of core.ts: only with features: [webCryptoKeys].

const HMAC = { name: "HMAC", hash: "SHA-256" } as const;
const AES_GCM = { name: "AES-GCM", length: 256 } as const;

/** One secret of each Web Crypto shape, with the mode it needs and the JWS alg its tokens show. */
async function webCryptoSecrets() {
  const sign = await crypto.subtle.generateKey(HMAC, false, ["sign", "verify"]);
  const encrypt = await crypto.subtle.generateKey(AES_GCM, false, ["encrypt", "decrypt"]);
  const pair = await crypto.subtle.generateKey("Ed25519", true, ["sign", "verify"]);
  return [
    { name: "{ sign, encrypt }", secret: { sign, encrypt }, mode: "sealed", alg: "dir" },
    { name: "an Ed25519 key pair", secret: pair, mode: "signed", alg: "EdDSA" },
    { name: "an AES-GCM CryptoKey", secret: encrypt, mode: "encrypted", alg: "dir" },
    // A rotation list whose current entry is a string: the CryptoKey is only read.
    { name: "a list holding a CryptoKey", secret: [SECRET, sign], mode: "signed", alg: "HS256" },
  ] as const;
}

/** The `alg` of a compact token's first header. */
function algOf(token: string): string {
  return JSON.parse(new TextDecoder().decode(decodeBase64Url(token.split(".")[0]))).alg;
}

Deno.test("core createAuth with features: [webCryptoKeys] signs in and reads sessions with Web Crypto keys", async () => {
  for (const { name, secret, mode, alg } of await webCryptoSecrets()) {
    const auth = coreAuth({
      secret: secret as AuthConfig["secret"],
      jwt: { mode },
      features: [webCryptoKeys],
    });
    const browser = new Browser(auth.handlers.ALL);
    const signedIn = await browser.signIn();
    assert.equal(signedIn.status, 200, name);
    const token = browser.cookies.get("service-stack.session_token");
    assert.ok(token, name);
    assert.equal(algOf(token), alg, name);
    const session = await browser.fetch("GET", "/auth/session");
    assert.equal((await session.json()).user.sub, ADA.sub, name);
  }
});

Deno.test("core createAuth refuses Web Crypto keys in secret without webCryptoKeys, naming the import", async () => {
  for (const { name, secret, mode } of await webCryptoSecrets()) {
    for (const features of [undefined, [], [email, twoFactor, passkeys]]) {
      assert.throws(
        () => coreAuth({ secret: secret as AuthConfig["secret"], jwt: { mode }, features }),
        (error: unknown) =>
          error instanceof TypeError &&
          error.message ===
            'createAuth: secret holds a CryptoKey, CryptoKeyPair or { sign, encrypt }, which needs the webCryptoKeys feature with createAuth of core.ts; expected import { webCryptoKeys } from "@service-stack/auth/core" and features: [webCryptoKeys].',
        name,
      );
    }
  }
  // String secrets need nothing, and webCryptoKeys changes nothing for them.
  for (const features of [undefined, [webCryptoKeys]]) {
    const browser = new Browser(
      coreAuth({ secret: [SECRET, "x".repeat(32)], features }).handlers.ALL,
    );
    assert.equal((await browser.signIn()).status, 200);
  }
});

Deno.test("createAuth of mod.ts reads Web Crypto keys in secret without a features list", async () => {
  for (const { name, secret, mode, alg } of await webCryptoSecrets()) {
    const auth = createAuthWithTable({
      oauth: [],
      secret: secret as AuthConfig["secret"],
      jwt: { mode },
      env: {},
      logger: false,
      credentials: { authorize: () => ADA },
    });
    const browser = new Browser(auth.handlers.ALL);
    assert.equal((await browser.signIn()).status, 200, name);
    assert.equal(algOf(browser.cookies.get("service-stack.session_token")!), alg, name);
  }
});

// One name per thing (issue 25): mod.ts takes `features` as core.ts does, validated the same way.
Deno.test("createAuth of mod.ts validates features like core's: the same refusals", () => {
  const base = { oauth: [], secret: SECRET, env: {}, logger: false } as const;
  for (const features of ["email", ["email"], [{}], [null]]) {
    assert.throws(
      () => createAuthWithTable({ ...base, features: features as never }),
      (error: unknown) =>
        error instanceof TypeError &&
        /^createAuth: features holds a value that is not a feature/.test(error.message),
      JSON.stringify(features),
    );
  }
  assert.throws(
    () => createAuthWithTable({ ...base, features: [email, { ...email }] }),
    (error: unknown) =>
      error instanceof TypeError && /features lists two "email" features/.test(error.message),
  );
});

Deno.test("core.ts exports what a bundled app needs beside createAuth", async () => {
  const core = await import("../core.ts");
  const main = await import("../mod.ts");
  for (const name of ["memoryStore", "AuthError", "hashPassword", "verifyPassword"] as const) {
    assert.equal(core[name], main[name], name);
  }
  // A password app written against core.ts alone.
  const hash = await core.hashPassword("correct horse");
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    env: {},
    logger: false,
    session: { store: core.memoryStore() },
    credentials: {
      authorize: async ({ username, password }) => {
        if (username === "taken") throw new core.AuthError("access_denied", "Locked.");
        return await core.verifyPassword(password, hash) ? ADA : null;
      },
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  await response.body?.cancel();
});
