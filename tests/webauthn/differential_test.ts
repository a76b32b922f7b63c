/**
 * Differential test against `@simplewebauthn/server` (v13): every case of
 * `_cases.ts`, for EdDSA, ES256 and RS256, verified by ours and by it with
 * the same settings (UV required unless the case says otherwise, the same
 * algorithm list). They must agree on every accepted and refused case,
 * except where a case documents a legitimate difference (`peer`): checks
 * it leaves to the caller (crossOrigin, topOrigin, userHandle, credential
 * id against the record, BE against the record, credential id length),
 * stricter parsing on our side (UTF-8, indefinite CBOR, DER trailing bytes)
 * and attestation statements, which we ignore under attestation "none".
 *
 * @module
 */

import assert from "node:assert/strict";
import { ALG_NAMES, ALGS } from "./_authenticator.ts";
import { ASSERTION_CASES, REGISTRATION_CASES } from "./_cases.ts";
import {
  applies,
  oursAssertion,
  oursRegistration,
  peerAssertion,
  peerRegistration,
  prepareAssertion,
  prepareRegistration,
} from "./_run.ts";

for (const alg of ALGS) {
  for (const c of REGISTRATION_CASES) {
    if (!applies(c, alg)) continue;
    const expected = c.peer?.accepts ?? !c.reason;
    const note = c.peer ? ` (differs: ${c.peer.why})` : "";
    Deno.test(`differential registration ${c.step}, ${ALG_NAMES[alg]}: ${c.name}${note}`, async () => {
      const prepared = await prepareRegistration(alg, c);
      const [ours, theirs] = await Promise.all([
        oursRegistration(prepared, alg),
        peerRegistration(prepared, alg),
      ]);
      assert.equal(ours.ok, !c.reason, `ours: ${ours.ok ? "accepted" : ours.reason}`);
      assert.equal(
        theirs.ok,
        expected,
        `simplewebauthn: ${theirs.ok ? "accepted" : theirs.reason}`,
      );
    });
  }
  for (const c of ASSERTION_CASES) {
    if (!applies(c, alg)) continue;
    const expected = c.peer?.accepts ?? !c.reason;
    const note = c.peer ? ` (differs: ${c.peer.why})` : "";
    Deno.test(`differential assertion ${c.step}, ${ALG_NAMES[alg]}: ${c.name}${note}`, async () => {
      const prepared = await prepareAssertion(alg, c);
      const ours = await oursAssertion(prepared);
      const theirs = await peerAssertion(prepared);
      assert.equal(ours.ok, !c.reason, `ours: ${ours.ok ? "accepted" : ours.reason}`);
      assert.equal(
        theirs.ok,
        expected,
        `simplewebauthn: ${theirs.ok ? "accepted" : theirs.reason}`,
      );
    });
  }
}
