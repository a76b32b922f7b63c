/**
 * JOSE speed: `createJose` (sealed mode) beside `npm:jose@6` doing the same
 * work with the same pre-imported keys, and beside the bare Web Crypto calls
 * the work needs (the floor). Run with `deno bench -A bench/jose_bench.ts`.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import * as jose from "npm:jose@6";
import { createJose, decodeBase64Url } from "../jose.ts";

const subtle = crypto.subtle;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const hmac = await subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
const aes = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
  "encrypt",
  "decrypt",
]);
const ours = createJose({ sign: hmac, encrypt: aes });
const newer = {
  sign: await subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
  encrypt: await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]),
};
// After a rotation: a newer key issues, the bench's tokens are of the previous one.
const rotated = createJose([newer, { sign: hmac, encrypt: aes }]);
const claims = {
  sub: "user-1234567890",
  name: "Ada Lovelace",
  email: "ada@example.com",
  image: "https://avatars.example.com/u/1234567890",
};
const EXP = Math.floor(Date.now() / 1000) + 3600;

// Warm-up, and the tokens each side decodes.
const sealed = await ours.encodeJWT(claims);
await ours.decodeJWT(sealed);
await rotated.decodeJWT(await rotated.encodeJWT(claims));
await rotated.decodeJWT(sealed);
const signed = await ours.signJWS({ ...claims, exp: EXP });
const encrypted = await ours.encryptJWE(JSON.stringify(claims));

// What the bare calls are fed: the same bytes, decoded ahead of time.
const [h, , ivSeg, ctSeg, tagSeg] = sealed.split(".");
const iv = decodeBase64Url(ivSeg) as Uint8Array<ArrayBuffer>;
const ct = decodeBase64Url(ctSeg);
const tag = decodeBase64Url(tagSeg);
const sealedData = new Uint8Array(ct.length + tag.length);
sealedData.set(ct);
sealedData.set(tag, ct.length);
const aad = encoder.encode(h);
const innerJws = await ours.decryptJWE(sealed, { cty: "JWT" });
const innerInput = encoder.encode(innerJws.slice(0, innerJws.lastIndexOf(".")));
const innerSignature = decodeBase64Url(innerJws.slice(innerJws.lastIndexOf(".") + 1)) as Uint8Array<
  ArrayBuffer
>;
const signedInput = encoder.encode(signed.slice(0, signed.lastIndexOf(".")));
const signedSignature = decodeBase64Url(signed.slice(signed.lastIndexOf(".") + 1)) as Uint8Array<
  ArrayBuffer
>;
const gcm = (data: Uint8Array<ArrayBuffer>) => ({ name: "AES-GCM", iv: data, additionalData: aad });

async function joseSealed(payload: jose.JWTPayload): Promise<string> {
  const inner = await new jose.SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setNotBefore("0s")
    .setExpirationTime("30d")
    .setJti(crypto.randomUUID())
    .sign(hmac);
  return await new jose.CompactEncrypt(encoder.encode(inner))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM", cty: "JWT", typ: "JWT" })
    .encrypt(aes);
}

async function joseUnseal(token: string): Promise<jose.JWTPayload> {
  const { plaintext } = await jose.compactDecrypt(token, aes, {
    keyManagementAlgorithms: ["dir"],
    contentEncryptionAlgorithms: ["A256GCM"],
  });
  const { payload } = await jose.jwtVerify(decoder.decode(plaintext), hmac, {
    algorithms: ["HS256"],
    typ: "JWT",
  });
  return payload;
}

const joseToken = await joseSealed(claims);

/** Every case runs the same fixed count, so that runs on a busy machine stay comparable. */
const RUNS = { n: 4000, warmup: 400 };
await joseUnseal(joseToken);

// Sealed decode: decrypt + verify.
Deno.bench("bare Web Crypto: AES-GCM decrypt + HMAC verify", {
  group: "sealed decodeJWT",
  baseline: true,
  ...RUNS,
}, async () => {
  await subtle.decrypt(gcm(iv), aes, sealedData);
  await subtle.verify("HMAC", hmac, innerSignature, innerInput);
});
Deno.bench("ours: decodeJWT", { group: "sealed decodeJWT", ...RUNS }, async () => {
  await ours.decodeJWT(sealed);
});
Deno.bench(
  "ours: decodeJWT, a token of the previous key",
  { group: "sealed decodeJWT", ...RUNS },
  async () => {
    await rotated.decodeJWT(sealed);
  },
);
Deno.bench(
  "npm:jose: compactDecrypt + jwtVerify",
  { group: "sealed decodeJWT", ...RUNS },
  async () => {
    await joseUnseal(joseToken);
  },
);

