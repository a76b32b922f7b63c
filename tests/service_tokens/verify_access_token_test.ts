// verifyAccessToken (jose.ts), the other service's side: every classic confusion is
// refused, the JWKS is cached, and an unknown kid refetches it once, then once a minute.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import * as jose from "npm:jose@6";
import { JoseError, verifyAccessToken, type VerifyAccessTokenOptions } from "../../jose.ts";
import { signInAs } from "../../testing.ts";
import { ADA, API, b64url, countingFetch, keyPair, serve, tokenAuth } from "./_helpers.ts";
import { Clock } from "../server/_helpers.ts";

/** An issuer on a real loopback server, its keys, and verifier options with a counting fetch. */
async function issuer(keys: CryptoKeyPair[], config: Record<string, unknown> = {}) {
  let handler: (request: Request) => Promise<Response> = () => Promise.reject();
  const server = serve((request) => handler(request));
  const clock = new Clock(Date.now());
  const auth = tokenAuth(keys, { baseURL: server.origin, clock: clock.fn, ...config });
  handler = auth.handlers.ALL;
  const counter = countingFetch();
  const options: VerifyAccessTokenOptions = {
    issuer: server.origin,
    audience: API,
    jwksURL: `${server.origin}/auth/jwks`,
    fetch: counter.fetch,
    clock: clock.fn,
  };
  const jwks = (await (await fetch(options.jwksURL)).json()).keys as jose.JWK[];
  return {
    auth,
    clock,
    options,
    calls: counter.calls,
    jwks,
    setHandler: (next: typeof handler) => handler = next,
    [Symbol.asyncDispose]: () => server[Symbol.asyncDispose](),
  };
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: Error) => {
    assert.ok(error instanceof JoseError, `a JoseError, got ${error}`);
    assert.equal(error.code, code, error.message);
    return true;
  });
}

function claims(origin: string, now = Math.floor(Date.now() / 1000)) {
  return { iss: origin, sub: ADA.sub, aud: API, iat: now, exp: now + 300, jti: "j" };
}

/** A token with an HS256 signature keyed with `key`. */
async function hs256(header: Record<string, unknown>, payload: object, key: Uint8Array) {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const hmac = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(key.length > 0 ? key : new Uint8Array(1)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(input)),
  );
  return `${input}.${b64url(mac)}`;
}

function pem(der: ArrayBuffer): string {
  const base64 = btoa(String.fromCharCode(...new Uint8Array(der)));
  return `-----BEGIN PUBLIC KEY-----\n${
    base64.match(/.{1,64}/g)!.join("\n")
  }\n-----END PUBLIC KEY-----\n`;
}

Deno.test("verifyAccessToken resolves the claims of a token the service issued", async () => {
  await using it = await issuer([await keyPair("ES256")]);
  const token = await it.auth.api.issueAccessToken({ sub: ADA.sub }, {
    audience: [API, "https://b.example.com"],
    scope: "read",
  });
  const verified = await verifyAccessToken(token!, it.options);
  assert.equal(verified.sub, ADA.sub);
  assert.equal(verified.scope, "read");
  // One of several accepted audiences is enough.
  await verifyAccessToken(token!, { ...it.options, audience: ["https://b.example.com"] });
});

Deno.test("a warm JWKS is not fetched again for each token", async () => {
  await using it = await issuer([await keyPair("EdDSA")]);
  for (let i = 0; i < 5; i++) {
    const token = await it.auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API });
    await verifyAccessToken(token!, it.options);
  }
  assert.equal(it.calls.length, 1);
});

Deno.test("alg none is refused", async () => {
  await using it = await issuer([await keyPair("ES256")]);
  const header = { alg: "none", typ: "at+jwt", kid: it.jwks[0].kid };
  const token = `${b64url(JSON.stringify(header))}.${
    b64url(JSON.stringify(claims(it.options.issuer)))
  }.`;
  await rejectsWith(verifyAccessToken(token, it.options), "ERR_JOSE_ALG_NOT_ALLOWED");
  await rejectsWith(
    verifyAccessToken(token.replace(/\.$/, ".AAAA"), it.options),
    "ERR_JOSE_ALG_NOT_ALLOWED",
  );
});

