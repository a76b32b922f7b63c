/**
 * Named registration and assertion cases, one per check of WebAuthn Level 3
 * sections 7.1 and 7.2 (positive and negative), shared by the step tests and
 * the differential test against `@simplewebauthn/server`.
 *
 * @module
 */

import type { WebAuthnReason } from "../../src/webauthn/errors.ts";
import {
  type Alg,
  type AuthenticateKnobs,
  b64,
  concat,
  FLAG,
  fromB64,
  type JsonObject,
  ORIGIN,
  type RegisterKnobs,
  RP_ID,
  type SoftAuthenticator,
} from "./_authenticator.ts";
import { encodeCbor, hex, Raw } from "./_cbor.ts";

export interface CaseContext {
  auth: SoftAuthenticator;
  /** Another authenticator of the same algorithm. */
  other: SoftAuthenticator;
  challenge: string;
}

/** What the verifier is told, beyond the defaults (UV required, all three algorithms). */
export interface VerifySettings {
  requireUserVerification?: boolean;
  allowedAlgorithms?: (alg: Alg) => number[];
  /** Assertion only: the stored counter (default the authenticator's before the assertion). */
  storedCounter?: number;
  /** Assertion only: the stored owner handle (default the authenticator's). */
  storedUserHandle?: string;
  /** Assertion only: the stored credential id (default the authenticator's). */
  storedId?: string;
  /** Assertion only: the registered BE. */
  backupEligible?: boolean;
  /** Assertion only. */
  requireUserHandle?: boolean;
}

interface Case<K> {
  /** The W3C step (or structure) the case checks. */
  step: string;
  name: string;
  knobs: (ctx: CaseContext) => K;
  settings?: VerifySettings;
  /** Our expected refusal reason; absent: accepted. */
  reason?: WebAuthnReason;
  /** Only for these algorithms. */
  algs?: readonly Alg[];
  /** When `@simplewebauthn/server` legitimately decides otherwise, and why. */
  peer?: { accepts: boolean; why: string };
  /** Setup counter of the authenticator (assertion cases). */
  counter?: number;
}

export type RegistrationCase = Case<RegisterKnobs>;
export type AssertionCase = Case<AuthenticateKnobs>;

const enc = new TextEncoder();
/** A hash of no RP ID in use. */
const OTHER_RP_HASH = new Uint8Array(32).fill(0x5a);

function clientData(
  ctx: CaseContext,
  type: string,
  extra: JsonObject = {},
): Uint8Array<ArrayBuffer> {
  return enc.encode(
    JSON.stringify({
      type,
      challenge: ctx.challenge,
      origin: ORIGIN,
      crossOrigin: false,
      ...extra,
    }),
  );
}

/** Sets `response[field]` in the JSON. */
function setResponse(field: string, value: unknown): (json: JsonObject) => void {
  return (json) => {
    (json.response as JsonObject)[field] = value;
  };
}

const NOT_CHECKED_BY_PEER = "@simplewebauthn/server leaves this check to the caller";
/** With format "none" it stores the COSE key unread: a bad key fails only at its first sign-in. */
const KEY_PEER = {
  accepts: true,
  why: "it reads the key only when it first verifies a signature with it",
};

