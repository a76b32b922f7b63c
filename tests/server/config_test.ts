// createAuth's environment lookup (through the `env` option) and its
// synchronous configuration validation.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth } from "../../mod.ts";
import { Browser, Clock, makeAuth, ORIGIN, SECRET } from "./_helpers.ts";

const S1 = "secret-one-0123456789abcdef-0123456789abcdef";
const S2 = "secret-two-0123456789abcdef-0123456789abcdef";
const S3 = "secret-three-0123456789abcdef-0123456789abcdef";
const S4 = "secret-four-0123456789abcdef-0123456789abcdef";

/** Which of the candidate secrets an instance signs with: the one whose instance opens its token. */
async function secretOf(config: Partial<AuthConfig>): Promise<string | null> {
  const auth = createAuth({ oauth: [], logger: false, ...config } as AuthConfig);
  const token = await auth.jose.encodeJWT({ sub: "probe" });
  for (const candidate of [S1, S2, S3, S4]) {
    const probe = createAuth({ oauth: [], secret: candidate, env: {}, logger: false });
    try {
      await probe.jose.decodeJWT(token);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return null;
}

// --- env lookup order -----------------------------------------------------------

Deno.test("env: SERVICE_AUTH_SECRET wins over SERVICE_SECRET, AUTH_SECRET and SECRET", async () => {
  const env = { SERVICE_AUTH_SECRET: S1, SERVICE_SECRET: S2, AUTH_SECRET: S3, SECRET: S4 };
  assert.equal(await secretOf({ env }), S1);
});

Deno.test("env: SERVICE_SECRET wins over AUTH_SECRET and SECRET", async () => {
  assert.equal(await secretOf({ env: { SERVICE_SECRET: S2, AUTH_SECRET: S3, SECRET: S4 } }), S2);
});

Deno.test("env: AUTH_SECRET wins over SECRET", async () => {
  assert.equal(await secretOf({ env: { AUTH_SECRET: S3, SECRET: S4 } }), S3);
});

Deno.test("env: SECRET alone is used", async () => {
  assert.equal(await secretOf({ env: { SECRET: S4 } }), S4);
});

Deno.test("env: empty values are skipped in the lookup order", async () => {
  const env = { SERVICE_AUTH_SECRET: "", SERVICE_SECRET: "", AUTH_SECRET: S3, SECRET: S4 };
  assert.equal(await secretOf({ env }), S3);
});

Deno.test("env: only empty values count as no secret", () => {
  const env = { SERVICE_AUTH_SECRET: "", SERVICE_SECRET: "", AUTH_SECRET: "", SECRET: "" };
  assert.throws(() => createAuth({ oauth: [], env }), TypeError);
});

Deno.test("env: the config secret wins over every env name", async () => {
  const env = { SERVICE_AUTH_SECRET: S1, SERVICE_SECRET: S2, AUTH_SECRET: S3, SECRET: S4 };
  assert.equal(await secretOf({ env, secret: S2 }), S2);
});

Deno.test("env: SALT changes the derived keys", async () => {
  const salted = createAuth({ oauth: [], secret: S1, env: { AUTH_SALT: "salt-a" }, logger: false });
  const other = createAuth({ oauth: [], secret: S1, env: { SALT: "salt-b" }, logger: false });
  const same = createAuth({ oauth: [], secret: S1, env: { SALT: "salt-a" }, logger: false });
  const token = await salted.jose.encodeJWT({ sub: "probe" });
  await assert.rejects(() => other.jose.decodeJWT(token));
  assert.equal((await same.jose.decodeJWT(token)).sub, "probe");
});

Deno.test("env: TRUSTED_ORIGINS is merged with the config trustedOrigins", async () => {
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    trustedOrigins: ["https://config.example"],
    env: {
      AUTH_TRUSTED_ORIGINS: "https://env-a.example; https://env-b.example\nhttps://*.env.example",
    },
  });
  for (
    const origin of [
      "https://config.example",
      "https://env-a.example",
      "https://env-b.example",
      "https://app.env.example",
    ]
  ) {
    const response = await auth.handlers.ALL(
      new Request(`${ORIGIN}/auth/csrfToken`, { headers: { Origin: origin } }),
    );
    assert.equal(response.status, 200, origin);
    assert.equal(response.headers.get("Access-Control-Allow-Origin"), origin);
  }
  const refused = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/csrfToken`, { headers: { Origin: "https://other.example" } }),
  );
  assert.equal(refused.status, 403);
});

Deno.test("env: a built-in provider reads {ID}_CLIENT_ID and _SECRET through the lookup order", async () => {
  const auth = createAuth({
    oauth: ["github"],
    secret: SECRET,
    logger: false,
    env: {
      SERVICE_AUTH_GITHUB_CLIENT_ID: "id-from-service-auth",
      GITHUB_CLIENT_ID: "id-bare",
      AUTH_GITHUB_CLIENT_SECRET: "gh-secret",
    },
  });
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/signIn/github?redirect=false`),
  );
  assert.equal(response.status, 200);
  const url = new URL((await response.json()).url);
  assert.equal(url.searchParams.get("client_id"), "id-from-service-auth");
  assert.equal(url.searchParams.get("client_secret"), null);
});

