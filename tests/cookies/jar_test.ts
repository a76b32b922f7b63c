import assert from "node:assert/strict";
import { type CookieConfig, resolveCookieJars } from "../../src/cookies/jar.ts";
import { IN_10_MIN, line } from "./_helpers.ts";

// ---- default jars -----------------------------------------------------------

Deno.test("default HTTP jar uses the standard strategy: no prefix, no Secure", () => {
  const { http } = resolveCookieJars(undefined);
  assert.equal(
    line(http.sessionToken),
    "service-stack.session_token=v; Path=/; HttpOnly; SameSite=Lax",
  );
  assert.equal(
    line(http.csrfToken),
    "service-stack.csrf_token=v; Path=/; HttpOnly; SameSite=Strict",
  );
  assert.equal(
    line(http.state),
    `service-stack.state=v; Path=/; Max-Age=600; Expires=${IN_10_MIN}; HttpOnly; SameSite=Lax`,
  );
});

Deno.test("default HTTPS jar: every cookie is __Host- (Secure, Path=/, no Domain)", () => {
  const { https } = resolveCookieJars(undefined);
  assert.equal(
    line(https.sessionToken),
    "__Host-service-stack.session_token=v; Path=/; Secure; HttpOnly; SameSite=Lax",
  );
  assert.equal(
    line(https.csrfToken),
    "__Host-service-stack.csrf_token=v; Path=/; Secure; HttpOnly; SameSite=Strict",
  );
  const flow = `Path=/; Max-Age=600; Expires=${IN_10_MIN}; Secure; HttpOnly; SameSite=Lax`;
  assert.equal(line(https.state), `__Host-service-stack.state=v; ${flow}`);
  assert.equal(line(https.codeVerifier), `__Host-service-stack.code_verifier=v; ${flow}`);
  assert.equal(line(https.redirectTo), `__Host-service-stack.redirect_to=v; ${flow}`);
  assert.equal(line(https.redirectURI), `__Host-service-stack.redirect_uri=v; ${flow}`);
});

Deno.test("the prefix option changes every cookie name", () => {
  const { http, https } = resolveCookieJars({ prefix: "app" });
  assert.deepEqual(
    Object.values(http).map((s) => s.name),
    [
      "app.session_token",
      "app.csrf_token",
      "app.state",
      "app.code_verifier",
      "app.redirect_to",
      "app.redirect_uri",
      "app.email_flow",
      "app.passkey_challenge",
      "app.two_factor",
    ],
  );
  assert.equal(https.sessionToken.name, "__Host-app.session_token");
  assert.equal(https.csrfToken.name, "__Host-app.csrf_token");
});

Deno.test("resolved jars are deeply frozen", () => {
  const jars = resolveCookieJars(undefined);
  assert.ok(Object.isFrozen(jars));
  assert.ok(Object.isFrozen(jars.http) && Object.isFrozen(jars.https));
  assert.ok(Object.isFrozen(jars.https.sessionToken));
  assert.ok(Object.isFrozen(jars.https.sessionToken.attributes));
  assert.throws(() => {
    (jars.https.sessionToken.attributes as { secure?: boolean }).secure = false;
  }, TypeError);
});

Deno.test("two configs never share state: one prefix does not leak into another jar", () => {
  const a = resolveCookieJars({ prefix: "a" });
  const b = resolveCookieJars({ prefix: "b" });
  assert.equal(a.https.sessionToken.name, "__Host-a.session_token");
  assert.equal(b.https.sessionToken.name, "__Host-b.session_token");
  assert.equal(a.http.sessionToken.name, "a.session_token");
});

// ---- overrides --------------------------------------------------------------

Deno.test("an override name replaces the part after the prefix", () => {
  const { http, https } = resolveCookieJars({ overrides: { sessionToken: { name: "sid" } } });
  assert.equal(http.sessionToken.name, "service-stack.sid");
  assert.equal(https.sessionToken.name, "__Host-service-stack.sid");
});

Deno.test("standard strategy override over HTTPS: no prefix, Secure kept by default", () => {
  const { https } = resolveCookieJars({
    overrides: { sessionToken: { attributes: { strategy: "standard" } } },
  });
  assert.equal(
    line(https.sessionToken),
    "service-stack.session_token=v; Path=/; Secure; HttpOnly; SameSite=Lax",
  );
});

