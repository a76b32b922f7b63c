import assert from "node:assert/strict";
import {
  createJose,
  decodeBase64Url,
  decryptCompactJWE,
  type Jose,
  joseForPurpose,
  type JWTKey,
  type JWTMode,
  type TokenPurpose,
  verifyCompactJWS,
} from "../../jose.ts";
import { countSubtle } from "./_subtle.ts";
import { headerOf } from "./_tokens.ts";

const SECRET = "a-secret-that-is-long-enough-for-every-purpose";
const PURPOSES: TokenPurpose[] = [
  "session",
  "csrf",
  "oauth-flow",
  "email",
  "two-factor",
  "passkey",
];
const RSA = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
const decoder = new TextDecoder();

/** How a token is protected, read from its shape. */
function shape(token: string): "signed" | "encrypted" | "sealed" {
  if (token.split(".").length === 3) return "signed";
  return headerOf(token).cty === "JWT" ? "sealed" : "encrypted";
}

function josesFor(key: JWTKey, mode: JWTMode): Record<TokenPurpose, Jose> {
  return {
    session: joseForPurpose(key, { purpose: "session", mode }),
    csrf: joseForPurpose(key, { purpose: "csrf", mode }),
    "oauth-flow": joseForPurpose(key, { purpose: "oauth-flow", mode }),
    email: joseForPurpose(key, { purpose: "email", mode }),
    "two-factor": joseForPurpose(key, { purpose: "two-factor", mode }),
    passkey: joseForPurpose(key, { purpose: "passkey", mode }),
    "provider-tokens": joseForPurpose(key, { purpose: "provider-tokens", mode }),
  };
}

const hmacKey = () =>
  crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);

/** Each key kind, the session mode it is configured with, and the shape of each purpose's tokens. */
const cases: [string, () => Promise<JWTKey>, JWTMode, Record<TokenPurpose, string>][] = [
  [
    "a string secret",
    () => Promise.resolve(SECRET),
    "sealed",
    {
      session: "sealed",
      csrf: "signed",
      "oauth-flow": "sealed",
      email: "sealed",
      "two-factor": "sealed",
      passkey: "sealed",
      "provider-tokens": "sealed",
    },
  ],
  [
    "a string secret in encrypted mode",
    () => Promise.resolve(SECRET),
    "encrypted",
    {
      session: "encrypted",
      csrf: "signed",
      "oauth-flow": "sealed",
      email: "sealed",
      "two-factor": "sealed",
      passkey: "sealed",
      "provider-tokens": "sealed",
    },
  ],
  [
    "a { sign, encrypt } CryptoSecret",
    async () => ({
      sign: await hmacKey(),
      encrypt: await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
        "encrypt",
        "decrypt",
      ]),
    }),
    "sealed",
    {
      session: "sealed",
      csrf: "signed",
      "oauth-flow": "sealed",
      email: "sealed",
      "two-factor": "sealed",
      passkey: "sealed",
      "provider-tokens": "sealed",
    },
  ],
  [
    "one AES-GCM key",
    () =>
      crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
    "encrypted",
    {
      session: "encrypted",
      csrf: "encrypted",
      "oauth-flow": "encrypted",
      email: "encrypted",
      "two-factor": "encrypted",
      passkey: "encrypted",
      "provider-tokens": "encrypted",
    },
  ],
  [
    "one AES-KW key",
    () =>
      crypto.subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["wrapKey", "unwrapKey"]),
    "encrypted",
    {
      session: "encrypted",
      csrf: "encrypted",
      "oauth-flow": "encrypted",
      email: "encrypted",
      "two-factor": "encrypted",
      passkey: "encrypted",
      "provider-tokens": "encrypted",
    },
  ],
  [
    "one RSA-OAEP pair",
    () =>
      crypto.subtle.generateKey({ name: "RSA-OAEP", hash: "SHA-256", ...RSA }, false, [
        "encrypt",
        "decrypt",
      ]),
    "encrypted",
    {
      session: "encrypted",
      csrf: "encrypted",
      "oauth-flow": "encrypted",
      email: "encrypted",
      "two-factor": "encrypted",
      passkey: "encrypted",
      "provider-tokens": "encrypted",
    },
  ],
  [
    "one ECDH pair",
    () => crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]),
    "encrypted",
    {
      session: "encrypted",
      csrf: "encrypted",
      "oauth-flow": "encrypted",
      email: "encrypted",
      "two-factor": "encrypted",
      passkey: "encrypted",
      "provider-tokens": "encrypted",
    },
  ],
  [
    "one HMAC key",
    hmacKey,
    "signed",
    {
      session: "signed",
      csrf: "signed",
      "oauth-flow": "sealed",
      email: "sealed",
      "two-factor": "sealed",
      passkey: "sealed",
      "provider-tokens": "sealed",
    },
  ],
  [
    "one Ed25519 pair",
    () =>
      crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]) as Promise<
        CryptoKeyPair
      >,
    "signed",
    {
      session: "signed",
      csrf: "signed",
      "oauth-flow": "signed",
      email: "signed",
      "two-factor": "signed",
      passkey: "signed",
      "provider-tokens": "signed",
    },
  ],
  [
    "one ECDSA pair",
    () =>
      crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]),
    "signed",
    {
      session: "signed",
      csrf: "signed",
      "oauth-flow": "signed",
      email: "signed",
      "two-factor": "signed",
      passkey: "signed",
      "provider-tokens": "signed",
    },
  ],
  [
    "one RSASSA-PKCS1-v1_5 pair",
    () =>
      crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", ...RSA }, false, [
        "sign",
        "verify",
      ]),
    "signed",
    {
      session: "signed",
      csrf: "signed",
      "oauth-flow": "signed",
      email: "signed",
      "two-factor": "signed",
      passkey: "signed",
      "provider-tokens": "signed",
    },
  ],
];

