/**
 * A hostile OpenID provider for tests: a real HTTP server on 127.0.0.1
 * serving discovery, JWKS, token and user-info endpoints, whose every answer
 * can be switched to a defect (a forged ID token, a lying discovery
 * document, a JWKS full of decoys, a body too large or too slow), counting
 * the requests each path receives.
 *
 * @module
 */

import { encodeBase64Url, encryptCompactJWE } from "../../../jose.ts";

/** A JWS algorithm the provider can sign with. */
export type SigningAlg =
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "ES256"
  | "ES384"
  | "ES512"
  | "EdDSA";

/** How the ID token is broken. */
export type Defect =
  | "valid"
  | "bad-signature"
  | "tampered-payload"
  | "alg-none"
  | "hs256-client-secret"
  | "wrong-iss"
  | "iss-trailing-slash"
  | "wrong-aud"
  | "several-aud-no-azp"
  | "several-aud-azp-other"
  | "azp-other"
  | "expired"
  | "missing-exp"
  | "missing-iat"
  | "string-iat"
  | "future-nbf"
  | "missing-nonce"
  | "wrong-nonce"
  | "missing-sub"
  | "empty-sub"
  | "numeric-sub"
  | "jwe"
  | "crit"
  | "typ-at-jwt"
  | "unknown-kid"
  | "no-kid"
  | "embedded-jwk"
  | "alg-swap"
  | "garbage";

/** What the discovery endpoint answers. */
export type DiscoveryMode =
  | "ok"
  | "issuer-mismatch"
  | "issuer-trailing-slash"
  | "http-endpoint-elsewhere"
  | "no-jwks-uri"
  | "no-token-endpoint"
  | "not-found"
  | "oversized"
  | "oversized-chunked"
  | "slow-headers"
  | "slow-body"
  | "malformed"
  | "array"
  | "html"
  | "redirect";

/** What the JWKS endpoint answers. */
export type JwksMode =
  | "ok"
  | "decoys"
  | "oversized"
  | "slow-headers"
  | "slow-body"
  | "malformed"
  | "no-keys"
  | "error";

/** A key the provider publishes (or forges with). */
export interface ProviderKey {
  kid: string;
  alg: SigningAlg;
  privateKey: CryptoKey;
  publicJwk: JsonWebKey;
}

/** Options of {@link startHostileOP}. */
export interface HostileOPOptions {
  /** Path of the issuer identifier, e.g. `/tenant`; default none. */
  issuerPath?: string;
  /** Algorithm of the first signing key; default RS256. */
  alg?: SigningAlg;
  /** Client credentials the provider knows. */
  clientId?: string;
  /** At least 32 bytes, so that HS256 keyed with it is possible. */
  clientSecret?: string;
}

