/**
 * Verifying an authentication assertion (WebAuthn Level 3 section 7.2).
 *
 * @module
 */

import type { WebCryptoKey } from "../jose/types.ts";
import { decodeBase64Url, decodeBase64UrlInto, decodedBase64UrlLength } from "../jose/base64url.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import { parseAuthenticatorData } from "./authenticator_data.ts";
import { sha256 } from "../crypto/sha256.ts";
import {
  checkChallenge,
  checkClientData,
  checkRpIdHash,
  field,
  hashRpId,
  malformed,
  readCredentialJSON,
} from "./_ceremony.ts";
import {
  type CoseAlgorithm,
  importCredentialKey,
  isCoseAlgorithm,
  verifyCredentialSignature,
} from "./cose.ts";
import { WebAuthnError } from "./errors.ts";

/** The longest authenticatorData text read (base64url characters): far above any real one. */
const MAX_AUTHENTICATOR_DATA_TEXT = 65_536;

/** Client data up to this size is hashed in JavaScript (a few µs), larger by Web Crypto. */
const JS_DIGEST_LIMIT = 2048;

/** Web Crypto algorithm names per COSE algorithm, to check a passed `WebCryptoKey`. */
const KEY_NAME: Readonly<Record<CoseAlgorithm, string>> = {
  [-8]: "Ed25519",
  [-7]: "ECDSA",
  [-257]: "RSASSA-PKCS1-v1_5",
};

/** The stored credential record an assertion is checked against. */
export interface AssertionCredential {
  /** The credential id, base64url. */
  id: string;
  /** The public key: SPKI bytes, their base64url text, or a `WebCryptoKey` imported before (saves one Web Crypto call). */
  publicKey: Uint8Array | string | WebCryptoKey;
  /** The key's COSE algorithm (-8, -7 or -257). */
  algorithm: number;
  /** The stored signature counter. */
  counter: number;
  /** The owner's user handle (`user.id` at registration), base64url. */
  userHandle: string;
  /** BE as registered (`deviceType === "multiDevice"`); when given, the assertion's BE must equal it (step 18). */
  backupEligible?: boolean;
}

/** Inputs of {@link verifyAssertion}. */
export interface VerifyAssertionOptions {
  /** The parsed JSON of `PublicKeyCredential.toJSON()` from `navigator.credentials.get()`. */
  response: unknown;
  /**
   * The challenge of the request options, base64url as sent; or a promise
   * of it, still being read (a sealed cookie), awaited only once the
   * signature check is under way, so that the two overlap. A rejected
   * promise fails the verification with its error.
   */
  expectedChallenge: string | Promise<string>;
  /** Origins the ceremony may run on, e.g. `["https://example.com"]`. */
  expectedOrigins: readonly string[];
  /** The RP ID of the request options. */
  rpID: string;
  /** SHA-256 of `rpID` from `hashRpId`, to save a digest; computed when absent. */
  rpIdHash?: Uint8Array;
  /** Whether UV must be set (default `true`). */
  requireUserVerification?: boolean;
  /**
   * Whether the response must carry a `userHandle` (default `true`): with an
   * empty `allowCredentials` the user is identified by it (step 6).
   */
  requireUserHandle?: boolean;
  /** The credential record found by the response's id. */
  credential: AssertionCredential;
}

/** A verified assertion: what to update in the credential record. */
export interface VerifiedAssertion {
  /** The credential id, base64url. */
  credentialId: string;
  /** The new signature counter to store. */
  newCounter: number;
  /** UV was set. */
  userVerified: boolean;
  /** BS: the credential is backed up now. */
  backedUp: boolean;
  /** BE as the authenticator reports it. */
  backupEligible: boolean;
}

/**
 * Verifies an assertion per WebAuthn Level 3 section 7.2: the credential
 * id and `userHandle` against the record, client data (`type`
 * `webauthn.get`, challenge, origin, `crossOrigin`), `rpIdHash`, flags UP
 * and UV (when required), the signature over `authenticatorData ‖
 * SHA-256(clientDataJSON)` and the counter (when either counter is non-zero
 * the new one must be greater: reason `counter`, a possible clone). One Web
 * Crypto call (the verify; client data is hashed in JavaScript), plus a key
 * import when `credential.publicKey` is not a `CryptoKey` and a digest when
 * `rpIdHash` is not given.
 *
 * @throws {WebAuthnError} whose `reason` names the failed check.
 *
 * @example
 * ```ts
 * import { verifyAssertion } from "./assertion.ts";
 * declare const body: { response: unknown };
 * declare const stored: { id: string; publicKey: Uint8Array; algorithm: number; counter: number; userHandle: string };
 * const { newCounter } = await verifyAssertion({
 *   response: body.response,
 *   expectedChallenge: "Rb8Q9m0p1ZqkqJgGgqgXhF0a8e6q8cU8ZtWn2H0kP3Q",
 *   expectedOrigins: ["https://example.com"],
 *   rpID: "example.com",
 *   credential: stored,
 * });
 * ```
 */
