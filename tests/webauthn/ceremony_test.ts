import assert from "node:assert/strict";
import { verifyAssertion } from "../../src/webauthn/assertion.ts";
import { aaguidToString, parseAuthenticatorData } from "../../src/webauthn/authenticator_data.ts";
import { importCredentialKey } from "../../src/webauthn/cose.ts";
import { hashRpId, verifyRegistration } from "../../src/webauthn/registration.ts";
import {
  b64,
  challenge,
  createAuthenticator,
  FLAG,
  fromB64,
  type JsonObject,
  ORIGIN,
  RP_ID,
  type SoftAuthenticator,
} from "./_authenticator.ts";
import { prng } from "../_prng.ts";

const AAGUID = new Uint8Array([
  0xad,
  0xce,
  0x00,
  0x02,
  0x35,
  0xbc,
  0xc6,
  0x0a,
  0x64,
  0x8b,
  0x0b,
  0x25,
  0xf1,
  0xf0,
  0x55,
  0x03,
]);

async function register(
  auth: SoftAuthenticator,
  knobs: Partial<Parameters<SoftAuthenticator["register"]>[0]> = {},
) {
  const c = challenge();
  return await verifyRegistration({
    response: await auth.register({ challenge: c, ...knobs }),
    expectedChallenge: c,
    expectedOrigins: [ORIGIN],
    rpID: RP_ID,
  });
}

Deno.test("registration returns the credential record: id, SPKI key, algorithm, counter, aaguid, backup state", async () => {
  const auth = await createAuthenticator(-7);
  const result = await register(auth, {
    aaguid: AAGUID,
    signCount: 7,
    flags: FLAG.UP | FLAG.UV | FLAG.AT | FLAG.BE,
  });
  assert.equal(result.credentialId, auth.id);
  assert.equal(result.algorithm, -7);
  assert.equal(result.counter, 7);
  assert.equal(result.aaguid, "adce0002-35bc-c60a-648b-0b25f1f05503");
  assert.equal(result.deviceType, "multiDevice");
  assert.equal(result.backedUp, false);
  assert.equal(result.userVerified, true);
  assert.equal(result.attestationFormat, "none");
  assert.deepEqual(result.transports, ["internal", "hybrid"]);
  const key = await importCredentialKey(result.publicKey, -7);
  assert.equal(key.algorithm.name, "ECDSA");
});

Deno.test("registration keeps known transports once each, drops unknown ones, refuses a non-array", async () => {
  const auth = await createAuthenticator(-8);
  const result = await register(auth, { transports: ["usb", "carrier-pigeon", "usb", 5, "nfc"] });
  assert.deepEqual(result.transports, ["usb", "nfc"]);
  assert.deepEqual((await register(auth, { transports: [] })).transports, []);
  await assert.rejects(register(auth, { transports: "usb" }), { reason: "response_malformed" });
});

Deno.test("registration: a single-device credential is singleDevice and not backed up", async () => {
  const result = await register(await createAuthenticator(-8));
  assert.equal(result.deviceType, "singleDevice");
  assert.equal(result.backedUp, false);
});

Deno.test("registration takes a precomputed rpIdHash and refuses a wrong one", async () => {
  const auth = await createAuthenticator(-8);
  const c = challenge();
  const response = await auth.register({ challenge: c });
  const base = { response, expectedChallenge: c, expectedOrigins: [ORIGIN], rpID: RP_ID };
  await verifyRegistration({ ...base, rpIdHash: await hashRpId(RP_ID) });
  await assert.rejects(verifyRegistration({ ...base, rpIdHash: await hashRpId("other.example") }), {
    reason: "rp_id_hash",
  });
  await assert.rejects(verifyRegistration({ ...base, rpIdHash: new Uint8Array(0) }), {
    reason: "rp_id_hash",
  });
});

Deno.test("registration accepts any origin of the expected list and nothing else", async () => {
  const auth = await createAuthenticator(-8);
  const c = challenge();
  const response = await auth.register({ challenge: c, origin: "https://app.example.com" });
  const base = { response, expectedChallenge: c, rpID: RP_ID };
  await verifyRegistration({ ...base, expectedOrigins: [ORIGIN, "https://app.example.com"] });
  await assert.rejects(verifyRegistration({ ...base, expectedOrigins: [ORIGIN] }), {
    reason: "origin",
  });
  await assert.rejects(verifyRegistration({ ...base, expectedOrigins: [] }), { reason: "origin" });
});

Deno.test("an empty or short expected challenge is refused even when the client data matches it", async () => {
  const auth = await createAuthenticator(-8);
  for (const c of ["", "abc"]) {
    const response = await auth.register({ challenge: c });
    await assert.rejects(
      verifyRegistration({
        response,
        expectedChallenge: c,
        expectedOrigins: [ORIGIN],
        rpID: RP_ID,
      }),
      { reason: "challenge" },
    );
  }
});