export const REGISTRATION_CASES: RegistrationCase[] = [
  // Accepted.
  {
    step: "7.1 (all)",
    name: "a none attestation with UP, UV, AT",
    knobs: (c) => ({ challenge: c.challenge }),
  },
  {
    step: "7.1.21-24",
    name: "a packed self attestation (statement ignored)",
    knobs: (c) => ({ challenge: c.challenge, attStmt: "self" }),
  },
  {
    step: "7.1.15",
    name: "UV unset when user verification is not required",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.AT }),
    settings: { requireUserVerification: false },
  },
  {
    step: "7.1.16-18",
    name: "a backed-up multi-device credential (BE and BS)",
    knobs: (c) => ({
      challenge: c.challenge,
      flags: FLAG.UP | FLAG.UV | FLAG.AT | FLAG.BE | FLAG.BS,
    }),
  },
  {
    step: "7.1.20",
    name: "authenticator extensions (ED and a map)",
    knobs: (c) => ({
      challenge: c.challenge,
      flags: FLAG.UP | FLAG.UV | FLAG.AT | FLAG.ED,
      extensions: encodeCbor(new Map([["credProtect", 2]])),
    }),
  },
  {
    step: "7.1.25",
    name: "a 1,023-byte credential id",
    knobs: (c) => {
      const id = crypto.getRandomValues(new Uint8Array(1023));
      return {
        challenge: c.challenge,
        credentialIdInData: id,
        json: (j) => (j.id = j.rawId = b64(id)),
      };
    },
  },
  // Refused: the credential JSON.
  {
    step: "7.1.3",
    name: 'a credential type other than "public-key"',
    knobs: (c) => ({ challenge: c.challenge, json: (j) => (j.type = "password") }),
    reason: "credential_type",
  },
  {
    step: "7.1.3",
    name: "id and rawId that differ",
    knobs: (c) => ({ challenge: c.challenge, json: (j) => (j.rawId = b64(new Uint8Array(32))) }),
    reason: "response_malformed",
  },
  {
    step: "7.1.3",
    name: "an attestationObject that is not base64url",
    knobs: (c) => ({ challenge: c.challenge, json: setResponse("attestationObject", "a+b/") }),
    reason: "response_malformed",
  },
  // Client data.
  {
    step: "7.1.5",
    name: "clientDataJSON that is not UTF-8",
    knobs: (c) => ({
      challenge: c.challenge,
      clientDataBytes: concat(
        clientData(c, "webauthn.create").subarray(0, -1),
        enc.encode(',"x":"'),
        new Uint8Array([0xff]),
        enc.encode('"}'),
      ),
    }),
    reason: "client_data_malformed",
    peer: { accepts: true, why: "it decodes UTF-8 leniently (U+FFFD) and never reads the member" },
  },
  {
    step: "7.1.6",
    name: "clientDataJSON that is not JSON",
    knobs: (c) => ({ challenge: c.challenge, clientDataBytes: enc.encode("{type:") }),
    reason: "client_data_malformed",
  },
  {
    step: "7.1.7",
    name: 'type "webauthn.get"',
    knobs: (c) => ({ challenge: c.challenge, clientData: (d) => (d.type = "webauthn.get") }),
    reason: "client_data_type",
  },
  {
    step: "7.1.8",
    name: "another challenge",
    knobs: (c) => ({ challenge: c.challenge.replace(/^./, (ch) => (ch === "A" ? "B" : "A")) }),
    reason: "challenge",
  },
  {
    step: "7.1.8",
    name: "no challenge",
    knobs: (c) => ({ challenge: c.challenge, clientData: (d) => delete d.challenge }),
    reason: "challenge",
  },
  {
    step: "7.1.9",
    name: "another origin",
    knobs: (c) => ({ challenge: c.challenge, origin: "https://evil.example" }),
    reason: "origin",
  },
  {
    step: "7.1.9",
    name: "the origin with a trailing slash",
    knobs: (c) => ({ challenge: c.challenge, origin: ORIGIN + "/" }),
    reason: "origin",
  },
  {
    step: "7.1.10",
    name: "crossOrigin true",
    knobs: (c) => ({ challenge: c.challenge, clientData: (d) => (d.crossOrigin = true) }),
    reason: "cross_origin",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  {
    step: "7.1.10",
    name: "a topOrigin",
    knobs: (c) => ({
      challenge: c.challenge,
      clientData: (d) => (d.topOrigin = "https://top.example"),
    }),
    reason: "top_origin",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  {
    step: "7.1.10",
    name: "crossOrigin that is not a boolean",
    knobs: (c) => ({ challenge: c.challenge, clientData: (d) => (d.crossOrigin = "true") }),
    reason: "client_data_malformed",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  // Attestation object and authenticator data.
  {
    step: "7.1.12",
    name: "an attestation object that is an array",
    knobs: (c) => ({
      challenge: c.challenge,
      json: setResponse("attestationObject", b64(encodeCbor([1, 2]))),
    }),
    reason: "attestation_object_malformed",
  },
  {
    step: "7.1.12",
    name: "an attestation object without authData",
    knobs: (c) => ({ challenge: c.challenge, attestationObject: (o) => o.delete("authData") }),
    reason: "attestation_object_malformed",
  },
  {
    step: "7.1.12",
    name: "bytes after the attestation object",
    knobs: (c) => ({
      challenge: c.challenge,
      json: (j) => {
        const r = j.response as JsonObject;
        r.attestationObject = b64(
          concat(fromB64(r.attestationObject as string), new Uint8Array([0])),
        );
      },
    }),
    reason: "cbor_trailing_bytes",
    peer: { accepts: true, why: "it reads the first CBOR item and ignores what follows" },
  },
  {
    step: "7.1.12",
    name: "an indefinite-length attestation object",
    knobs: (c) => ({
      challenge: c.challenge,
      json: (j) => {
        const r = j.response as JsonObject;
        const bytes = fromB64(r.attestationObject as string);
        r.attestationObject = b64(
          concat(new Uint8Array([0xbf]), bytes.subarray(1), new Uint8Array([0xff])),
        );
      },
    }),
    reason: "cbor_indefinite_length",
  },
  {
    step: "7.1.13",
    name: "the rpIdHash of another RP ID",
    knobs: (c) => ({ challenge: c.challenge, rpId: "evil.example" }),
    reason: "rp_id_hash",
  },
  {
    step: "7.1.14",
    name: "UP unset",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UV | FLAG.AT }),
    reason: "user_present",
  },
  {
    step: "7.1.15",
    name: "UV unset when user verification is required",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.AT }),
    reason: "user_verified",
  },
  {
    step: "7.1.16",
    name: "BS set without BE",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.UV | FLAG.AT | FLAG.BS }),
    reason: "backup_flags",
  },
  {
    step: "7.1 (AT)",
    name: "no attested credential data (AT unset)",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.UV, attested: false }),
    reason: "attested_credential_data",
  },
  {
    step: "6.1 (AT)",
    name: "attested credential data with AT unset",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.UV }),
    reason: "authenticator_data_malformed",
  },
  {
    step: "6.1 (ED)",
    name: "ED set without extensions",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.UV | FLAG.AT | FLAG.ED }),
    reason: "authenticator_data_malformed",
  },
  {
    step: "6.1 (ED)",
    name: "extensions with ED unset",
    knobs: (c) => ({
      challenge: c.challenge,
      extensions: encodeCbor(new Map([["credProtect", 2]])),
    }),
    reason: "authenticator_data_malformed",
  },
  {
    step: "6.1",
    name: "bytes after the authenticator data",
    knobs: (c) => ({ challenge: c.challenge, authDataSuffix: new Uint8Array([0]) }),
    reason: "authenticator_data_malformed",
  },
  {
    step: "6.1",
    name: "a credential id length past the end of the data",
    knobs: (c) => ({ challenge: c.challenge, credentialIdLength: 1000 }),
    reason: "authenticator_data_malformed",
  },
  // The credential public key.
  {
    step: "7.1.19",
    name: "a key algorithm outside pubKeyCredParams",
    knobs: (c) => ({ challenge: c.challenge }),
    settings: { allowedAlgorithms: (alg) => [-8, -7, -257].filter((a) => a !== alg) },
    reason: "key_algorithm",
  },
  {
    step: "7.1.19",
    name: "an unknown key algorithm (-35, ES384)",
    knobs: (c) => ({ challenge: c.challenge, coseKey: (k) => k.set(3, -35) }),
    reason: "key_algorithm",
  },
  {
    step: "7.1.19",
    name: "a kty that disagrees with alg",
    knobs: (c) => ({ challenge: c.challenge, coseKey: (k) => k.set(1, k.get(1) === 2 ? 1 : 2) }),
    reason: "key_mismatch",
    peer: KEY_PEER,
  },
  {
    step: "7.1.19",
    name: "an alg that disagrees with the key",
    knobs: (c) => ({ challenge: c.challenge, coseKey: (k) => k.set(3, k.get(3) === -7 ? -8 : -7) }),
    reason: "key_mismatch",
    peer: KEY_PEER,
  },
  {
    step: "7.1.19",
    name: "a crv that disagrees with alg",
    algs: [-8, -7],
    knobs: (c) => ({ challenge: c.challenge, coseKey: (k) => k.set(-1, k.get(-1) === 1 ? 6 : 1) }),
    reason: "key_mismatch",
    peer: KEY_PEER,
  },
  {
    step: "7.1.19",
    name: "a key without its x (or n) parameter",
    knobs: (c) => ({ challenge: c.challenge, coseKey: (k) => k.delete(k.get(1) === 3 ? -1 : -2) }),
    reason: "key_malformed",
    peer: KEY_PEER,
  },
  {
    step: "7.1.19",
    name: "a coordinate of the wrong length",
    algs: [-8, -7],
    knobs: (c) => ({
      challenge: c.challenge,
      coseKey: (k) => k.set(-2, (k.get(-2) as Uint8Array).subarray(1)),
    }),
    reason: "key_invalid",
    peer: KEY_PEER,
  },
  {
    step: "7.1.19",
    name: "a P-256 point off the curve",
    algs: [-7],
    knobs: (c) => ({
      challenge: c.challenge,
      coseKey: (k) => {
        const y = (k.get(-3) as Uint8Array).slice();
        y[31] ^= 1;
        k.set(-3, y);
      },
    }),
    reason: "key_invalid",
    peer: KEY_PEER,
  },
  {
    step: "7.1.19",
    name: "an Ed25519 point of small order",
    algs: [-8],
    knobs: (c) => ({
      challenge: c.challenge,
      coseKey: (k) => k.set(-2, hex("01" + "00".repeat(31))),
    }),
    reason: "key_invalid",
    peer: KEY_PEER,
  },
  {
    step: "7.1.19",
    name: "a key carrying a private parameter",
    knobs: (c) => ({
      challenge: c.challenge,
      coseKey: (k) => k.set(k.get(1) === 3 ? -3 : -4, new Uint8Array(32)),
    }),
    reason: "key_malformed",
    peer: KEY_PEER,
  },
  {
    step: "RFC 8949 4.2.1",
    name: "a key with a non-minimal integer",
    knobs: (c) => ({
      challenge: c.challenge,
      coseKey: (k) => k.set(new Raw(hex("1801")), k.get(1)!) && k.delete(1),
    }),
    reason: "cbor_non_minimal",
  },
  {
    step: "RFC 8949 5.6",
    name: "a key with a duplicate label",
    knobs: (c) => ({
      challenge: c.challenge,
      coseKey: (k) => k.set(new Raw(hex("03")), k.get(3)!),
    }),
    reason: "cbor_duplicate_key",
  },
  // Attestation statement.
  {
    step: "7.1.21",
    name: "an unregistered attestation format",
    knobs: (c) => ({ challenge: c.challenge, fmt: "x-custom" }),
    reason: "attestation_format",
  },
  {
    step: "7.1.22",
    name: 'format "none" with a statement',
    knobs: (c) => ({ challenge: c.challenge, attStmt: new Map([["sig", new Uint8Array(8)]]) }),
    reason: "attestation_statement",
  },
  {
    step: "7.1.22-24",
    name: "a packed statement with a bad signature (ignored under attestation none)",
    knobs: (c) => ({
      challenge: c.challenge,
      fmt: "packed",
      attStmt: new Map<string, number | Uint8Array>([["alg", c.auth.alg], [
        "sig",
        new Uint8Array(64),
      ]]),
    }),
    peer: {
      accepts: false,
      why: "it verifies every statement; we requested attestation none and ignore statements",
    },
  },
  // Credential id.
  {
    step: "7.1.25",
    name: "a 1,024-byte credential id",
    knobs: (c) => {
      const id = new Uint8Array(1024).fill(7);
      return {
        challenge: c.challenge,
        credentialIdInData: id,
        json: (j) => (j.id = j.rawId = b64(id)),
      };
    },
    reason: "credential_id",
    peer: { accepts: true, why: "it does not bound the length (step 25)" },
  },
  {
    step: "7.1.25",
    name: "a credential id in authenticator data other than rawId",
    knobs: (c) => ({ challenge: c.challenge, credentialIdInData: c.other.credentialId }),
    reason: "credential_id",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
];