for (const alg of ["RS256", "ES256", "EdDSA"] as const) {
  Deno.test(`HS256 keyed with the ${alg} public key is refused in every encoding`, async () => {
    const pair = await keyPair(alg);
    await using it = await issuer([pair]);
    const jwk = it.jwks[0] as Record<string, string>;
    const spki = await crypto.subtle.exportKey("spki", pair.publicKey);
    const encoder = new TextEncoder();
    const encodings: [string, Uint8Array][] = [
      ["JWK JSON as published", encoder.encode(JSON.stringify(jwk))],
      [
        "JWK JSON of the key",
        encoder.encode(JSON.stringify(await crypto.subtle.exportKey("jwk", pair.publicKey))),
      ],
      ["PEM SPKI", encoder.encode(pem(spki))],
      ["DER SPKI", new Uint8Array(spki)],
    ];
    if (alg === "RS256") {
      encodings.push(["n as text", encoder.encode(jwk.n)], [
        "n bytes",
        jose.base64url.decode(jwk.n),
      ]);
    } else {
      encodings.push(["x as text", encoder.encode(jwk.x)], [
        "x bytes",
        jose.base64url.decode(jwk.x),
      ]);
    }
    for (const [name, key] of encodings) {
      for (const kid of [jwk.kid, undefined]) {
        const header = { alg: "HS256", typ: "at+jwt", ...(kid ? { kid } : {}) };
        const token = await hs256(header, claims(it.options.issuer), key);
        await rejectsWith(verifyAccessToken(token, it.options), "ERR_JOSE_ALG_NOT_ALLOWED")
          .catch((error) => {
            throw new Error(`${name}: ${error.message}`);
          });
      }
    }
    // Nothing of this reached the network: HMAC is refused before any key lookup.
    assert.equal(it.calls.length, 0);
  });
}

Deno.test("an algorithm other than the key's is refused (RS256 key, PS256 header)", async () => {
  const pair = await keyPair("RS256");
  await using it = await issuer([pair]);
  const token = await new jose.SignJWT(claims(it.options.issuer))
    .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: it.jwks[0].kid })
    .sign(pair.privateKey);
  await verifyAccessToken(token, it.options);
  const [, payload] = token.split(".");
  const swapped = `${
    b64url(JSON.stringify({ alg: "PS256", typ: "at+jwt", kid: it.jwks[0].kid }))
  }.${payload}.${token.split(".")[2]}`;
  await rejectsWith(verifyAccessToken(swapped, it.options), "ERR_JOSE_KID_UNKNOWN");
});

Deno.test("a typ other than at+jwt is refused, even with a valid signature of a published key", async () => {
  const pair = await keyPair("ES256");
  await using it = await issuer([pair]);
  for (const typ of ["JWT", "jwt", "at+JWT+x", undefined]) {
    const header: jose.JWTHeaderParameters = { alg: "ES256", kid: it.jwks[0].kid };
    if (typ) header.typ = typ;
    const token = await new jose.SignJWT(claims(it.options.issuer)).setProtectedHeader(header)
      .sign(pair.privateKey);
    await rejectsWith(verifyAccessToken(token, it.options), "ERR_JOSE_TYP_MISMATCH");
  }
  const ok = await new jose.SignJWT(claims(it.options.issuer))
    .setProtectedHeader({ alg: "ES256", kid: it.jwks[0].kid, typ: "application/at+jwt" })
    .sign(pair.privateKey);
  await verifyAccessToken(ok, it.options);
});