export async function verifyAssertion(options: VerifyAssertionOptions): Promise<VerifiedAssertion> {
  const { credential: record, expectedChallenge, expectedOrigins } = options;
  // A check below may fail before the challenge is read: its refusal must not go unhandled.
  if (typeof expectedChallenge !== "string") expectedChallenge.catch(() => {});
  const requireUserVerification = options.requireUserVerification ?? true;
  const algorithm = record.algorithm;
  if (!isCoseAlgorithm(algorithm)) {
    throw new WebAuthnError(
      "key_algorithm",
      `Stored key algorithm ${algorithm} is not supported; expected -8, -7 or -257.`,
    );
  }

  // Steps 3 to 6: the credential JSON, its id and user handle against the record.
  const credential = readCredentialJSON(options.response);
  const { response } = credential;
  if (credential.id !== record.id) {
    throw new WebAuthnError(
      "credential_mismatch",
      "Credential id is not the stored credential's; expected the id the record was found by.",
    );
  }
  checkUserHandle(response.userHandle, record.userHandle, options.requireUserHandle ?? true);

  // Steps 7 to 13: client data.
  const clientDataJSON = field(response, "clientDataJSON");
  const challenge = checkClientData(clientDataJSON, {
    type: "webauthn.get",
    challenge: typeof expectedChallenge === "string" ? expectedChallenge : null,
    origins: expectedOrigins,
  });

  // Authenticator data decoded straight into the signed buffer: authData ‖ hash.
  const authText = response.authenticatorData;
  if (typeof authText !== "string" || authText.length > MAX_AUTHENTICATOR_DATA_TEXT) {
    malformed(
      "Credential field authenticatorData is missing or too long; expected a base64url string.",
    );
  }
  let signed: Uint8Array<ArrayBuffer>;
  let authLength: number;
  try {
    authLength = decodedBase64UrlLength(authText);
    signed = new Uint8Array(authLength + 32);
    decodeBase64UrlInto(authText, signed, 0);
  } catch {
    return malformed(
      "Credential field authenticatorData is not base64url; expected unpadded base64url.",
    );
  }
  const authData = parseAuthenticatorData(signed.subarray(0, authLength));
  const signature = field(response, "signature");

  // Steps 14 to 18.
  checkRpIdHash(authData.rpIdHash, options.rpIdHash ?? await hashRpId(options.rpID));
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
  if (record.backupEligible !== undefined && record.backupEligible !== authData.backupEligible) {
    throw new WebAuthnError(
      "backup_eligibility",
      "Authenticator data BE differs from the registered one; expected it never to change.",
    );
  }

  // Steps 20 and 21: one digest (in JavaScript for a usual size), one verify.
  const key = await credentialKey(record.publicKey, algorithm);
  signed.set(
    clientDataJSON.length <= JS_DIGEST_LIMIT
      ? sha256(clientDataJSON)
      : new Uint8Array(await crypto.subtle.digest("SHA-256", clientDataJSON)),
    authLength,
  );
  // Settled into a value at once: a malformed signature must not reject unwatched meanwhile.
  const verifying = verifyCredentialSignature(key, algorithm, signature, signed).then(
    (valid) => ({ valid }),
    (error: unknown) => ({ error }),
  );
  if (typeof expectedChallenge !== "string") {
    checkChallenge(challenge, await expectedChallenge);
  }
  const verdict = await verifying;
  if ("error" in verdict) throw verdict.error;
  if (!verdict.valid) {
    throw new WebAuthnError(
      "signature",
      "Assertion signature does not verify; expected a signature by the stored key.",
    );
  }

  // Step 22: a counter that does not increase signals a possible clone.
  if ((authData.signCount !== 0 || record.counter !== 0) && authData.signCount <= record.counter) {
    throw new WebAuthnError(
      "counter",
      "Signature counter did not increase; expected a value above the stored one (possible cloned authenticator).",
    );
  }

  return {
    credentialId: credential.id,
    newCounter: authData.signCount,
    userVerified: authData.userVerified,
    backedUp: authData.backedUp,
    backupEligible: authData.backupEligible,
  };
}

function checkUserHandle(value: unknown, owner: string, required: boolean): void {
  if (value === undefined || value === null || value === "") {
    if (required) {
      throw new WebAuthnError(
        "user_handle",
        "Assertion has no userHandle; expected the handle of a discoverable credential.",
      );
    }
    return;
  }
  if (typeof value !== "string") {
    malformed("Credential userHandle is not a string; expected base64url.");
  }
  let handle: Uint8Array;
  let expected: Uint8Array;
  try {
    handle = decodeBase64Url(value);
    expected = decodeBase64Url(owner);
  } catch {
    return malformed("Credential userHandle is not base64url; expected unpadded base64url.");
  }
  if (!timingSafeEqual(handle, expected)) {
    throw new WebAuthnError(
      "user_handle",
      "Assertion userHandle is not the credential owner's; expected the owner's handle.",
    );
  }
}

async function credentialKey(
  publicKey: Uint8Array | string | WebCryptoKey,
  algorithm: CoseAlgorithm,
): Promise<WebCryptoKey> {
  if (publicKey instanceof CryptoKey) {
    if (publicKey.algorithm.name !== KEY_NAME[algorithm] || publicKey.type !== "public") {
      throw new WebAuthnError(
        "key_mismatch",
        "Stored key is not a public key of the stored algorithm; expected the key imported for it.",
      );
    }
    return publicKey;
  }
  return await importCredentialKey(publicKey, algorithm);
}