for (const [name, make, mode, shapes] of cases) {
  Deno.test(`${name}: every purpose makes and reads its tokens, protected as the key allows`, async () => {
    const joses = josesFor(await make(), mode);
    for (const purpose of PURPOSES) {
      const token = await joses[purpose].encodeJWT({ v: purpose });
      assert.equal(shape(token), shapes[purpose], purpose);
      assert.equal((await joses[purpose].decodeJWT(token)).v, purpose);
    }
  });

  Deno.test(`${name}: a token of one purpose is refused by the other two`, async () => {
    const joses = josesFor(await make(), mode);
    for (const made of PURPOSES) {
      const token = await joses[made].encodeJWT({});
      for (const reader of PURPOSES.filter((purpose) => purpose !== made)) {
        await assert.rejects(joses[reader].decodeJWT(token), `${made} read as ${reader}`);
      }
    }
  });
}

Deno.test("one AES-GCM key: csrf and flow tokens are refused by their typ, not by chance", async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  const joses = josesFor(key, "encrypted");
  const flow = await joses["oauth-flow"].encodeJWT({});
  assert.equal(headerOf(flow).typ, "oauth-flow+jwt");
  await assert.rejects(joses.csrf.decodeJWT(flow), { code: "ERR_JOSE_TYP_MISMATCH" });
  await assert.rejects(joses.session.decodeJWT(await joses.csrf.encodeJWT({})), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("one HMAC key: flow tokens are unreadable without the key", async () => {
  const flow = joseForPurpose(await hmacKey(), { purpose: "oauth-flow", mode: "signed" });
  const token = await flow.encodeJWT({ v: "pkce-verifier-value" });
  assert.equal(token.split(".").length, 5);
  for (const segment of token.split(".")) {
    assert.doesNotMatch(decoder.decode(decodeBase64Url(segment)), /pkce-verifier/);
  }
});

Deno.test("one HMAC key: the flow encryption key is HMAC(key, '@service-stack/auth oauth-flow encryption')", async () => {
  const key = await hmacKey();
  const token = await joseForPurpose(key, { purpose: "oauth-flow", mode: "signed" }).encodeJWT({
    v: "x",
  });
  const label = new TextEncoder().encode("@service-stack/auth oauth-flow encryption");
  const bytes = new Uint8Array(await crypto.subtle.sign("HMAC", key, label)).subarray(0, 32);
  const derived = await crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["decrypt"]);
  const { plaintext, header } = await decryptCompactJWE(token, derived);
  assert.equal(header.cty, "JWT");
  const inner = await verifyCompactJWS(decoder.decode(plaintext), key, { typ: "oauth-flow+jwt" });
  assert.equal(JSON.parse(decoder.decode(inner.payload)).v, "x");
});

Deno.test("one HMAC key: the flow key is derived once, on first use", async () => {
  const key = await hmacKey();
  let flow: Jose | undefined;
  assert.deepEqual(
    await countSubtle(() =>
      Promise.resolve(flow = joseForPurpose(key, { purpose: "oauth-flow", mode: "signed" }))
    ),
    {},
  );
  const counts = await countSubtle(async () => {
    const tokens = await Promise.all([1, 2, 3].map(() => flow!.encodeJWT({})));
    for (const token of tokens) await flow!.decodeJWT(token);
  });
  // sign: 1 for the kid, 1 for the derived key, 3 tokens; importKey: the derived key. The sealing
  // key derives from the HMAC key, so AES-GCM authenticates the inner JWS: no verify.
  assert.deepEqual(counts, { sign: 5, importKey: 1, encrypt: 3, decrypt: 3 });
});

Deno.test("one HMAC key without the sign usage cannot seal flow tokens", async () => {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const verifyOnly = await crypto.subtle.importKey(
    "raw",
    raw,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const flow = joseForPurpose(verifyOnly, { purpose: "oauth-flow", mode: "signed" });
  await assert.rejects(flow.encodeJWT({}), { code: "ERR_JOSE_KEY_INVALID" });
});

Deno.test("a list of HMAC keys rotates flow tokens too", async () => {
  const [a, b] = [await hmacKey(), await hmacKey()];
  const old = await joseForPurpose(a, { purpose: "oauth-flow" }).encodeJWT({ v: "a" });
  const rotated = joseForPurpose([b, a], { purpose: "oauth-flow" });
  assert.equal((await rotated.decodeJWT(old)).v, "a");
  const fresh = await rotated.encodeJWT({ v: "b" });
  assert.equal((await joseForPurpose(b, { purpose: "oauth-flow" }).decodeJWT(fresh)).v, "b");
});

Deno.test("session tokens follow the mode exactly as createJose does", async () => {
  const session = joseForPurpose(SECRET, { purpose: "session", mode: "encrypted" });
  const token = await session.encodeJWT({ sub: "s" });
  assert.equal((await createJose(SECRET, { mode: "encrypted" }).decodeJWT(token)).sub, "s");
  const hmac = await hmacKey();
  assert.throws(() => joseForPurpose(hmac, { purpose: "session", mode: "sealed" }), {
    code: "ERR_JOSE_KEY_INVALID",
  });
});

Deno.test("a string secret gives the same csrf and flow tokens as createJose with signed and sealed", async () => {
  const csrf = await joseForPurpose(SECRET, { purpose: "csrf" }).encodeJWT({ v: 1 });
  assert.equal(
    (await createJose(SECRET, { purpose: "csrf", mode: "signed" }).decodeJWT(csrf)).v,
    1,
  );
  const flow = await joseForPurpose(SECRET, { purpose: "oauth-flow" }).encodeJWT({ v: 2 });
  assert.equal((await createJose(SECRET, { purpose: "oauth-flow" }).decodeJWT(flow)).v, 2);
});

Deno.test("the createJose options pass through: salt, maxAge, clock", async () => {
  const clock = () => 1_700_000_000_000;
  const csrf = joseForPurpose(SECRET, { purpose: "csrf", salt: "pepper", maxAge: 60, clock });
  const claims = await csrf.decodeJWT(await csrf.encodeJWT({}));
  assert.equal(claims.exp, 1_700_000_060);
  const unsalted = joseForPurpose(SECRET, { purpose: "csrf", clock });
  await assert.rejects(unsalted.decodeJWT(await csrf.encodeJWT({})));
});

Deno.test("an unknown purpose throws TypeError", () => {
  for (const purpose of ["", "Session", "flow", undefined]) {
    assert.throws(
      () => joseForPurpose(SECRET, { purpose: purpose as TokenPurpose }),
      TypeError,
      String(purpose),
    );
  }
});

Deno.test("an empty key list throws for every purpose", () => {
  for (const purpose of PURPOSES) {
    assert.throws(() => joseForPurpose([], { purpose }), { code: "ERR_JOSE_KEY_INVALID" });
  }
});