Deno.test("standard strategy with secure false over HTTPS omits Secure", () => {
  const { https } = resolveCookieJars({
    overrides: { state: { attributes: { strategy: "standard", secure: false, maxAge: 60 } } },
  });
  assert.equal(
    line(https.state),
    "service-stack.state=v; Path=/; Max-Age=60; Expires=Wed, 01 Jan 2025 12:01:00 GMT; HttpOnly; SameSite=Lax",
  );
});

Deno.test("host strategy override gives __Host- over HTTPS and nothing over HTTP", () => {
  const { http, https } = resolveCookieJars({
    overrides: { sessionToken: { name: "sid", attributes: { strategy: "host" } } },
  });
  assert.equal(
    line(https.sessionToken),
    "__Host-service-stack.sid=v; Path=/; Secure; HttpOnly; SameSite=Lax",
  );
  assert.equal(line(http.sessionToken), "service-stack.sid=v; Path=/; HttpOnly; SameSite=Lax");
});

Deno.test("secure strategy override on the CSRF cookie allows a Domain", () => {
  const { http, https } = resolveCookieJars({
    overrides: { csrfToken: { attributes: { strategy: "secure", domain: "example.com" } } },
  });
  assert.equal(
    line(https.csrfToken),
    "__Secure-service-stack.csrf_token=v; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Strict",
  );
  assert.equal(
    line(http.csrfToken),
    "service-stack.csrf_token=v; Path=/; Domain=example.com; HttpOnly; SameSite=Strict",
  );
});

Deno.test("every attribute override serializes in the documented order", () => {
  const { https } = resolveCookieJars({
    overrides: {
      sessionToken: {
        attributes: {
          path: "/app",
          domain: "example.com",
          maxAge: 120,
          httpOnly: false,
          sameSite: "none",
          partitioned: true,
          priority: "high",
        },
      },
    },
  });
  assert.equal(
    line(https.sessionToken),
    "__Secure-service-stack.session_token=v; Path=/app; Domain=example.com; Max-Age=120; " +
      "Expires=Wed, 01 Jan 2025 12:02:00 GMT; Secure; SameSite=None; Partitioned; Priority=High",
  );
});

Deno.test("over HTTP SameSite=None becomes Lax and Partitioned is dropped", () => {
  const { http } = resolveCookieJars({
    overrides: { sessionToken: { attributes: { sameSite: "none", partitioned: true } } },
  });
  assert.equal(
    line(http.sessionToken),
    "service-stack.session_token=v; Path=/; HttpOnly; SameSite=Lax",
  );
});

Deno.test("sameSite true means Strict and false omits the attribute", () => {
  const { http } = resolveCookieJars({
    overrides: {
      sessionToken: { attributes: { sameSite: true } },
      state: { attributes: { sameSite: false } },
    },
  });
  assert.match(line(http.sessionToken), /; SameSite=Strict$/);
  assert.doesNotMatch(line(http.state), /SameSite/);
});

Deno.test("an explicit undefined attribute keeps the default", () => {
  const { https } = resolveCookieJars({
    overrides: { csrfToken: { attributes: { path: undefined, httpOnly: undefined } } },
  });
  assert.equal(
    line(https.csrfToken),
    "__Host-service-stack.csrf_token=v; Path=/; Secure; HttpOnly; SameSite=Strict",
  );
});

Deno.test("a fixed expires date is serialized when no maxAge is set", () => {
  const { http } = resolveCookieJars({
    overrides: { sessionToken: { attributes: { expires: new Date(Date.UTC(2030, 5, 1)) } } },
  });
  assert.equal(
    line(http.sessionToken),
    "service-stack.session_token=v; Path=/; Expires=Sat, 01 Jun 2030 00:00:00 GMT; HttpOnly; SameSite=Lax",
  );
});

// ---- config validation ------------------------------------------------------

