// Access tokens (RFC 9068) issued by api.issueAccessToken, and GET /jwks: checked by an
// independent verifier (npm:jose with a remote JWKS over a real loopback server).
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import * as jose from "npm:jose@6";
import { createAuth } from "../../mod.ts";
import { createAuth as createCoreAuth, serviceTokens } from "../../core.ts";
import {
  ADA,
  type Alg,
  ALGS,
  API,
  Browser,
  keyPair,
  passwordSignIn,
  serve,
  tokenAuth,
} from "./_helpers.ts";
import { Clock, SECRET } from "../server/_helpers.ts";

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(jose.base64url.decode(part)));
}

for (const alg of ALGS) {
  Deno.test(`an access token signed with ${alg} verifies with npm:jose's remote JWKS over a real server`, async () => {
    const pair = await keyPair(alg);
    let handler: (request: Request) => Promise<Response> = () => Promise.reject();
    await using server = serve((request) => handler(request));
    const auth = tokenAuth([pair], { baseURL: server.origin });
    handler = auth.handlers.ALL;
    const token = await auth.api.issueAccessToken({ sub: ADA.sub }, {
      audience: API,
      scope: ["read", "write"],
    });
    assert.ok(token);
    const jwks = jose.createRemoteJWKSet(new URL(`${server.origin}/auth/jwks`));
    const { payload, protectedHeader } = await jose.jwtVerify(token, jwks, {
      issuer: server.origin,
      audience: API,
      typ: "at+jwt",
      algorithms: [alg],
    });
    assert.equal(protectedHeader.alg, alg);
    assert.equal(protectedHeader.typ, "at+jwt");
    assert.equal(
      protectedHeader.kid,
      await jose.calculateJwkThumbprint(
        await crypto.subtle.exportKey("jwk", pair.publicKey) as jose.JWK,
      ),
    );
    assert.equal(payload.sub, ADA.sub);
    assert.equal(payload.scope, "read write");
    assert.equal(payload.client_id, server.origin);
    assert.equal(payload.exp! - payload.iat!, 300);
    assert.match(payload.jti!, /^[A-Za-z0-9_-]{22}$/);
  });
}

Deno.test("the token carries iss, sub, aud, scope, client_id, iat, exp and jti, and the header alg, typ, kid", async () => {
  const clock = new Clock();
  const auth = tokenAuth([await keyPair("ES256")], {
    baseURL: "https://auth.example.com",
    clock: clock.fn,
  });
  const token = await auth.api.issueAccessToken({ sub: ADA.sub }, {
    audience: [API, "https://other.example.com"],
    scope: "read  write",
    expiresIn: 3600,
  });
  const [header, payload] = token!.split(".").slice(0, 2).map(decodePart);
  assert.deepEqual(Object.keys(header), ["alg", "typ", "kid"]);
  const now = clock.now / 1000;
  assert.deepEqual({ ...payload, jti: "x" }, {
    iss: "https://auth.example.com",
    sub: ADA.sub,
    aud: [API, "https://other.example.com"],
    scope: "read write",
    client_id: "https://auth.example.com",
    iat: now,
    exp: now + 3600,
    jti: "x",
  });
});

Deno.test("issuer and clientId come from serviceTokens when given, never from the request's Host", async () => {
  const auth = tokenAuth([await keyPair("EdDSA")], {
    baseURL: "https://app.example.com",
    serviceTokens: {
      keys: [await keyPair("EdDSA")],
      issuer: "https://issuer.example.com",
      clientId: "portal",
    },
  });
  const browser = new Browser(auth.handlers.ALL, "https://evil.example.net");
  await passwordSignIn(browser);
  const request = new Request("https://evil.example.net/", {
    headers: { Cookie: browser.cookieHeader(), Host: "evil.example.net" },
  });
  const token = await auth.api.issueAccessToken({ request }, { audience: API });
  const claims = decodePart(token!.split(".")[1]);
  assert.equal(claims.iss, "https://issuer.example.com");
  assert.equal(claims.client_id, "portal");
  assert.equal(claims.sub, ADA.sub);
});

Deno.test("issueAccessToken({ request }) resolves null without a session", async () => {
  const auth = tokenAuth([await keyPair("ES256")], { baseURL: "https://auth.example.com" });
  assert.equal(
    await auth.api.issueAccessToken({ request: new Request("https://auth.example.com/") }, {
      audience: API,
    }),
    null,
  );
});

Deno.test("issueAccessToken refuses a lifetime that is not an integer from 1 to 3600, and a bad audience or scope", async () => {
  const auth = tokenAuth([await keyPair("ES256")], { baseURL: "https://auth.example.com" });
  for (const expiresIn of [0, -1, 3601, 1.5, Number.NaN, "60"]) {
    await assert.rejects(
      auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API, expiresIn } as never),
      TypeError,
      `expiresIn ${expiresIn}`,
    );
  }
  for (const audience of ["", [], [""], 42, undefined]) {
    await assert.rejects(
      auth.api.issueAccessToken({ sub: ADA.sub }, { audience } as never),
      TypeError,
    );
  }
  await assert.rejects(
    auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API, scope: ['a"b'] }),
    TypeError,
  );
  await assert.rejects(auth.api.issueAccessToken({ sub: "" }, { audience: API }), TypeError);
});