/** The running provider; every mode field can be changed between requests. */
export interface HostileOP extends AsyncDisposable {
  /** The issuer identifier: `http://127.0.0.1:PORT` plus the issuer path. */
  issuer: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  clientId: string;
  clientSecret: string;
  /** The key that signs valid tokens now. */
  current: ProviderKey;
  /** Every key published in the JWKS. */
  published: ProviderKey[];
  discovery: DiscoveryMode;
  jwks: JwksMode;
  /** What the token endpoint's ID token looks like; `"absent"` omits it. */
  tokenDefect: Defect | "absent";
  /** The nonce the token endpoint's ID token carries. */
  tokenNonce?: string;
  /** The `sub` the user-info endpoint answers; default the ID token's. */
  userInfoSub?: string;
  /** Requests received per path. */
  hits(path: string): number;
  /** Signs an ID token with `defect`; `nonce` (default `"n-0"`) unless the defect removes it. */
  mint(defect: Defect, options?: { nonce?: string; claims?: Record<string, unknown> }): Promise<
    string
  >;
  /** Generates a new key with a new `kid`, publishes it and signs with it from now on. */
  rotate(options?: { alg?: SigningAlg; keepOld?: boolean }): Promise<ProviderKey>;
  /** Stops the server; pending slow answers end. */
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const RSA = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
/** The subject of every token unless a defect changes it. */
export const SUBJECT = "user-1";

/** Generation and signing parameters of an algorithm. */
function params(alg: SigningAlg): {
  generate: RsaHashedKeyGenParams | EcKeyGenParams | Algorithm;
  sign: Algorithm | RsaPssParams | EcdsaParams;
} {
  const bits = alg.slice(2);
  switch (alg.slice(0, 2)) {
    case "RS":
      return {
        generate: { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${bits}`, ...RSA },
        sign: { name: "RSASSA-PKCS1-v1_5" },
      };
    case "PS":
      return {
        generate: { name: "RSA-PSS", hash: `SHA-${bits}`, ...RSA },
        sign: { name: "RSA-PSS", saltLength: Number(bits) / 8 } as RsaPssParams,
      };
    case "ES":
      return {
        generate: { name: "ECDSA", namedCurve: bits === "512" ? "P-521" : `P-${bits}` },
        sign: { name: "ECDSA", hash: `SHA-${bits}` } as EcdsaParams,
      };
    default:
      return { generate: { name: "Ed25519" }, sign: { name: "Ed25519" } };
  }
}

/** Generates a signing key for `alg` with its public JWK (members only, plus kid/alg/use). */
export async function generateKey(alg: SigningAlg, kid: string): Promise<ProviderKey> {
  const pair = await crypto.subtle.generateKey(params(alg).generate, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const { kty, n, e, crv, x, y } = jwk;
  const publicJwk = Object.fromEntries(
    Object.entries({ kty, n, e, crv, x, y }).filter(([, value]) => value !== undefined),
  ) as JsonWebKey;
  return {
    kid,
    alg,
    privateKey: pair.privateKey,
    publicJwk: { ...publicJwk, kid, alg, use: "sig" } as JsonWebKey,
  };
}

// RSA generation is slow: each test process makes the first and the attacker key once per algorithm.
const pool = new Map<string, Promise<ProviderKey>>();

function pooledKey(alg: SigningAlg, role: "first" | "attacker"): Promise<ProviderKey> {
  const name = `${alg} ${role}`;
  let key = pool.get(name);
  if (key === undefined) {
    key = generateKey(alg, "key-1");
    pool.set(name, key);
  }
  return key;
}

function segment(value: unknown): string {
  return encodeBase64Url(encoder.encode(JSON.stringify(value)));
}

/** Signs header and claims with a private key (or HMAC key) under `alg`'s parameters. */
export async function signJwt(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: CryptoKey,
  signParams: Algorithm,
): Promise<string> {
  const input = `${segment(header)}.${segment(claims)}`;
  const signature = await crypto.subtle.sign(signParams, key, encoder.encode(input));
  return `${input}.${encodeBase64Url(new Uint8Array(signature))}`;
}

/** Keys no verifier should use, published beside the real one in `decoys` mode. */
function decoyKeys(real: ProviderKey): unknown[] {
  const rsa = real.publicJwk as Record<string, unknown>;
  return [
    { kty: "oct", kid: "decoy-oct", k: "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA" },
    { kty: "EC", kid: "decoy-k1", crv: "secp256k1", x: "AAAA", y: "AAAA", alg: "ES256K" },
    { kty: "OKP", kid: "decoy-448", crv: "Ed448", x: "AAAA" },
    { kty: "OKP", kid: "decoy-x25519", crv: "X25519", x: "AAAA" },
    { kty: "RSA", kid: "decoy-enc", n: rsa.n ?? "AQAB", e: "AQAB", use: "enc" },
    { kty: "RSA", kid: "decoy-oaep", n: rsa.n ?? "AQAB", e: "AQAB", alg: "RSA-OAEP-256" },
    { kty: "RSA", kid: "decoy-broken", n: "!!not-base64!!", e: "AQAB", alg: "RS256" },
    { kty: "RSA", kid: "decoy-short", n: "AQAB", e: "AQAB", alg: "RS256" },
    { kty: "PQC", kid: "decoy-pqc", pub: "AAAA", alg: "ML-DSA-44" },
    { kid: "decoy-no-kty" },
    "not a key",
    null,
    { kty: "EC", kid: "decoy-ops", crv: "P-256", x: "AAAA", y: "AAAA", key_ops: ["encrypt"] },
  ];
}

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { "Content-Type": "application/json", ...init.headers },
  });
}

/** A body of `size` bytes streamed without Content-Length. */
function chunked(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(16 * 1024, size - sent)).fill(0x20);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

/**
 * Starts the provider on 127.0.0.1 with a free port.
 *
 * @example
 * ```ts ignore
 * await using op = await startHostileOP();
 * op.jwks = "decoys";
 * const token = await op.mint("valid");
 * ```
 */
export async function startHostileOP(options: HostileOPOptions = {}): Promise<HostileOP> {
  const counts = new Map<string, number>();
  const closing = new AbortController();
  const first = await pooledKey(options.alg ?? "RS256", "first");
  const attacker = await pooledKey(options.alg ?? "RS256", "attacker");
  let kidCounter = 1;

  /** Waits until the client gives up or the server closes. */
  function stall(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted || closing.signal.aborted) return resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
      closing.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  }

  function stalledBody(start: string): ReadableStream<Uint8Array> {
    let stop: () => void = () => {};
    return new ReadableStream({
      start(controller) {
        controller.enqueue(encoder.encode(start));
        const end = () => {
          try {
            controller.close();
          } catch {
            // Already cancelled by the client.
          }
        };
        stop = end;
        closing.signal.addEventListener("abort", end, { once: true });
      },
      cancel() {
        closing.signal.removeEventListener("abort", stop);
      },
    });
  }

  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: closing.signal,
    onListen: () => {},
  }, (request) => handle(request));
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const issuer = `${origin}${options.issuerPath ?? ""}`;

  const op: HostileOP = {
    issuer,
    origin,
    clientId: options.clientId ?? "client-1",
    clientSecret: options.clientSecret ?? "client-secret-that-is-at-least-32-bytes",
    current: first,
    published: [first],
    discovery: "ok",
    jwks: "ok",
    tokenDefect: "valid",
    tokenNonce: undefined,
    userInfoSub: undefined,
    hits: (path) => counts.get(path) ?? 0,
    mint,
    rotate,
    close,
    [Symbol.asyncDispose]: close,
  };

  async function rotate(
    rotateOptions: { alg?: SigningAlg; keepOld?: boolean } = {},
  ): Promise<ProviderKey> {
    kidCounter++;
    const key = await generateKey(rotateOptions.alg ?? op.current.alg, `key-${kidCounter}`);
    op.published = rotateOptions.keepOld ? [...op.published, key] : [key];
    op.current = key;
    return key;
  }

  function metadata(): Record<string, unknown> {
    return {
      issuer,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      userinfo_endpoint: `${origin}/userinfo`,
      jwks_uri: `${origin}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: [op.current.alg, "none", "HS256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
    };
  }

  async function discoveryAnswer(request: Request): Promise<Response> {
    const body = metadata();
    switch (op.discovery) {
      case "ok":
        return json(body);
      case "issuer-mismatch":
        return json({ ...body, issuer: "https://attacker.example" });
      case "issuer-trailing-slash":
        return json({ ...body, issuer: `${issuer}/` });
      case "http-endpoint-elsewhere":
        return json({ ...body, token_endpoint: "http://attacker.example/token" });
      case "no-jwks-uri": {
        const { jwks_uri: _, ...rest } = body;
        return json(rest);
      }
      case "no-token-endpoint": {
        const { token_endpoint: _, ...rest } = body;
        return json(rest);
      }
      case "not-found":
        return new Response("Not Found", { status: 404 });
      case "oversized":
        return json({ ...body, padding: "x".repeat(300 * 1024) });
      case "oversized-chunked":
        return new Response(chunked(300 * 1024), {
          headers: { "Content-Type": "application/json" },
        });
      case "slow-headers":
        await stall(request.signal);
        return json(body);
      case "slow-body":
        return new Response(stalledBody('{"issuer":'), {
          headers: { "Content-Type": "application/json" },
        });
      case "malformed":
        return new Response('{"issuer": "', { headers: { "Content-Type": "application/json" } });
      case "array":
        return json([body]);
      case "html":
        return new Response("<html>sign in</html>", { headers: { "Content-Type": "text/html" } });
      case "redirect":
        return new Response(null, {
          status: 302,
          headers: { Location: "https://attacker.example/" },
        });
    }
  }

  async function jwksAnswer(request: Request): Promise<Response> {
    const keys = op.published.map((key) => key.publicJwk);
    switch (op.jwks) {
      case "ok":
        return json({ keys });
      case "decoys":
        return json({ keys: [...decoyKeys(op.current), ...keys] });
      case "oversized":
        return json({ keys, padding: "x".repeat(300 * 1024) });
      case "slow-headers":
        await stall(request.signal);
        return json({ keys });
      case "slow-body":
        return new Response(stalledBody('{"keys":['), {
          headers: { "Content-Type": "application/json" },
        });
      case "malformed":
        return new Response('{"keys": [', { headers: { "Content-Type": "application/json" } });
      case "no-keys":
        return json({ key: keys });
      case "error":
        return new Response("oops", { status: 500 });
    }
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    const wellKnownOpenID = `${options.issuerPath ?? ""}/.well-known/openid-configuration`;
    const wellKnownOAuth = `/.well-known/oauth-authorization-server${options.issuerPath ?? ""}`;
    if (url.pathname === wellKnownOpenID) return await discoveryAnswer(request);
    if (url.pathname === wellKnownOAuth) return json(metadata());
    if (url.pathname === "/jwks") return await jwksAnswer(request);
    if (url.pathname === "/token" && request.method === "POST") {
      await request.body?.cancel();
      const body: Record<string, unknown> = { access_token: "at-1", token_type: "Bearer" };
      if (op.tokenDefect !== "absent") {
        body.id_token = await mint(op.tokenDefect, { nonce: op.tokenNonce });
      }
      return json(body);
    }
    if (url.pathname === "/userinfo") {
      return json({ sub: op.userInfoSub ?? SUBJECT, email: "user-1@example.com" });
    }
    return new Response("Not Found", { status: 404 });
  }

  async function mint(
    defect: Defect,
    mintOptions: { nonce?: string; claims?: Record<string, unknown> } = {},
  ): Promise<string> {
    const key = op.current;
    const nowSec = Math.floor(Date.now() / 1000);
    const header: Record<string, unknown> = { alg: key.alg, typ: "JWT", kid: key.kid };
    const claims: Record<string, unknown> = {
      iss: issuer,
      sub: SUBJECT,
      aud: op.clientId,
      exp: nowSec + 600,
      iat: nowSec,
      nonce: mintOptions.nonce ?? "n-0",
      email: "user-1@example.com",
      ...mintOptions.claims,
    };
    let signingKey = key.privateKey;
    let signParams = params(key.alg).sign;
    switch (defect) {
      case "valid":
        break;
      case "bad-signature":
        // Signed by a key the provider never published, under the real kid.
        signingKey = attacker.privateKey;
        signParams = params(attacker.alg).sign;
        header.alg = attacker.alg;
        break;
      case "tampered-payload": {
        const token = await signJwt(header, claims, signingKey, signParams);
        const [h, , s] = token.split(".");
        return `${h}.${segment({ ...claims, sub: "admin" })}.${s}`;
      }
      case "alg-none":
        return `${segment({ alg: "none", typ: "JWT" })}.${segment(claims)}.`;
      case "hs256-client-secret": {
        const hmac = await crypto.subtle.importKey(
          "raw",
          encoder.encode(op.clientSecret),
          { name: "HMAC", hash: "SHA-256" },
          false,
          ["sign"],
        );
        return await signJwt({ alg: "HS256", typ: "JWT" }, claims, hmac, { name: "HMAC" });
      }
      case "wrong-iss":
        claims.iss = "https://attacker.example";
        break;
      case "iss-trailing-slash":
        claims.iss = `${issuer}/`;
        break;
      case "wrong-aud":
        claims.aud = "another-client";
        break;
      case "several-aud-no-azp":
        claims.aud = [op.clientId, "another-client"];
        break;
      case "several-aud-azp-other":
        claims.aud = [op.clientId, "another-client"];
        claims.azp = "another-client";
        break;
      case "azp-other":
        claims.azp = "another-client";
        break;
      case "expired":
        claims.iat = nowSec - 3600;
        claims.exp = nowSec - 120;
        break;
      case "missing-exp":
        delete claims.exp;
        break;
      case "missing-iat":
        delete claims.iat;
        break;
      case "string-iat":
        claims.iat = String(nowSec);
        break;
      case "future-nbf":
        claims.nbf = nowSec + 600;
        break;
      case "missing-nonce":
        delete claims.nonce;
        break;
      case "wrong-nonce":
        claims.nonce = "n-attacker";
        break;
      case "missing-sub":
        delete claims.sub;
        break;
      case "empty-sub":
        claims.sub = "";
        break;
      case "numeric-sub":
        claims.sub = 42;
        break;
      case "jwe": {
        const inner = await signJwt(header, claims, signingKey, signParams);
        const cek = crypto.getRandomValues(new Uint8Array(32));
        return await encryptCompactJWE(inner, cek, { alg: "dir", enc: "A256GCM", cty: "JWT" });
      }
      case "crit":
        header.crit = ["exp"];
        break;
      case "typ-at-jwt":
        header.typ = "at+jwt";
        break;
      case "unknown-kid":
        header.kid = "kid-nobody-published";
        break;
      case "no-kid":
        delete header.kid;
        break;
      case "embedded-jwk":
        // The attacker's own key, offered in the header: a verifier must never use it.
        signingKey = attacker.privateKey;
        signParams = params(attacker.alg).sign;
        header.alg = attacker.alg;
        header.jwk = attacker.publicJwk;
        delete header.kid;
        break;
      case "alg-swap":
        // An RSA key's token relabelled PS256 / RS256: the signature must not verify either way.
        header.alg = key.alg === "PS256" ? "RS256" : "PS256";
        break;
      case "garbage":
        return "not.a.jwt";
    }
    return await signJwt(header, claims, signingKey, signParams);
  }

  async function close(): Promise<void> {
    if (!closing.signal.aborted) closing.abort();
    await server.finished;
  }

  return op;
}