// --- validation: synchronous TypeError naming the fix ------------------------------

function assertConfigError(config: unknown, pattern: RegExp): void {
  let thrown: unknown;
  try {
    createAuth(config as AuthConfig);
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof TypeError, `expected a TypeError, got ${String(thrown)}`);
  assert.match(thrown.message, pattern);
}

Deno.test("config: no secret anywhere throws a TypeError naming AUTH_SECRET", () => {
  assertConfigError({ oauth: [], env: {} }, /AUTH_SECRET/);
});

Deno.test("config: a string secret under 32 bytes throws a TypeError naming the minimum", () => {
  assertConfigError({ oauth: [], env: {}, secret: "a".repeat(31) }, /32/);
  assertConfigError({ oauth: [], env: { AUTH_SECRET: "short" } }, /32/);
});

Deno.test("config: a byte secret under 32 bytes throws a TypeError naming the minimum", () => {
  assertConfigError({ oauth: [], env: {}, secret: new Uint8Array(16) }, /32/);
});

Deno.test("config: a basePath not starting with / throws a TypeError", () => {
  assertConfigError({ oauth: [], env: {}, secret: SECRET, basePath: "auth" }, /basePath.*"\/"/);
});

Deno.test("config: an unknown config key throws a TypeError naming it", () => {
  assertConfigError(
    { oauth: [], env: {}, secret: SECRET, sesion: {} },
    /unknown config key "sesion"/,
  );
});

Deno.test("config: a built-in provider without {ID}_CLIENT_ID throws naming the variable", () => {
  assertConfigError({ oauth: ["github"], env: {}, secret: SECRET }, /GITHUB_CLIENT_ID/);
  assertConfigError({ oauth: ["discord"], env: {}, secret: SECRET }, /DISCORD_CLIENT_ID/);
});

Deno.test("config: a built-in provider without {ID}_CLIENT_SECRET throws naming the variable", () => {
  assertConfigError(
    { oauth: ["gitlab"], env: { GITLAB_CLIENT_ID: "id" }, secret: SECRET },
    /GITLAB_CLIENT_SECRET/,
  );
});

Deno.test("config: an unknown built-in provider id throws listing the known ones", () => {
  assertConfigError({ oauth: ["myspace"], env: {}, secret: SECRET }, /myspace.*github/);
});