Deno.test("a session token signed by a key of the same JWKS is never an access token", async () => {
  const pair = await keyPair("ES256");
  await using it = await issuer([pair], { secret: pair, jwt: { mode: "signed" } });
  const cookie = await signInAs(it.auth, ADA);
  const sessionToken = decodeURIComponent(cookie.split("=").slice(1).join("=").split(";")[0]);
  const header = JSON.parse(
    new TextDecoder().decode(jose.base64url.decode(sessionToken.split(".")[0])),
  );
  assert.equal(header.alg, "ES256");
  assert.ok(it.jwks.some((jwk) => jwk.kid === header.kid), "the session key is published");
  await rejectsWith(
    verifyAccessToken(sessionToken, { ...it.options, audience: ["https://api.example.com"] }),
    "ERR_JOSE_TYP_MISMATCH",
  );
});

Deno.test("a wrong audience or issuer is refused; the issuer must match exactly", async () => {
  await using it = await issuer([await keyPair("EdDSA")]);
  const token = await it.auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API });
  await rejectsWith(
    verifyAccessToken(token!, { ...it.options, audience: "https://other.example.com" }),
    "ERR_JWT_CLAIM_INVALID",
  );
  for (
    const issuer of [
      `${it.options.issuer}/`,
      "https://evil.example.com",
      it.options.issuer.toUpperCase(),
    ]
  ) {
    await rejectsWith(
      verifyAccessToken(token!, { ...it.options, issuer }),
      "ERR_JWT_CLAIM_INVALID",
    );
  }
});

Deno.test("an expired token is refused after the 5-second tolerance", async () => {
  await using it = await issuer([await keyPair("ES256")]);
  const token = await it.auth.api.issueAccessToken({ sub: ADA.sub }, {
    audience: API,
    expiresIn: 60,
  });
  it.clock.advance(64);
  await verifyAccessToken(token!, it.options);
  it.clock.advance(2);
  await rejectsWith(verifyAccessToken(token!, it.options), "ERR_JWT_EXPIRED");
});

Deno.test("a token issued in the future (iat) or not yet valid (nbf) is refused", async () => {
  const pair = await keyPair("ES256");
  await using it = await issuer([pair]);
  const now = Math.floor(it.clock.now / 1000);
  const future = await new jose.SignJWT({ ...claims(it.options.issuer, now + 60) })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: it.jwks[0].kid })
    .sign(pair.privateKey);
  await rejectsWith(verifyAccessToken(future, it.options), "ERR_JWT_NOT_YET_VALID");
  const nbf = await new jose.SignJWT({ ...claims(it.options.issuer, now), nbf: now + 60 })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: it.jwks[0].kid })
    .sign(pair.privateKey);
  await rejectsWith(verifyAccessToken(nbf, it.options), "ERR_JWT_NOT_YET_VALID");
});

Deno.test("a tampered payload or signature is refused", async () => {
  await using it = await issuer([await keyPair("EdDSA")]);
  const token = await it.auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API });
  const [h, p, s] = token!.split(".");
  const forged = b64url(JSON.stringify({ ...claims(it.options.issuer), sub: "admin" }));
  await rejectsWith(
    verifyAccessToken(`${h}.${forged}.${s}`, it.options),
    "ERR_JWS_SIGNATURE_INVALID",
  );
  const flipped = s.slice(0, 10) + (s[10] === "A" ? "B" : "A") + s.slice(11);
  await rejectsWith(
    verifyAccessToken(`${h}.${p}.${flipped}`, it.options),
    "ERR_JWS_SIGNATURE_INVALID",
  );
});

Deno.test("an unknown kid refetches the JWKS at once, then at most once a minute", async () => {
  const pair = await keyPair("ES256");
  const stranger = await keyPair("ES256");
  await using it = await issuer([pair]);
  const good = await it.auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API });
  await verifyAccessToken(good!, it.options);
  assert.equal(it.calls.length, 1);
  const unknown = (kid: string) =>
    new jose.SignJWT(claims(it.options.issuer, Math.floor(it.clock.now / 1000)))
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid }).sign(stranger.privateKey);
  await rejectsWith(verifyAccessToken(await unknown("k1"), it.options), "ERR_JOSE_KID_UNKNOWN");
  assert.equal(it.calls.length, 2, "one refetch");
  await rejectsWith(verifyAccessToken(await unknown("k2"), it.options), "ERR_JOSE_KID_UNKNOWN");
  await rejectsWith(verifyAccessToken(await unknown("k3"), it.options), "ERR_JOSE_KID_UNKNOWN");
  assert.equal(it.calls.length, 2, "no refetch within the minute");
  it.clock.advance(61);
  await rejectsWith(verifyAccessToken(await unknown("k4"), it.options), "ERR_JOSE_KID_UNKNOWN");
  assert.equal(it.calls.length, 3);
});

