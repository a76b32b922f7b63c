/**
 * Authenticator data (WebAuthn Level 3 section 6.1), parsed strictly.
 *
 * @module
 */

import { type CborMap, type CborValue, decodeCbor, decodeCborPrefix } from "./cbor.ts";
import { WebAuthnError } from "./errors.ts";

/** Flag bits of authenticator data. */
export const FLAGS: Readonly<
  { UP: number; UV: number; BE: number; BS: number; AT: number; ED: number }
> = /* @__PURE__ */ Object.freeze({
  /** User present. */
  UP: 0x01,
  /** User verified. */
  UV: 0x04,
  /** Backup eligible: a multi-device credential. */
  BE: 0x08,
  /** Backup state: the credential is backed up now. */
  BS: 0x10,
  /** Attested credential data included. */
  AT: 0x40,
  /** Extension data included. */
  ED: 0x80,
});

/** The attested credential data of a registration. */
export interface AttestedCredentialData {
  /** The authenticator model's AAGUID (16 bytes; all zero under "none" attestation). */
  aaguid: Uint8Array<ArrayBuffer>;
  /** The credential id (1 to 1,023 bytes). */
  credentialId: Uint8Array<ArrayBuffer>;
  /** The credential public key, decoded COSE_Key. */
  publicKey: CborValue;
}

/** Parsed authenticator data. Byte fields are views into the input. */
export interface AuthenticatorData {
  /** SHA-256 of the RP ID the authenticator scoped the credential to. */
  rpIdHash: Uint8Array<ArrayBuffer>;
  /** The raw flags byte. */
  flags: number;
  /** UP: the user was present. */
  userPresent: boolean;
  /** UV: the user was verified. */
  userVerified: boolean;
  /** BE: the credential may be backed up (multi-device). */
  backupEligible: boolean;
  /** BS: the credential is backed up. */
  backedUp: boolean;
  /** The signature counter (0 when the authenticator keeps none). */
  signCount: number;
  /** Present exactly when AT is set. */
  attestedCredentialData?: AttestedCredentialData;
  /** Present exactly when ED is set. */
  extensions?: CborMap;
}

/** The longest credential id WebAuthn allows (Level 3 section 7.1). */
export const MAX_CREDENTIAL_ID_LENGTH = 1023;

function malformed(message: string): never {
  throw new WebAuthnError("authenticator_data_malformed", message);
}

/**
 * Parses authenticator data: `rpIdHash` (32), flags (1), `signCount` (4),
 * then attested credential data exactly when AT is set and an extensions
 * map exactly when ED is set, and nothing after. BS without BE is refused.
 * The reserved flag bits (0x02, 0x20) are ignored, as the spec leaves them.
 *
 * @throws {WebAuthnError} with reason `authenticator_data_malformed`,
 *   `backup_flags`, `credential_id` or a `cbor_*` reason.
 *
 * @example
 * ```ts
 * import { parseAuthenticatorData } from "./authenticator_data.ts";
 * const data = new Uint8Array(37);
 * data[32] = 0x05; // UP and UV
 * parseAuthenticatorData(data).userVerified; // true
 * ```
 */
export function parseAuthenticatorData(input: Uint8Array): AuthenticatorData {
  const bytes = input as Uint8Array<ArrayBuffer>;
  if (bytes.length < 37) {
    malformed(
      "Authenticator data is shorter than 37 bytes; expected rpIdHash, flags and signCount.",
    );
  }
  const flags = bytes[32];
  const backupEligible = (flags & FLAGS.BE) !== 0;
  const backedUp = (flags & FLAGS.BS) !== 0;
  if (backedUp && !backupEligible) {
    throw new WebAuthnError(
      "backup_flags",
      "Authenticator data has BS set without BE; expected BS only on a backup-eligible credential.",
    );
  }
  const signCount = ((bytes[33] << 24) >>> 0) + (bytes[34] << 16) + (bytes[35] << 8) + bytes[36];
  const data: AuthenticatorData = {
    rpIdHash: bytes.subarray(0, 32),
    flags,
    userPresent: (flags & FLAGS.UP) !== 0,
    userVerified: (flags & FLAGS.UV) !== 0,
    backupEligible,
    backedUp,
    signCount,
  };
  let pos = 37;
  if (flags & FLAGS.AT) {
    if (bytes.length < pos + 18) {
      malformed(
        "Attested credential data is truncated; expected an AAGUID and a credential id length.",
      );
    }
    const aaguid = bytes.subarray(pos, pos + 16);
    const idLength = (bytes[pos + 16] << 8) | bytes[pos + 17];
    pos += 18;
    if (idLength === 0 || idLength > MAX_CREDENTIAL_ID_LENGTH) {
      throw new WebAuthnError(
        "credential_id",
        `Credential id is ${idLength} bytes long; expected 1 to ${MAX_CREDENTIAL_ID_LENGTH}.`,
      );
    }
    if (bytes.length < pos + idLength) {
      malformed("Credential id runs past the authenticator data; expected its declared length.");
    }
    const credentialId = bytes.subarray(pos, pos + idLength);
    pos += idLength;
    if (pos >= bytes.length) {
      malformed("Attested credential data has no public key; expected a COSE_Key.");
    }
    const { value, end } = decodeCborPrefix(bytes, pos);
    pos = end;
    data.attestedCredentialData = { aaguid, credentialId, publicKey: value };
  }
  if (flags & FLAGS.ED) {
    if (pos >= bytes.length) {
      malformed("Authenticator data has ED set but no extensions; expected a CBOR map.");
    }
    const extensions = decodeCbor(bytes.subarray(pos));
    if (!(extensions instanceof Map)) {
      malformed("Authenticator extensions are not a CBOR map; expected a map.");
    }
    data.extensions = extensions;
    pos = bytes.length;
  }
  if (pos !== bytes.length) {
    malformed(
      "Authenticator data has bytes its flags do not account for; expected nothing after the last part.",
    );
  }
  return data;
}

/**
 * Formats a 16-byte AAGUID as a lowercase UUID string.
 *
 * @example
 * ```ts
 * import { aaguidToString } from "./authenticator_data.ts";
 * aaguidToString(new Uint8Array(16)); // "00000000-0000-0000-0000-000000000000"
 * ```
 */
export function aaguidToString(aaguid: Uint8Array): string {
  const hex = Array.from(aaguid, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}
