/**
 * Registering a new credential (WebAuthn Level 3 section 7.1) for a relying
 * party that asks for `attestation: "none"`.
 *
 * Attestation: format `"none"` must carry an empty statement. Any other
 * registered format is accepted with its statement ignored, never verified:
 * an RP that asked for no attestation has no trust anchors to judge one by
 * (steps 21 to 24 yield at best "self" or "none" attestation), the client MAY
 * pass the authenticator's statement through unchanged (section 5.4.7), and
 * nothing stored depends on the statement. An unregistered format is refused.
 *
 * @module
 */

import { aaguidToString, parseAuthenticatorData } from "./authenticator_data.ts";
import { decodeCbor } from "./cbor.ts";
import {
  checkClientData,
  checkRpIdHash,
  field,
  hashRpId,
  malformed,
  readCredentialJSON,
} from "./_ceremony.ts";
import { COSE_ALGORITHMS, type CoseAlgorithm, importCoseKey } from "./cose.ts";
import { WebAuthnError } from "./errors.ts";

export { hashRpId };

/** Attestation statement formats of the IANA WebAuthn registry (RFC 8809 and later). */
const ATTESTATION_FORMATS: ReadonlySet<string> = new Set([
  "none",
  "packed",
  "tpm",
  "android-key",
  "android-safetynet",
  "fido-u2f",
  "apple",
  "compound",
]);

/** Transport hints WebAuthn defines (`AuthenticatorTransport`); others are dropped. */
const TRANSPORTS: ReadonlySet<string> = new Set([
  "ble",
  "cable",
  "hybrid",
  "internal",
  "nfc",
  "smart-card",
  "usb",
]);

/** Inputs of {@link verifyRegistration}. */
export interface VerifyRegistrationOptions {
  /** The parsed JSON of `PublicKeyCredential.toJSON()` from `navigator.credentials.create()`. */
  response: unknown;
  /** The challenge of the creation options, base64url as sent. */
  expectedChallenge: string;
  /** Origins the ceremony may run on, e.g. `["https://example.com"]`. */
  expectedOrigins: readonly string[];
  /** The RP ID of the creation options. */
  rpID: string;
  /** SHA-256 of `rpID` from {@link hashRpId}, to save a digest; computed when absent. */
  rpIdHash?: Uint8Array;
  /** Whether UV must be set (default `true`, for `userVerification: "required"`). */
  requireUserVerification?: boolean;
  /** COSE algorithms accepted (default EdDSA, ES256, RS256): those of `pubKeyCredParams`. */
  allowedAlgorithms?: readonly number[];
}

/** A verified new credential: everything a credential record needs. */
export interface VerifiedRegistration {
  /** The credential id, base64url. */
  credentialId: string;
  /** The public key as DER SubjectPublicKeyInfo (store it; see `importCredentialKey`). */
  publicKey: Uint8Array<ArrayBuffer>;
  /** The key's COSE algorithm. */
  algorithm: CoseAlgorithm;
  /** The initial signature counter. */
  counter: number;
  /** Known transport hints the client reported. */
  transports: string[];
  /** The authenticator model's AAGUID as a UUID string (all zeros when hidden). */
  aaguid: string;
  /** BS: the credential is backed up now. */
  backedUp: boolean;
  /** BE: `"multiDevice"` for a syncable credential, else `"singleDevice"`. */
  deviceType: "singleDevice" | "multiDevice";
  /** UV was set. */
  userVerified: boolean;
  /** The attestation statement format (its statement is not verified). */
  attestationFormat: string;
}

/**
 * Verifies a registration response per WebAuthn Level 3 section 7.1:
 * client data (`type` `webauthn.create`, challenge, origin, `crossOrigin`),
 * the attestation object, `rpIdHash`, flags UP, UV (when required) and AT,
 * the credential id (1 to 1,023 bytes, equal to `rawId`), the COSE key's
 * algorithm against `allowedAlgorithms` and its consistency. The caller
 * still checks that the credential id is not registered yet (step 26) and
 * that the challenge is used once.
 *
 * @throws {WebAuthnError} whose `reason` names the failed check.
 *
 * @example
 * ```ts
 * import { verifyRegistration } from "./registration.ts";
 * declare const body: { response: unknown };
 * const credential = await verifyRegistration({
 *   response: body.response,
 *   expectedChallenge: "Rb8Q9m0p1ZqkqJgGgqgXhF0a8e6q8cU8ZtWn2H0kP3Q",
 *   expectedOrigins: ["https://example.com"],
 *   rpID: "example.com",
 * });
 * // store credential.credentialId, credential.publicKey, credential.algorithm, ...
 * ```
 */
