/**
 * Options for `navigator.credentials.create()` and `.get()` in their JSON
 * form (WebAuthn Level 3 `PublicKeyCredentialCreationOptionsJSON` and
 * `PublicKeyCredentialRequestOptionsJSON`), for attestation `"none"`,
 * discoverable credentials and EdDSA, ES256 and RS256.
 *
 * @module
 */

import { encodeBase64Url } from "../jose/base64url.ts";
import { COSE_ALGORITHMS, type CoseAlgorithm } from "./cose.ts";

/** `UserVerificationRequirement`. */
export type UserVerification = "required" | "preferred" | "discouraged";

/** Five minutes, the life of the challenge cookie. */
const DEFAULT_TIMEOUT = 300_000;

/** A credential to exclude or allow, by id (base64url) with its transport hints. */
export interface CredentialDescriptorJSON {
  /** Always `"public-key"`. */
  type: "public-key";
  /** The credential id, base64url. */
  id: string;
  /** Transport hints stored at registration. */
  transports?: string[];
}

/** `PublicKeyCredentialCreationOptionsJSON`, as this RP sends it. */
export interface CreationOptionsJSON {
  /** The relying party. */
  rp: { id: string; name: string };
  /** The account: `id` is the opaque user handle (base64url), never the `sub`. */
  user: { id: string; name: string; displayName: string };
  /** 32 random bytes, base64url. */
  challenge: string;
  /** Accepted algorithms, most preferred first. */
  pubKeyCredParams: { type: "public-key"; alg: CoseAlgorithm }[];
  /** Milliseconds. */
  timeout: number;
  /** Credentials the user already has. */
  excludeCredentials: CredentialDescriptorJSON[];
  /** A discoverable credential, with the given user verification. */
  authenticatorSelection: {
    residentKey: "required";
    requireResidentKey: true;
    userVerification: UserVerification;
  };
  /** No attestation. */
  attestation: "none";
}

/** `PublicKeyCredentialRequestOptionsJSON`, as this RP sends it. */
export interface RequestOptionsJSON {
  /** 32 random bytes, base64url. */
  challenge: string;
  /** Milliseconds. */
  timeout: number;
  /** The RP ID. */
  rpId: string;
  /** Empty: any discoverable credential of this RP (and conditional UI) may answer. */
  allowCredentials: CredentialDescriptorJSON[];
  /** User verification requirement. */
  userVerification: UserVerification;
}

/** Inputs of {@link creationOptions}. */
export interface CreationOptionsInput {
  /** RP ID and display name. */
  rp: { id: string; name: string };
  /** `id`: the opaque handle from `deriveUserHandle`; `name` and `displayName` for the account picker. */
  user: { id: string; name: string; displayName: string };
  /** The user's registered credentials, so an authenticator does not register twice. */
  excludeCredentials?: readonly { id: string; transports?: readonly string[] }[];
  /** Default `"required"`. */
  userVerification?: UserVerification;
  /** Milliseconds; default 300,000 (5 minutes). */
  timeout?: number;
  /** COSE algorithms; default EdDSA, ES256, RS256. */
  algorithms?: readonly CoseAlgorithm[];
  /** A challenge (base64url) to use instead of a fresh one; for tests. */
  challenge?: string;
}

/** Inputs of {@link requestOptions}. */
export interface RequestOptionsInput {
  /** The RP ID. */
  rpId: string;
  /** Default `"required"`. */
  userVerification?: UserVerification;
  /** Milliseconds; default 300,000 (5 minutes). */
  timeout?: number;
  /** A challenge (base64url) to use instead of a fresh one; for tests. */
  challenge?: string;
}

/**
 * A fresh challenge: 32 random bytes, base64url.
 *
 * @example
 * ```ts
 * import { generateChallenge } from "./options.ts";
 * generateChallenge().length; // 43
 * ```
 */
export function generateChallenge(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * Builds creation options for registering a passkey: a fresh challenge
 * (read it back from `challenge` to seal it), a discoverable credential,
 * attestation `"none"`.
 *
 * @example
 * ```ts
 * import { creationOptions } from "./options.ts";
 * const options = creationOptions({
 *   rp: { id: "example.com", name: "Example" },
 *   user: { id: "3q2-7wA3B5kVh6RtYq9wFZl1u0nKj8yLcE2xPdMa4sI", name: "ada@example.com", displayName: "Ada" },
 * });
 * options.challenge; // seal this for the registration step
 * ```
 */
export function creationOptions(input: CreationOptionsInput): CreationOptionsJSON {
  return {
    rp: { id: input.rp.id, name: input.rp.name },
    user: { id: input.user.id, name: input.user.name, displayName: input.user.displayName },
    challenge: input.challenge ?? generateChallenge(),
    pubKeyCredParams: (input.algorithms ?? COSE_ALGORITHMS).map((alg) => ({
      type: "public-key",
      alg,
    })),
    timeout: input.timeout ?? DEFAULT_TIMEOUT,
    excludeCredentials: (input.excludeCredentials ?? []).map(descriptor),
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: input.userVerification ?? "required",
    },
    attestation: "none",
  };
}

/**
 * Builds request options for signing in with a passkey: a fresh challenge
 * and an empty `allowCredentials`, so discoverable credentials and
 * conditional mediation (autofill) work.
 *
 * @example
 * ```ts
 * import { requestOptions } from "./options.ts";
 * const options = requestOptions({ rpId: "example.com" });
 * options.allowCredentials; // []
 * ```
 */
export function requestOptions(input: RequestOptionsInput): RequestOptionsJSON {
  return {
    challenge: input.challenge ?? generateChallenge(),
    timeout: input.timeout ?? DEFAULT_TIMEOUT,
    rpId: input.rpId,
    allowCredentials: [],
    userVerification: input.userVerification ?? "required",
  };
}

function descriptor(
  credential: { id: string; transports?: readonly string[] },
): CredentialDescriptorJSON {
  const out: CredentialDescriptorJSON = { type: "public-key", id: credential.id };
  if (credential.transports && credential.transports.length > 0) {
    out.transports = [...credential.transports];
  }
  return out;
}
