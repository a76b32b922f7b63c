/**
 * Passkey sign-in speed: `verifyAssertion` beside the bare Web Crypto work
 * it cannot avoid (one SHA-256 of clientDataJSON, one signature verify, on
 * bytes decoded ahead of time), and beside `npm:@simplewebauthn/server`, for
 * ES256, EdDSA and RS256. "ours" gets the imported key and the RP ID hash
 * (a route that caches both); "ours, SPKI" imports the stored key each time.
 *
 * Then `POST /passkey/signIn` in-process (CSRF check, challenge cookie,
 * stored credential, verification, single-use challenge, counter, session
 * and CSRF cookies) against the bare Web Crypto work (one digest, one
 * verify) in a minimal handler that reads the same JSON request; each
 * iteration signs a fresh challenge outside the timed part.
 *
 * Run with `deno bench -A bench/webauthn_bench.ts`.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import * as peer from "npm:@simplewebauthn/server@13";
import { decodeBase64Url } from "../jose.ts";
import { passkeyBenchApp } from "./_passkey_app.ts";
import { verifyAssertion } from "../src/webauthn/assertion.ts";
import { importCredentialKey } from "../src/webauthn/cose.ts";
import { derToRawEcdsa } from "../src/webauthn/der.ts";
import { hashRpId, verifyRegistration } from "../src/webauthn/registration.ts";
import {
  type Alg,
  ALG_NAMES,
  challenge,
  createAuthenticator,
  type JsonObject,
  ORIGIN,
  RP_ID,
} from "../tests/webauthn/_authenticator.ts";

const subtle = crypto.subtle;
type Bytes = Uint8Array<ArrayBuffer>;

/** Every case runs the same fixed count, so that runs on a busy machine stay comparable. */
const RUNS = { n: 3000, warmup: 300 };
const VERIFY: Record<Alg, AlgorithmIdentifier | EcdsaParams> = {
  [-8]: { name: "Ed25519" },
  [-7]: { name: "ECDSA", hash: "SHA-256" },
  [-257]: { name: "RSASSA-PKCS1-v1_5" },
};
const rpIdHash = await hashRpId(RP_ID);

for (const alg of [-7, -8, -257] as const) {
  // A counter-less authenticator: the same response verifies again and again (0 and 0 pass).
  const auth = await createAuthenticator(alg);
  const regChallenge = challenge();
  const { publicKey } = await verifyRegistration({
    response: await auth.register({ challenge: regChallenge }),
    expectedChallenge: regChallenge,
    expectedOrigins: [ORIGIN],
    rpID: RP_ID,
  });
  const key = await importCredentialKey(publicKey, alg);
  const c = challenge();
  const response = await auth.authenticate({ challenge: c });
  const fields = response.response as JsonObject;
  const credential = {
    id: auth.id,
    publicKey: key,
    algorithm: alg,
    counter: 0,
    userHandle: auth.userHandle,
  };
  const options = {
    response,
    expectedChallenge: c,
    expectedOrigins: [ORIGIN],
    rpID: RP_ID,
    rpIdHash,
    credential,
  };

  // What the bare calls are fed: the same bytes, decoded ahead of time.
  const clientDataJSON = decodeBase64Url(fields.clientDataJSON as string) as Bytes;
  const authData = decodeBase64Url(fields.authenticatorData as string);
  const signed = new Uint8Array(authData.length + 32);
  signed.set(authData);
  const der = decodeBase64Url(fields.signature as string) as Bytes;
  const signature = alg === -7 ? derToRawEcdsa(der, 32) : der;

  await verifyAssertion(options); // warm-up, and proof the response verifies
  const group = `verify assertion, ${ALG_NAMES[alg]}`;
  Deno.bench(`bare Web Crypto: digest + verify (${ALG_NAMES[alg]})`, {
    group,
    baseline: true,
    ...RUNS,
  }, async () => {
    signed.set(new Uint8Array(await subtle.digest("SHA-256", clientDataJSON)), authData.length);
    await subtle.verify(VERIFY[alg], key, signature, signed);
  });
  Deno.bench(`ours: verifyAssertion (${ALG_NAMES[alg]})`, { group, ...RUNS }, async () => {
    await verifyAssertion(options);
  });
  Deno.bench(
    `ours: verifyAssertion, SPKI key (${ALG_NAMES[alg]})`,
    { group, ...RUNS },
    async () => {
      await verifyAssertion({ ...options, credential: { ...credential, publicKey } });
    },
  );
  const cose = auth.coseKeyBytes();
  Deno.bench(`npm:@simplewebauthn/server (${ALG_NAMES[alg]})`, { group, ...RUNS }, async () => {
    await peer.verifyAuthenticationResponse({
      response: response as never,
      expectedChallenge: c,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential: { id: auth.id, publicKey: cose, counter: 0 },
    });
  });
}

// --- POST /passkey/signIn in-process -----------------------------------------

for (const alg of [-7, -8] as const) {
  const { handler, prepared, credentialsRequest, bare } = await passkeyBenchApp(alg);
  const first = await handler(await prepared());
  if (first.status !== 200) throw new Error(`signIn: ${first.status} ${await first.text()}`);
  const group = `POST /passkey/signIn, ${ALG_NAMES[alg]}`;
  Deno.bench(`bare /passkey/signIn handler: JSON + digest + verify (${ALG_NAMES[alg]})`, {
    group,
    baseline: true,
    ...RUNS,
  }, async (b) => {
    const request = await prepared();
    b.start();
    const response = await bare(request);
    b.end();
    if (response.status !== 200) throw new Error("bare verify failed");
  });
  // What any sign-in costs here (CSRF check, session and CSRF cookies), for reference.
  Deno.bench(
    `reference for /passkey/signIn: POST /signIn/credentials, authorize at once (${
      ALG_NAMES[alg]
    })`,
    { group, ...RUNS },
    async (b) => {
      const request = await credentialsRequest();
      b.start();
      const response = await handler(request);
      b.end();
      if (response.status !== 200) throw new Error(`credentials: ${response.status}`);
    },
  );
  Deno.bench(`ours: POST /passkey/signIn (${ALG_NAMES[alg]})`, { group, ...RUNS }, async (b) => {
    const request = await prepared();
    b.start();
    const response = await handler(request);
    b.end();
    if (response.status !== 200) throw new Error(`signIn: ${response.status}`);
  });
}