export const ASSERTION_CASES: AssertionCase[] = [
  // Accepted.
  {
    step: "7.2 (all)",
    name: "a signed assertion with UP and UV",
    knobs: (c) => ({ challenge: c.challenge }),
  },
  {
    step: "7.2 (all)",
    name: "a signed assertion with a counter that increased",
    counter: 41,
    knobs: (c) => ({ challenge: c.challenge }),
  },
  {
    step: "7.2.16",
    name: "UV unset when user verification is not required",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP }),
    settings: { requireUserVerification: false },
  },
  {
    step: "7.2.22",
    name: "counters zero on both sides (an authenticator without a counter)",
    knobs: (c) => ({ challenge: c.challenge, signCount: 0 }),
  },
  {
    step: "7.2.18",
    name: "BE and BS as registered",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.UV | FLAG.BE | FLAG.BS }),
    settings: { backupEligible: true },
  },
  {
    step: "7.2.19",
    name: "authenticator extensions (ED and a map)",
    knobs: (c) => ({
      challenge: c.challenge,
      flags: FLAG.UP | FLAG.UV | FLAG.ED,
      extensions: encodeCbor(new Map([["devicePubKey", new Uint8Array(4)]])),
    }),
  },
  {
    step: "7.2.6",
    name: "no userHandle when the caller identified the user",
    knobs: (c) => ({ challenge: c.challenge, userHandle: null }),
    settings: { requireUserHandle: false },
  },
  // The credential JSON and its owner.
  {
    step: "7.2.3",
    name: 'a credential type other than "public-key"',
    knobs: (c) => ({ challenge: c.challenge, json: (j) => (j.type = "password") }),
    reason: "credential_type",
  },
  {
    step: "7.2.3",
    name: "id and rawId that differ",
    knobs: (c) => ({ challenge: c.challenge, json: (j) => (j.rawId = c.other.id) }),
    reason: "response_malformed",
  },
  {
    step: "7.2.6",
    name: "a credential id other than the record's",
    knobs: (c) => ({ challenge: c.challenge }),
    settings: { storedId: "c3RvcmVkLWlk" },
    reason: "credential_mismatch",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  {
    step: "7.2.6",
    name: "a userHandle that is not the owner's",
    knobs: (c) => ({ challenge: c.challenge, userHandle: c.other.userHandle }),
    reason: "user_handle",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  {
    step: "7.2.6",
    name: "no userHandle with an empty allowCredentials",
    knobs: (c) => ({ challenge: c.challenge, userHandle: null }),
    reason: "user_handle",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  // Client data.
  {
    step: "7.2.8",
    name: "clientDataJSON that is not JSON",
    knobs: (c) => ({ challenge: c.challenge, clientDataBytes: enc.encode("[]]") }),
    reason: "client_data_malformed",
  },
  {
    step: "7.2.10",
    name: 'type "webauthn.create"',
    knobs: (c) => ({ challenge: c.challenge, clientData: (d) => (d.type = "webauthn.create") }),
    reason: "client_data_type",
  },
  {
    step: "7.2.11",
    name: "another challenge",
    knobs: (c) => ({ challenge: c.challenge.replace(/^./, (ch) => (ch === "A" ? "B" : "A")) }),
    reason: "challenge",
  },
  {
    step: "7.2.12",
    name: "another origin",
    knobs: (c) => ({ challenge: c.challenge, origin: "https://example.com.evil.example" }),
    reason: "origin",
  },
  {
    step: "7.2.13",
    name: "crossOrigin true",
    knobs: (c) => ({ challenge: c.challenge, clientData: (d) => (d.crossOrigin = true) }),
    reason: "cross_origin",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  {
    step: "7.2.13",
    name: "a topOrigin",
    knobs: (c) => ({
      challenge: c.challenge,
      clientData: (d) => (d.topOrigin = "https://top.example"),
    }),
    reason: "top_origin",
    peer: { accepts: true, why: NOT_CHECKED_BY_PEER },
  },
  // Authenticator data.
  {
    step: "7.2.14",
    name: "the rpIdHash of another RP ID",
    knobs: (c) => ({ challenge: c.challenge, rpIdHash: OTHER_RP_HASH }),
    reason: "rp_id_hash",
  },
  {
    step: "7.2.15",
    name: "UP unset",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UV }),
    reason: "user_present",
  },
  {
    step: "7.2.16",
    name: "UV unset when user verification is required",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP }),
    reason: "user_verified",
  },
  {
    step: "7.2.17",
    name: "BS set without BE",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.UV | FLAG.BS }),
    reason: "backup_flags",
  },
  {
    step: "7.2.18",
    name: "BE unset for a credential registered backup-eligible",
    knobs: (c) => ({ challenge: c.challenge }),
    settings: { backupEligible: true },
    reason: "backup_eligibility",
    peer: { accepts: true, why: "it keeps no BE in its credential record" },
  },
  {
    step: "6.1",
    name: "authenticator data shorter than 37 bytes",
    knobs: (c) => ({
      challenge: c.challenge,
      json: setResponse("authenticatorData", b64(new Uint8Array(36))),
    }),
    reason: "authenticator_data_malformed",
  },
  {
    step: "6.1",
    name: "bytes after the authenticator data (signed)",
    knobs: (c) => ({ challenge: c.challenge, authDataSuffix: new Uint8Array([0]) }),
    reason: "authenticator_data_malformed",
  },
  {
    step: "6.1 (ED)",
    name: "ED set without extensions (signed)",
    knobs: (c) => ({ challenge: c.challenge, flags: FLAG.UP | FLAG.UV | FLAG.ED }),
    reason: "authenticator_data_malformed",
  },
  // The signature.
  {
    step: "7.2.21",
    name: "a signature with one bit flipped",
    knobs: (c) => ({
      challenge: c.challenge,
      signature: (s) => {
        const t = s.slice();
        t[t.length - 1] ^= 1;
        return t;
      },
    }),
    reason: "signature",
  },
  {
    step: "7.2.21",
    name: "a signature by another key",
    knobs: (c) => ({ challenge: c.challenge, signWith: c.other }),
    reason: "signature",
  },
  {
    step: "7.2.20-21",
    name: "clientDataJSON swapped after signing",
    knobs: (c) => ({
      challenge: c.challenge,
      json: setResponse(
        "clientDataJSON",
        b64(clientData(c, "webauthn.get", { other_keys_can_be_added_here: "x" })),
      ),
    }),
    reason: "signature",
  },
  {
    step: "7.2.21",
    name: "authenticator data changed after signing (UV added)",
    knobs: (c) => ({
      challenge: c.challenge,
      flags: FLAG.UP,
      json: (j) => {
        const r = j.response as JsonObject;
        const data = fromB64(r.authenticatorData as string);
        data[32] |= FLAG.UV;
        r.authenticatorData = b64(data);
      },
    }),
    reason: "signature",
  },
  {
    step: "7.2.21",
    name: "an empty signature",
    algs: [-8, -257],
    knobs: (c) => ({ challenge: c.challenge, signature: () => new Uint8Array() }),
    reason: "signature",
  },
  {
    step: "7.2.21 (DER)",
    name: "an ES256 signature in raw r‖s form instead of DER",
    algs: [-7],
    knobs: (c) => ({
      challenge: c.challenge,
      signature: (s) => {
        const out = new Uint8Array(64);
        let p = 3;
        const rLen = s[p];
        const r = s.subarray(p + 1, p + 1 + rLen);
        p += 1 + rLen + 1;
        const sv = s.subarray(p + 1, p + 1 + s[p]);
        out.set(r.subarray(r.length - 32), 0);
        out.set(sv.subarray(sv.length - 32), 32);
        return out;
      },
    }),
    reason: "signature_malformed",
  },
  {
    step: "7.2.21 (DER)",
    name: "an ES256 DER signature with trailing bytes",
    algs: [-7],
    knobs: (c) => ({ challenge: c.challenge, signature: (s) => concat(s, new Uint8Array([0])) }),
    reason: "signature_malformed",
    peer: { accepts: true, why: "its ASN.1 parser ignores bytes after the SEQUENCE" },
  },
  // The counter.
  {
    step: "7.2.22",
    name: "a counter equal to the stored one",
    counter: 5,
    knobs: (c) => ({ challenge: c.challenge, signCount: 5 }),
    settings: { storedCounter: 5 },
    reason: "counter",
  },
  {
    step: "7.2.22",
    name: "a counter below the stored one",
    counter: 5,
    knobs: (c) => ({ challenge: c.challenge, signCount: 3 }),
    settings: { storedCounter: 5 },
    reason: "counter",
  },
  {
    step: "7.2.22",
    name: "a zero counter after a non-zero one",
    counter: 5,
    knobs: (c) => ({ challenge: c.challenge, signCount: 0 }),
    settings: { storedCounter: 5 },
    reason: "counter",
  },
];

export { RP_ID };
