// RS256 credentials: only an odd modulus of at least 2,048 bits with the exponent 65537 registers;
// any other is refused with 400 invalid_request and nothing stored.
import assert from "node:assert/strict";
import type { Encodable } from "../webauthn/_cbor.ts";
import { createAuthenticator } from "../webauthn/_authenticator.ts";
import { assertError } from "../server/_helpers.ts";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  post,
  registerOptions,
} from "./_helpers.ts";

type CoseEdit = (key: Map<Encodable, Encodable>) => void;

const setExponent = (e: number[]): CoseEdit => (key) => key.set(-2, new Uint8Array(e));
const evenModulus: CoseEdit = (key) => {
  const n = Uint8Array.from(key.get(-1) as Uint8Array);
  n[n.length - 1] &= 0xfe;
  key.set(-1, n);
};

Deno.test("passkeys: RS256 keys with another exponent, an even or a short modulus are refused at registration", async () => {
  const { auth, store, logs } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const cases: { what: string; rsaBits?: number; edit?: CoseEdit }[] = [
    { what: "e = 3", edit: setExponent([3]) },
    { what: "e = 17", edit: setExponent([17]) },
    { what: "e = 2^16 + 3", edit: setExponent([1, 0, 3]) },
    { what: "e = 2^32 - 1", edit: setExponent([255, 255, 255, 255]) },
    { what: "e = 65537 with a leading zero", edit: setExponent([0, 1, 0, 1]) },
    { what: "even modulus", edit: evenModulus },
    { what: "1,024-bit modulus", rsaBits: 1024 },
    { what: "2,040-bit modulus", rsaBits: 2040 },
  ];
  for (const { what, rsaBits, edit } of cases) {
    const options = await registerOptions(browser);
    const authenticator = await createAuthenticator(-257, {
      rsaBits,
      userHandle: (options.user as { id: string }).id,
    });
    const json = await authenticator.register({
      challenge: options.challenge as string,
      coseKey: edit,
    });
    const answer = await post(browser, "/auth/passkey/register", { response: json });
    await assertError(answer, 400, "invalid_request");
    assert.equal(await store.getPasskey(authenticator.id), null, what);
  }
  assert.deepEqual(await store.listPasskeys(ADA.sub), []);
  assert.ok(logs.some((entry) => entry.message === "passkey registration refused"));

  // A real 2,048-bit key with e = 65537 registers and signs in.
  const options = await registerOptions(browser);
  const good = await createAuthenticator(-257, { userHandle: (options.user as { id: string }).id });
  const json = await good.register({ challenge: options.challenge as string });
  const registered = await post(browser, "/auth/passkey/register", { response: json });
  assert.equal(registered.status, 201);
  assert.equal((await registered.json()).passkey.algorithm, -257);
  assert.equal((await passkeySignIn(browserFor(auth), good)).status, 200);
});