Deno.test("verification never throws anything but a WebAuthnError for responses of the wrong shape", async () => {
  const shapes: unknown[] = [
    null,
    undefined,
    "x",
    7,
    [],
    {},
    { type: "public-key" },
    { type: "public-key", id: "", rawId: "" },
    { type: "public-key", id: "AA", rawId: "AA" },
    { type: "public-key", id: "AA", rawId: "AA", response: [] },
    { type: "public-key", id: "AA", rawId: "AA", response: {} },
    { type: "public-key", id: "A", rawId: "A", response: {} },
    {
      type: "public-key",
      id: "AA",
      rawId: "AA",
      response: { clientDataJSON: 5, attestationObject: null },
    },
    { type: "public-key", id: "AA", rawId: "AA", response: { clientDataJSON: "x".repeat(70_000) } },
  ];
  const credential = {
    id: "AA",
    publicKey: new Uint8Array(10),
    algorithm: -7,
    counter: 0,
    userHandle: "AA",
  };
  for (const response of shapes) {
    const options = {
      response,
      expectedChallenge: challenge(),
      expectedOrigins: [ORIGIN],
      rpID: RP_ID,
    };
    await assert.rejects(
      verifyRegistration(options),
      { name: "WebAuthnError" },
      JSON.stringify(response),
    );
    await assert.rejects(verifyAssertion({ ...options, credential }), { name: "WebAuthnError" });
  }
});

Deno.test("assertion returns the new counter, UV and the backup state", async () => {
  const auth = await createAuthenticator(-8, { counter: 10 });
  const { publicKey } = await register(auth);
  const c = challenge();
  const result = await verifyAssertion({
    response: await auth.authenticate({
      challenge: c,
      flags: FLAG.UP | FLAG.UV | FLAG.BE | FLAG.BS,
    }),
    expectedChallenge: c,
    expectedOrigins: [ORIGIN],
    rpID: RP_ID,
    credential: { id: auth.id, publicKey, algorithm: -8, counter: 10, userHandle: auth.userHandle },
  });
  assert.deepEqual(result, {
    credentialId: auth.id,
    newCounter: 11,
    userVerified: true,
    backedUp: true,
    backupEligible: true,
  });
});

/** Counts crypto.subtle calls while `run` runs. */
async function countSubtle(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const subtle = crypto.subtle as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names = ["digest", "verify", "importKey", "sign", "exportKey"];
  const saved = names.map((n) => subtle[n]);
  const counts: Record<string, number> = {};
  names.forEach((n, i) => {
    subtle[n] = (...args: unknown[]) => {
      counts[n] = (counts[n] ?? 0) + 1;
      return saved[i].apply(crypto.subtle, args);
    };
  });
  try {
    await run();
  } finally {
    names.forEach((n, i) => (subtle[n] = saved[i]));
  }
  return counts;
}

for (const alg of [-8, -7, -257] as const) {
  Deno.test(`assertion ${alg}: one verify with a CryptoKey and a precomputed rpIdHash (client data hashed in JavaScript); an import and a digest more without; large client data hashed by Web Crypto`, async () => {
    const auth = await createAuthenticator(alg, { counter: 1 });
    const { publicKey } = await register(auth);
    const key = await importCredentialKey(publicKey, alg);
    const rpIdHash = await hashRpId(RP_ID);
    const assertOnce = async (stored: Uint8Array | CryptoKey, hash?: Uint8Array, pad = 0) => {
      const c = challenge();
      const response = await auth.authenticate({
        challenge: c,
        clientData: (data) => {
          if (pad > 0) data.padding = "x".repeat(pad);
        },
      });
      return await countSubtle(() =>
        verifyAssertion({
          response,
          expectedChallenge: c,
          expectedOrigins: [ORIGIN],
          rpID: RP_ID,
          rpIdHash: hash,
          credential: {
            id: auth.id,
            publicKey: stored,
            algorithm: alg,
            counter: auth.counter - 1,
            userHandle: auth.userHandle,
          },
        })
      );
    };
    assert.deepEqual(await assertOnce(key, rpIdHash), { verify: 1 });
    assert.deepEqual(await assertOnce(publicKey), { digest: 1, verify: 1, importKey: 1 });
    // Client data of any size verifies: 2,048 bytes and less in JavaScript, more by Web Crypto.
    assert.deepEqual(await assertOnce(key, rpIdHash, 1800), { verify: 1 });
    assert.deepEqual(await assertOnce(key, rpIdHash, 3000), { digest: 1, verify: 1 });
  });
}

Deno.test("assertion refuses a CryptoKey of another algorithm and an unsupported stored algorithm", async () => {
  const auth = await createAuthenticator(-8);
  const other = await createAuthenticator(-7);
  const otherKey = await importCredentialKey((await register(other)).publicKey, -7);
  const { publicKey } = await register(auth);
  const c = challenge();
  const response = await auth.authenticate({ challenge: c });
  const base = { response, expectedChallenge: c, expectedOrigins: [ORIGIN], rpID: RP_ID };
  const record = { id: auth.id, publicKey, algorithm: -8, counter: 0, userHandle: auth.userHandle };
  await assert.rejects(
    verifyAssertion({ ...base, credential: { ...record, publicKey: otherKey } }),
    {
      reason: "key_mismatch",
    },
  );
  await assert.rejects(verifyAssertion({ ...base, credential: { ...record, algorithm: -35 } }), {
    reason: "key_algorithm",
  });
  await assert.rejects(verifyAssertion({ ...base, credential: { ...record, algorithm: -7 } }), {
    reason: "key_invalid",
  });
});