Deno.test("createAuth throws a TypeError naming issuer and baseURL when neither is set", () => {
  assert.throws(
    () => createAuth({ oauth: [], secret: SECRET, env: {}, serviceTokens: { keys: [] } }),
    TypeError,
  );
  return keyPair("ES256").then((pair) => {
    assert.throws(
      () => createAuth({ oauth: [], secret: SECRET, env: {}, serviceTokens: { keys: [pair] } }),
      (error: Error) =>
        error instanceof TypeError && /serviceTokens\.issuer/.test(error.message) &&
        /baseURL/.test(error.message),
    );
    // env URL is a baseURL too.
    createAuth({
      oauth: [],
      secret: SECRET,
      env: { AUTH_URL: "https://auth.example.com" },
      serviceTokens: { keys: [pair] },
    });
  });
});

Deno.test("createAuth refuses a key that is not an asymmetric signing pair", async () => {
  const hmac = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const ecdh = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, [
    "deriveBits",
  ]) as CryptoKeyPair;
  for (const key of [hmac, ecdh, "a-secret-of-at-least-thirty-two-bytes!!"]) {
    assert.throws(
      () =>
        createAuth({
          oauth: [],
          secret: SECRET,
          baseURL: "https://auth.example.com",
          serviceTokens: { keys: [key as CryptoKeyPair] },
        }),
      TypeError,
    );
  }
});

Deno.test("GET /jwks lists public parameters only, with kid, alg and use, cacheable and without cookies", async () => {
  const pairs = await Promise.all(ALGS.map((alg: Alg) => keyPair(alg)));
  const auth = tokenAuth(pairs, { baseURL: "https://auth.example.com" });
  const browser = new Browser(auth.handlers.ALL, "https://auth.example.com");
  await passwordSignIn(browser);
  const response = await browser.fetch("GET", "/auth/jwks");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("Cache-Control"), "public, max-age=300");
  assert.deepEqual(response.headers.getSetCookie(), []);
  const { keys } = await response.json();
  assert.equal(keys.length, ALGS.length);
  for (const [i, jwk] of keys.entries()) {
    for (const member of ["d", "p", "q", "dp", "dq", "qi", "k", "oth"]) {
      assert.equal(jwk[member], undefined, `${member} of ${jwk.alg}`);
    }
    assert.equal(jwk.alg, ALGS[i]);
    assert.equal(jwk.use, "sig");
    assert.equal(jwk.kid, await jose.calculateJwkThumbprint(jwk));
    const expected = jwk.kty === "RSA"
      ? ["alg", "e", "kid", "kty", "n", "use"]
      : jwk.kty === "EC"
      ? ["alg", "crv", "kid", "kty", "use", "x", "y"]
      : ["alg", "crv", "kid", "kty", "use", "x"];
    assert.deepEqual(Object.keys(jwk).sort(), expected);
  }
});

Deno.test("GET /jwks answers 404 invalid_request without asymmetric keys", async () => {
  const auth = createAuth({ oauth: [], secret: SECRET, env: {}, logger: false });
  const response = await auth.handlers.ALL(new Request("http://localhost/auth/jwks"));
  assert.equal(response.status, 404);
  assert.equal((await response.json()).error, "invalid_request");
});

Deno.test("GET /jwks publishes the session's key pair in signed mode, without serviceTokens", async () => {
  const pair = await keyPair("ES256");
  const auth = createAuth({
    oauth: [],
    secret: pair,
    jwt: { mode: "signed" },
    env: {},
    logger: false,
  });
  const response = await auth.handlers.ALL(new Request("http://localhost/auth/jwks"));
  assert.equal(response.status, 200);
  const { keys } = await response.json();
  assert.equal(keys.length, 1);
  assert.equal(keys[0].alg, "ES256");
  assert.equal(keys[0].d, undefined);
});

Deno.test("a previous key stays published after a rotation; the first key signs", async () => {
  const [next, previous] = [await keyPair("EdDSA"), await keyPair("ES256")];
  const auth = tokenAuth([next, previous], { baseURL: "https://auth.example.com" });
  const response = await auth.handlers.ALL(new Request("https://auth.example.com/auth/jwks"));
  const { keys } = await response.json();
  assert.deepEqual(keys.map((key: { alg: string }) => key.alg), ["EdDSA", "ES256"]);
  const token = await auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API });
  assert.equal(decodePart(token!.split(".")[0]).alg, "EdDSA");
});

Deno.test("with createAuth of core.ts, serviceTokens needs its feature, and works with it", async () => {
  const pair = await keyPair("EdDSA");
  assert.throws(
    () =>
      createCoreAuth({
        oauth: [],
        secret: SECRET,
        baseURL: "https://auth.example.com",
        serviceTokens: { keys: [pair] },
      }),
    (error: Error) => error instanceof TypeError && /serviceTokens/.test(error.message),
  );
  const auth = createCoreAuth({
    oauth: [],
    secret: SECRET,
    env: {},
    baseURL: "https://auth.example.com",
    features: [serviceTokens],
    serviceTokens: { keys: [pair] },
  });
  assert.ok(await auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API }));
});