Deno.test("a key added by a rotation is found by the refetch its new kid triggers", async () => {
  const [old, next] = [await keyPair("ES256"), await keyPair("EdDSA")];
  await using it = await issuer([old]);
  await verifyAccessToken(
    (await it.auth.api.issueAccessToken({ sub: ADA.sub }, { audience: API }))!,
    it.options,
  );
  const rotated = tokenAuth([next, old], { baseURL: it.options.issuer, clock: it.clock.fn });
  it.setHandler(rotated.handlers.ALL);
  const token = await rotated.api.issueAccessToken({ sub: ADA.sub }, { audience: API });
  assert.equal((await verifyAccessToken(token!, it.options)).sub, ADA.sub);
  assert.equal(it.calls.length, 2);
});

Deno.test("a JWKS key that publishes private members verifies nothing", async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  await using server = serve(() =>
    Response.json({ keys: [{ ...privateJwk, kid: "leaked", alg: "ES256", use: "sig" }] })
  );
  const token = await new jose.SignJWT(claims(server.origin))
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "leaked" }).sign(pair.privateKey);
  await rejectsWith(
    verifyAccessToken(token, {
      issuer: server.origin,
      audience: API,
      jwksURL: `${server.origin}/jwks`,
      fetch: countingFetch().fetch,
    }),
    "ERR_JOSE_KID_UNKNOWN",
  );
  // The same key published without its private members verifies.
  const { d: _d, ...publicJwk } = privateJwk;
  await using clean = serve(() =>
    Response.json({ keys: [{ ...publicJwk, key_ops: undefined, kid: "leaked", alg: "ES256" }] })
  );
  const ok = await new jose.SignJWT(claims(clean.origin))
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "leaked" }).sign(pair.privateKey);
  await verifyAccessToken(ok, {
    issuer: clean.origin,
    audience: API,
    jwksURL: `${clean.origin}/jwks`,
    fetch: countingFetch().fetch,
  });
});

Deno.test("verifyAccessToken refuses a JWKS URL that is not https (http only on loopback)", async () => {
  for (
    const jwksURL of [
      "http://auth.example.com/jwks",
      "ftp://x/jwks",
      "not a url",
      "https://u:p@x/jwks",
    ]
  ) {
    await assert.rejects(
      verifyAccessToken("a.b.c", { issuer: "https://x", audience: API, jwksURL }),
      TypeError,
    );
  }
});

Deno.test("a JWKS endpoint that fails makes verification fail closed, and is not asked again at once", async () => {
  let asked = 0;
  await using server = serve(() => (asked++, new Response("down", { status: 503 })));
  const pair = await keyPair("ES256");
  const counted = countingFetch().fetch;
  const token = await new jose.SignJWT(claims(server.origin))
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k" }).sign(pair.privateKey);
  await rejectsWith(
    verifyAccessToken(token, {
      issuer: server.origin,
      audience: API,
      jwksURL: `${server.origin}/jwks`,
      fetch: counted,
    }),
    "ERR_JOSE_KID_UNKNOWN",
  );
  await rejectsWith(
    verifyAccessToken(token, {
      issuer: server.origin,
      audience: API,
      jwksURL: `${server.origin}/jwks`,
      fetch: counted,
    }),
    "ERR_JOSE_KID_UNKNOWN",
  );
  assert.equal(asked, 1);
});