export async function verifyRegistration(
  options: VerifyRegistrationOptions,
): Promise<VerifiedRegistration> {
  const { expectedChallenge, expectedOrigins, rpID } = options;
  const requireUserVerification = options.requireUserVerification ?? true;
  const allowed = options.allowedAlgorithms ?? COSE_ALGORITHMS;

  // Steps 3 to 10: the credential JSON and its client data.
  const credential = readCredentialJSON(options.response);
  const { response } = credential;
  const clientDataJSON = field(response, "clientDataJSON");
  const attestationObject = field(response, "attestationObject");
  checkClientData(clientDataJSON, {
    type: "webauthn.create",
    challenge: expectedChallenge,
    origins: expectedOrigins,
  });

  // Step 11 (the client data hash) only feeds attestation verification, skipped with "none".
  // Step 12: the attestation object.
  const attestation = decodeAttestationObject(attestationObject);
  const authData = parseAuthenticatorData(attestation.authData);

  // Steps 13 to 16.
  checkRpIdHash(authData.rpIdHash, options.rpIdHash ?? await hashRpId(rpID));
  if (!authData.userPresent) {
    throw new WebAuthnError(
      "user_present",
      "Authenticator data has UP unset; expected the user to be present.",
    );
  }
  if (requireUserVerification && !authData.userVerified) {
    throw new WebAuthnError(
      "user_verified",
      "Authenticator data has UV unset; expected user verification.",
    );
  }
  const attested = authData.attestedCredentialData;
  if (!attested) {
    throw new WebAuthnError(
      "attested_credential_data",
      "Authenticator data has no attested credential data; expected AT set on registration.",
    );
  }

  // Step 25, and the credential id the response claims.
  if (!bytesEqual(attested.credentialId, credential.rawId)) {
    throw new WebAuthnError(
      "credential_id",
      "Credential id in authenticator data differs from rawId; expected the same id.",
    );
  }

  // Step 19: the key's algorithm is one we asked for, and the key agrees with it.
  const key = await importCoseKey(attested.publicKey, allowed);

  // Steps 21 to 24 under attestation "none".
  if (!ATTESTATION_FORMATS.has(attestation.fmt)) {
    throw new WebAuthnError(
      "attestation_format",
      'Attestation format is not a registered one; expected e.g. "none" or "packed".',
    );
  }
  if (attestation.fmt === "none" && attestation.attStmt.size !== 0) {
    throw new WebAuthnError(
      "attestation_statement",
      'Attestation format "none" carries a statement; expected an empty map.',
    );
  }

  return {
    credentialId: credential.id,
    publicKey: key.spki,
    algorithm: key.algorithm,
    counter: authData.signCount,
    transports: readTransports(response.transports),
    aaguid: aaguidToString(attested.aaguid),
    backedUp: authData.backedUp,
    deviceType: authData.backupEligible ? "multiDevice" : "singleDevice",
    userVerified: authData.userVerified,
    attestationFormat: attestation.fmt,
  };
}

interface AttestationObject {
  fmt: string;
  attStmt: Map<number | string, unknown>;
  authData: Uint8Array<ArrayBuffer>;
}

function decodeAttestationObject(bytes: Uint8Array<ArrayBuffer>): AttestationObject {
  const value = decodeCbor(bytes);
  if (!(value instanceof Map)) {
    throw new WebAuthnError(
      "attestation_object_malformed",
      "Attestation object is not a CBOR map; expected { fmt, attStmt, authData }.",
    );
  }
  const fmt = value.get("fmt");
  const attStmt = value.get("attStmt");
  const authData = value.get("authData");
  if (typeof fmt !== "string" || !(attStmt instanceof Map) || !(authData instanceof Uint8Array)) {
    throw new WebAuthnError(
      "attestation_object_malformed",
      "Attestation object lacks fmt, attStmt or authData; expected all three.",
    );
  }
  return { fmt, attStmt, authData };
}

function readTransports(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 16) {
    malformed("Credential transports is not a short array; expected an array of strings.");
  }
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === "string" && TRANSPORTS.has(item) && !out.includes(item)) out.push(item);
  }
  return out;
}

function bytesEqual(a: Uint8Array<ArrayBuffer>, b: Uint8Array<ArrayBuffer>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