// Sealed encode: sign + encrypt.
Deno.bench("bare Web Crypto: HMAC sign + AES-GCM encrypt", {
  group: "sealed encodeJWT",
  baseline: true,
  ...RUNS,
}, async () => {
  await subtle.sign("HMAC", hmac, innerInput);
  await subtle.encrypt(gcm(crypto.getRandomValues(new Uint8Array(12))), aes, innerInput);
});
Deno.bench("ours: encodeJWT", { group: "sealed encodeJWT", ...RUNS }, async () => {
  await ours.encodeJWT(claims);
});
Deno.bench(
  "npm:jose: SignJWT + CompactEncrypt",
  { group: "sealed encodeJWT", ...RUNS },
  async () => {
    await joseSealed(claims);
  },
);

// JWS alone.
Deno.bench(
  "bare Web Crypto: HMAC sign",
  { group: "sign (HS256)", baseline: true, ...RUNS },
  async () => {
    await subtle.sign("HMAC", hmac, signedInput);
  },
);
Deno.bench("ours: signJWS", { group: "sign (HS256)", ...RUNS }, async () => {
  await ours.signJWS({ ...claims, exp: EXP });
});
Deno.bench("npm:jose: SignJWT", { group: "sign (HS256)", ...RUNS }, async () => {
  await new jose.SignJWT({ ...claims, exp: EXP }).setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .sign(hmac);
});

Deno.bench(
  "bare Web Crypto: HMAC verify",
  { group: "verify (HS256)", baseline: true, ...RUNS },
  async () => {
    await subtle.verify("HMAC", hmac, signedSignature, signedInput);
  },
);
Deno.bench("ours: verifyJWS", { group: "verify (HS256)", ...RUNS }, async () => {
  await ours.verifyJWS(signed);
});
Deno.bench("npm:jose: jwtVerify", { group: "verify (HS256)", ...RUNS }, async () => {
  await jose.jwtVerify(signed, hmac, { algorithms: ["HS256"], typ: "JWT" });
});

// JWE alone.
const claimsBytes = encoder.encode(JSON.stringify(claims));
Deno.bench("bare Web Crypto: AES-GCM encrypt", {
  group: "encrypt (dir A256GCM)",
  baseline: true,
  ...RUNS,
}, async () => {
  await subtle.encrypt(gcm(crypto.getRandomValues(new Uint8Array(12))), aes, claimsBytes);
});
Deno.bench("ours: encryptJWE", { group: "encrypt (dir A256GCM)", ...RUNS }, async () => {
  await ours.encryptJWE(JSON.stringify(claims));
});
Deno.bench("npm:jose: CompactEncrypt", { group: "encrypt (dir A256GCM)", ...RUNS }, async () => {
  await new jose.CompactEncrypt(encoder.encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM", typ: "JWT" })
    .encrypt(aes);
});

const [eh, , eiv, ect, etag] = encrypted.split(".");
const encIv = decodeBase64Url(eiv) as Uint8Array<ArrayBuffer>;
const encData = new Uint8Array([...decodeBase64Url(ect), ...decodeBase64Url(etag)]);
const encAad = encoder.encode(eh);
Deno.bench("bare Web Crypto: AES-GCM decrypt", {
  group: "decrypt (dir A256GCM)",
  baseline: true,
  ...RUNS,
}, async () => {
  await subtle.decrypt({ name: "AES-GCM", iv: encIv, additionalData: encAad }, aes, encData);
});
Deno.bench("ours: decryptJWE", { group: "decrypt (dir A256GCM)", ...RUNS }, async () => {
  await ours.decryptJWE(encrypted);
});
Deno.bench("npm:jose: compactDecrypt", { group: "decrypt (dir A256GCM)", ...RUNS }, async () => {
  await jose.compactDecrypt(encrypted, aes, {
    keyManagementAlgorithms: ["dir"],
    contentEncryptionAlgorithms: ["A256GCM"],
  });
});
