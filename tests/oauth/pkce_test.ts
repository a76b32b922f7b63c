import assert from "node:assert/strict";
import { encodeBase64Url } from "../../jose.ts";
import { codeChallengeS256, randomToken } from "../../src/oauth/pkce.ts";
import { countSubtle } from "../jose/_subtle.ts";

Deno.test("codeChallengeS256 gives RFC 7636 appendix B's challenge, with no Web Crypto call", async () => {
  let challenge = "";
  const counts = await countSubtle(() => {
    challenge = codeChallengeS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
    return Promise.resolve();
  });
  assert.equal(challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  assert.deepEqual(counts, {});
});

Deno.test("codeChallengeS256 equals Web Crypto's SHA-256 for random verifiers of every allowed length", async () => {
  for (let length = 43; length <= 128; length++) {
    const verifier = randomToken(96).slice(0, length);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
    assert.equal(codeChallengeS256(verifier), encodeBase64Url(new Uint8Array(digest)), verifier);
  }
});
