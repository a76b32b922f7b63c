/**
 * Checks both ceremonies share: the credential JSON's outer shape, base64url
 * fields, the client data (WebAuthn Level 3 section 5.8.1) and the RP ID hash.
 *
 * @module
 */

import { decodeBase64Url } from "../jose/base64url.ts";
import { isRecord } from "../is_record.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import { WebAuthnError } from "./errors.ts";

/** The longest base64url field read from a response (64 KiB of text). */
const MAX_FIELD_LENGTH = 65_536;
/** A challenge shorter than this (base64url characters) is a caller mistake, refused. */
const MIN_CHALLENGE_LENGTH = 16;

const utf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/** The outer shape of a `PublicKeyCredential` in JSON form. */
export interface CredentialJSON {
  /** The credential id, base64url (equal to `rawId`). */
  id: string;
  /** The credential id bytes. */
  rawId: Uint8Array<ArrayBuffer>;
  /** `response` of the JSON. */
  response: Record<string, unknown>;
}

/** Throws `response_malformed` with `message`. */
export function malformed(message: string): never {
  throw new WebAuthnError("response_malformed", message);
}

/** Checks `type`, `id`, `rawId` and `response` of a credential's JSON form. */
export function readCredentialJSON(value: unknown): CredentialJSON {
  if (!isRecord(value)) {
    malformed("Credential response is not an object; expected PublicKeyCredential.toJSON().");
  }
  if (value.type !== "public-key") {
    throw new WebAuthnError(
      "credential_type",
      'Credential type is not "public-key"; expected "public-key".',
    );
  }
  const { id, rawId, response } = value;
  if (typeof id !== "string" || id.length === 0) {
    malformed("Credential id is missing; expected a base64url string.");
  }
  if (id !== rawId) {
    malformed("Credential id and rawId differ; expected the same base64url string.");
  }
  if (!isRecord(response)) malformed("Credential response has no response object; expected one.");
  return { id, rawId: field(value, "rawId"), response };
}

/** Decodes a required base64url string field. */
export function field(object: Record<string, unknown>, name: string): Uint8Array<ArrayBuffer> {
  const text = object[name];
  if (typeof text !== "string" || text.length > MAX_FIELD_LENGTH) {
    malformed(`Credential field ${name} is missing or too long; expected a base64url string.`);
  }
  try {
    return decodeBase64Url(text) as Uint8Array<ArrayBuffer>;
  } catch {
    return malformed(`Credential field ${name} is not base64url; expected unpadded base64url.`);
  }
}

/** What the client data must say. */
export interface ClientDataExpectation {
  /** The ceremony's client data type. */
  type: "webauthn.create" | "webauthn.get";
  /**
   * The ceremony's challenge, base64url as sent; `null` when the caller
   * checks it later with {@link checkChallenge} (it is still being read).
   */
  challenge: string | null;
  /** The origins the ceremony may run on. */
  origins: readonly string[];
}

/**
 * Parses and checks `clientDataJSON`: UTF-8 JSON object, `type`, the
 * challenge (constant time), the origin (exact match in the list),
 * `crossOrigin` not true and no `topOrigin` (this RP is never embedded in a
 * cross-origin frame). `tokenBinding` is ignored, as Level 3 does.
 * Returns the client data's challenge (checked already unless the
 * expectation's is `null`).
 */
export function checkClientData(
  bytes: Uint8Array<ArrayBuffer>,
  expected: ClientDataExpectation,
): unknown {
  let data: unknown;
  try {
    data = JSON.parse(utf8.decode(bytes));
  } catch {
    throw new WebAuthnError(
      "client_data_malformed",
      "clientDataJSON is not UTF-8 JSON; expected the browser's client data.",
    );
  }
  if (!isRecord(data)) {
    throw new WebAuthnError(
      "client_data_malformed",
      "clientDataJSON is not a JSON object; expected the browser's client data.",
    );
  }
  const { type, challenge, origin, crossOrigin } = data;
  if (type !== expected.type) {
    throw new WebAuthnError(
      "client_data_type",
      `Client data type is not ${expected.type}; expected "${expected.type}".`,
    );
  }
  if (expected.challenge !== null) checkChallenge(challenge, expected.challenge);
  if (typeof origin !== "string" || !expected.origins.includes(origin)) {
    throw new WebAuthnError(
      "origin",
      "Client data origin is not an expected origin; expected the service's origin.",
    );
  }
  if (crossOrigin !== undefined && typeof crossOrigin !== "boolean") {
    throw new WebAuthnError(
      "client_data_malformed",
      "Client data crossOrigin is not a boolean; expected true or false.",
    );
  }
  if (crossOrigin === true) {
    throw new WebAuthnError(
      "cross_origin",
      "Client data says the ceremony ran in a cross-origin frame; expected a top-level page.",
    );
  }
  if (data.topOrigin !== undefined) {
    throw new WebAuthnError(
      "top_origin",
      "Client data has a topOrigin; expected a ceremony outside cross-origin frames.",
    );
  }
  return challenge;
}

/** The client data's challenge against the ceremony's, in constant time. */
export function checkChallenge(challenge: unknown, expected: string): void {
  if (
    typeof challenge !== "string" || expected.length < MIN_CHALLENGE_LENGTH ||
    !timingSafeEqual(challenge, expected)
  ) {
    throw new WebAuthnError(
      "challenge",
      "Client data challenge does not match; expected the challenge of this ceremony.",
    );
  }
}

/**
 * SHA-256 of an RP ID, as authenticator data carries it. Compute once per
 * RP ID and pass it as `rpIdHash` to save a digest per ceremony.
 *
 * @example
 * ```ts
 * import { hashRpId } from "./registration.ts";
 * const rpIdHash = await hashRpId("example.com");
 * ```
 */
export async function hashRpId(rpID: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(rpID)));
}

/** Checks the authenticator data's `rpIdHash`. */
export function checkRpIdHash(actual: Uint8Array, expected: Uint8Array): void {
  if (expected.length !== 32 || !timingSafeEqual(actual, expected)) {
    throw new WebAuthnError(
      "rp_id_hash",
      "Authenticator data rpIdHash is not SHA-256 of the RP ID; expected a credential scoped to this RP ID.",
    );
  }
}