Deno.test("authenticator data: the counter reads as unsigned 32-bit; aaguidToString formats a UUID", () => {
  const data = new Uint8Array(37);
  data[32] = FLAG.UP;
  data.set([0xff, 0xff, 0xff, 0xfe], 33);
  const parsed = parseAuthenticatorData(data);
  assert.equal(parsed.signCount, 0xfffffffe);
  assert.equal(parsed.attestedCredentialData, undefined);
  assert.equal(parsed.extensions, undefined);
  assert.equal(aaguidToString(AAGUID), "adce0002-35bc-c60a-648b-0b25f1f05503");
});

Deno.test("authenticator data: a credential id longer than the data is refused as such", () => {
  const data = new Uint8Array(37 + 18 + 20);
  data[32] = FLAG.UP | FLAG.AT;
  data[37 + 17] = 100;
  assert.throws(() => parseAuthenticatorData(data), {
    reason: "authenticator_data_malformed",
    message: /Credential id runs past/,
  });
});

Deno.test("authenticator data: a zero-length credential id is refused", () => {
  const data = new Uint8Array(37 + 18 + 1);
  data[32] = FLAG.UP | FLAG.AT;
  assert.throws(() => parseAuthenticatorData(data), { reason: "credential_id" });
});

Deno.test("fuzz: mutated registration and assertion responses are accepted or refused with a WebAuthnError, never crash", async () => {
  const seed = Date.now() >>> 0;
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  for (const alg of [-8, -7, -257] as const) {
    const auth = await createAuthenticator(alg, { counter: 1 });
    const { publicKey } = await register(auth);
    const key = await importCredentialKey(publicKey, alg);
    const c = challenge();
    const registration = await auth.register({ challenge: c });
    const assertion = await auth.authenticate({ challenge: c });
    for (let i = 0; i < 300; i++) {
      const isRegistration = i % 2 === 0;
      const json = structuredClone(isRegistration ? registration : assertion) as JsonObject;
      const response = json.response as JsonObject;
      const field = pick(Object.keys(response).filter((k) => typeof response[k] === "string"));
      const bytes = fromB64(response[field] as string);
      const mode = Math.floor(random() * 4);
      if (mode === 0 && bytes.length > 0) {
        bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
      }
      if (mode === 1) response[field] = b64(bytes.subarray(0, Math.floor(random() * bytes.length)));
      else if (mode === 2) response[field] = pick([null, 1, {}, [], "", "!!", true]);
      else response[field] = b64(bytes);
      if (mode === 3) {
        response[field] = b64(crypto.getRandomValues(new Uint8Array(Math.floor(random() * 200))));
      }
      const options = {
        response: json,
        expectedChallenge: c,
        expectedOrigins: [ORIGIN],
        rpID: RP_ID,
      };
      try {
        if (isRegistration) await verifyRegistration(options);
        else {
          await verifyAssertion({
            ...options,
            credential: {
              id: auth.id,
              publicKey: key,
              algorithm: alg,
              counter: 0,
              userHandle: auth.userHandle,
            },
          });
        }
      } catch (error) {
        assert.equal(
          (error as Error).name,
          "WebAuthnError",
          `seed ${seed}: ${(error as Error).stack}`,
        );
      }
    }
  }
});

Deno.test("assertion with a challenge still being read: it is checked after the verify starts, and a refusal of either kind is handled", async () => {
  const auth = await createAuthenticator(-7, { counter: 1 });
  const { publicKey } = await register(auth);
  const c = challenge();
  const response = await auth.authenticate({ challenge: c });
  const credential = {
    id: auth.id,
    publicKey,
    algorithm: -7,
    counter: 0,
    userHandle: auth.userHandle,
  };
  const common = { response, expectedOrigins: [ORIGIN], rpID: RP_ID, credential };
  // The right challenge, read later: accepted.
  const later = new Promise<string>((resolve) => setTimeout(() => resolve(c), 5));
  const verified = await verifyAssertion({ ...common, expectedChallenge: later });
  assert.equal(verified.newCounter, auth.counter);
  // Another challenge, read later: refused as a challenge mismatch.
  await assert.rejects(
    verifyAssertion({ ...common, expectedChallenge: Promise.resolve(challenge()) }),
    { reason: "challenge" },
  );
  // The challenge cannot be read, and the response fails first (another credential id): the
  // response's reason, and the unread challenge's refusal goes nowhere unhandled.
  const unreadable = new Promise<string>((_, reject) =>
    setTimeout(() => reject(new Error("no challenge")), 5)
  );
  await assert.rejects(
    verifyAssertion({
      ...common,
      credential: { ...credential, id: "AAAA" },
      expectedChallenge: unreadable,
    }),
    { reason: "credential_mismatch" },
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
});