const WRONG_TYPES: [string, Record<string, unknown>, RegExp][] = [
  ["oauth", { oauth: "github" }, /oauth/],
  ["secret", { secret: 42 }, /secret|key/],
  ["basePath", { basePath: 5 }, /basePath/],
  ["cookies", { cookies: "x" }, /cookies/],
  ["cookies.prefix", { cookies: { prefix: "" } }, /cookies\.prefix/],
  ["trustedOrigins", { trustedOrigins: "https://a.example" }, /trustedOrigins/],
  ["trustedOrigins pattern", { trustedOrigins: ["a.example"] }, /a\.example/],
  ["trustedProxyHeaders", { trustedProxyHeaders: "yes" }, /trustedProxyHeaders/],
  ["identity", { identity: 5 }, /identity/],
  ["identity.schema", { identity: { schema: {} } }, /identity\.schema/],
  ["credentials", { credentials: { authorize: "x" } }, /credentials/],
  ["signUp", { signUp: { onCreateUser: 1 } }, /signUp/],
  [
    "signUp.schema",
    { signUp: { onCreateUser: () => ({ sub: "a" }), schema: 5 } },
    /signUp\.schema/,
  ],
  ["jwt", { jwt: "sealed" }, /jwt/],
  ["jwt.mode", { jwt: { mode: "plain" } }, /jwt\.mode/],
  ["session", { session: 5 }, /session/],
  ["session.maxAge", { session: { maxAge: "1d" } }, /session\.maxAge/],
  ["session.updateAge", { session: { updateAge: -1 } }, /session\.updateAge/],
  ["logger", { logger: "debug" }, /logger/],
  ["logger.log", { logger: { log: 5 } }, /logger\.log/],
  ["logger.level", { logger: { level: "loud" } }, /logger\.level/],
  ["logger.appName", { logger: { appName: 5 } }, /logger\.appName/],
  ["fetch", { fetch: "x" }, /fetch/],
  ["env", { env: "x" }, /env/],
  ["clock", { clock: 5 }, /clock/],
];

for (const [key, patch, pattern] of WRONG_TYPES) {
  Deno.test(`config: a wrong value for ${key} throws a TypeError naming it`, () => {
    assertConfigError({ oauth: [], env: {}, secret: SECRET, ...patch }, pattern);
  });
}

Deno.test("config: session.maxAge above 400 days is refused, naming the browsers' cap", () => {
  assertConfigError(
    { oauth: [], env: {}, secret: SECRET, session: { maxAge: 8.6e12 } },
    /session\.maxAge.*400 days/,
  );
  assertConfigError(
    { oauth: [], env: {}, secret: SECRET, session: { maxAge: 400 * 86400 + 1 } },
    /session\.maxAge/,
  );
  createAuth({ oauth: [], env: {}, secret: SECRET, session: { maxAge: 400 * 86400 } });
});

Deno.test("config: session.updateAge equal to or above maxAge is refused", () => {
  for (const updateAge of [3600, 7200]) {
    assertConfigError(
      { oauth: [], env: {}, secret: SECRET, session: { maxAge: 3600, updateAge } },
      /session\.updateAge.*below session\.maxAge/,
    );
  }
});

Deno.test("config: a short maxAge without updateAge re-issues after half of it", async () => {
  const clock = new Clock();
  const auth = makeAuth({ clock: clock.fn, session: { maxAge: 600 } });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  clock.advance(299);
  const early = await browser.fetch("GET", "/auth/session");
  assert.equal(early.headers.getSetCookie().length, 0);
  clock.advance(2);
  const late = await browser.fetch("GET", "/auth/session");
  assert.equal(late.status, 200);
  assert.equal(late.headers.getSetCookie().length, 1);
});

Deno.test("config: a non-object config throws a TypeError showing the expected shape", () => {
  assertConfigError(undefined, /createAuth\(\{ oauth: \[\] \}\)/);
  assertConfigError("github", /config object/);
});

Deno.test("config: errors are thrown synchronously, before any request", () => {
  let threw = false;
  try {
    const result: unknown = createAuth({ oauth: [], env: {}, secret: "short" });
    assert.ok(!(result instanceof Promise));
  } catch {
    threw = true;
  }
  assert.ok(threw);
});

Deno.test("config: an unknown nested key is refused, naming it", () => {
  for (
    const [config, key] of [
      [{ session: { maxAge: 60, updatAge: 10 } }, "session.updatAge"],
      [{ jwt: { mode: "sealed", alg: "HS256" } }, "jwt.alg"],
      [{ credentials: { authorize: () => null, authorise: 1 } }, "credentials.authorise"],
      [{ logger: { level: "info", sink: () => {} } }, "logger.sink"],
    ] as const
  ) {
    assert.throws(
      () => createAuth({ oauth: [], secret: SECRET, env: {}, ...config } as never),
      (error: unknown) => error instanceof TypeError && error.message.includes(`"${key}"`),
    );
  }
});