function rejects(config: unknown, pattern: RegExp): void {
  assert.throws(() => resolveCookieJars(config as CookieConfig), (e: unknown) => {
    assert.ok(e instanceof TypeError, String(e));
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("a prefix that is not a cookie-name token is rejected", () => {
  rejects({ prefix: "" }, /cookies\.prefix/);
  rejects({ prefix: "my app" }, /cookies\.prefix/);
  rejects({ prefix: "a;b" }, /cookies\.prefix/);
  rejects({ prefix: "a=b" }, /cookies\.prefix/);
  rejects({ prefix: "é" }, /cookies\.prefix/);
  rejects({ prefix: 5 }, /cookies\.prefix/);
});

Deno.test("a prefix or name carrying __Secure- or __Host- is rejected", () => {
  rejects({ prefix: "__Secure-app" }, /added by the strategy/);
  rejects({ prefix: "__host-app" }, /added by the strategy/);
  rejects({ overrides: { state: { name: "__Host-x" } } }, /added by the strategy/);
});

Deno.test("an override name that is not a token is rejected", () => {
  rejects({ overrides: { sessionToken: { name: "a b" } } }, /overrides\.sessionToken\.name/);
  rejects({ overrides: { sessionToken: { name: "" } } }, /overrides\.sessionToken\.name/);
  rejects({ overrides: { sessionToken: { name: "x,y" } } }, /overrides\.sessionToken\.name/);
});

Deno.test("an unknown cookie key or attribute is rejected", () => {
  rejects({ overrides: { session: { name: "x" } } }, /Unknown cookie key "session"/);
  rejects({ overrides: { state: { attributes: { maxage: 5 } } } }, /Unknown attribute "maxage"/);
});

Deno.test("host strategy rejects a Domain or a Path other than /", () => {
  rejects(
    { overrides: { csrfToken: { attributes: { strategy: "host", domain: "example.com" } } } },
    /forbids Domain/,
  );
  rejects(
    { overrides: { sessionToken: { attributes: { strategy: "host", path: "/app" } } } },
    /requires Path=\//,
  );
});

Deno.test("secure false with the secure or host strategy is rejected", () => {
  rejects({ overrides: { sessionToken: { attributes: { secure: false } } } }, /always sets Secure/);
  rejects({ overrides: { csrfToken: { attributes: { secure: false } } } }, /always sets Secure/);
});

Deno.test("invalid attribute values are rejected", () => {
  rejects({ overrides: { state: { attributes: { strategy: "strict" } } } }, /strategy/);
  rejects({ overrides: { state: { attributes: { maxAge: -1 } } } }, /maxAge/);
  rejects({ overrides: { state: { attributes: { maxAge: 1.5 } } } }, /maxAge/);
  rejects({ overrides: { state: { attributes: { maxAge: Infinity } } } }, /maxAge/);
  rejects({ overrides: { state: { attributes: { expires: new Date(NaN) } } } }, /expires/);
  rejects({ overrides: { state: { attributes: { domain: "a;b" } } } }, /Domain/);
  rejects({ overrides: { state: { attributes: { domain: "exa mple.com" } } } }, /Domain/);
  rejects({ overrides: { state: { attributes: { path: "app" } } } }, /Path/);
  rejects({ overrides: { state: { attributes: { path: "/a;Domain=evil" } } } }, /Path/);
  rejects({ overrides: { state: { attributes: { path: "/a\nb" } } } }, /Path/);
  rejects({ overrides: { state: { attributes: { sameSite: "loose" } } } }, /SameSite/);
  rejects({ overrides: { state: { attributes: { priority: "urgent" } } } }, /Priority/);
  rejects({ overrides: { state: { attributes: { httpOnly: "yes" } } } }, /httpOnly/);
});

Deno.test("overrides that make two cookies share a name are rejected", () => {
  rejects({ overrides: { state: { name: "csrf_token" } } }, /collide/);
  rejects(
    {
      overrides: {
        state: { name: "x", attributes: { strategy: "host" } },
        codeVerifier: { name: "x" },
      },
    },
    /collide/,
  );
});

Deno.test("an override named like another cookie's chunk is rejected", () => {
  rejects({ overrides: { state: { name: "session_token.0" } } }, /collide/);
});

Deno.test("non-object config parts are rejected", () => {
  rejects("service-stack", /cookies option/);
  rejects({ overrides: [] }, /cookies\.overrides/);
  rejects({ overrides: { state: "x" } }, /cookies\.overrides\.state/);
  rejects({ overrides: { state: { attributes: 1 } } }, /attributes/);
});

Deno.test("an override with a Domain or a Path other than / falls back to __Secure-", () => {
  const { https } = resolveCookieJars({
    overrides: {
      sessionToken: { attributes: { domain: "example.com" } },
      csrfToken: { attributes: { path: "/app" } },
    },
  });
  assert.equal(https.sessionToken.name, "__Secure-service-stack.session_token");
  assert.equal(https.csrfToken.name, "__Secure-service-stack.csrf_token");
  assert.equal(https.state.name, "__Host-service-stack.state");
});

Deno.test("an explicit host strategy with a Domain is still refused, not downgraded", () => {
  assert.throws(
    () =>
      resolveCookieJars({
        overrides: { sessionToken: { attributes: { strategy: "host", domain: "example.com" } } },
      }),
    TypeError,
  );
});
