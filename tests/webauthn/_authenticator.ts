/**
 * A software authenticator and client for tests: registration and
 * assertion responses (the JSON of `PublicKeyCredential.toJSON()`) for
 * EdDSA, ES256 (DER signatures) and RS256, with a knob to break each field.
 *
 * @module
 */

import { encodeBase64Url } from "../../src/jose/base64url.ts";
import { type Encodable, encodeCbor } from "./_cbor.ts";

export const RP_ID = "example.com";
export const ORIGIN = "https://example.com";

export type Alg = -8 | -7 | -257;
export const ALGS: readonly Alg[] = [-8, -7, -257];
export const ALG_NAMES: Readonly<Record<Alg, string>> = {
  [-8]: "EdDSA",
  [-7]: "ES256",
  [-257]: "RS256",
};

export const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40, ED: 0x80 } as const;

const subtle = crypto.subtle;
const encoder = new TextEncoder();

type Bytes = Uint8Array<ArrayBuffer>;
export type JsonObject = Record<string, unknown>;

/** Knobs shared by both ceremonies. */
export interface CommonKnobs {
  challenge: string;
  origin?: string;
  rpId?: string;
  /** Edit the client data object before it is serialized. */
  clientData?: (data: JsonObject) => void;
  /** The clientDataJSON bytes as given (wins over `clientData`). */
  clientDataBytes?: Bytes;
  /** The flags byte as given (default UP | UV, plus AT on registration). */
  flags?: number;
  /** The rpIdHash as given. */
  rpIdHash?: Bytes;
  /** The signature counter written into authenticator data. */
  signCount?: number;
  /** An extensions map to append (sets nothing: set ED with `flags`). */
  extensions?: Bytes;
  /** Bytes appended to authenticator data. */
  authDataSuffix?: Bytes;
  /** Edit the final JSON. */
  json?: (credential: JsonObject) => void;
}

/** Registration knobs. */
export interface RegisterKnobs extends CommonKnobs {
  /** Edit the COSE key map (labels as numbers). */
  coseKey?: (key: Map<Encodable, Encodable>) => void;
  /** The COSE key bytes as given (wins over `coseKey`). */
  coseKeyBytes?: Bytes;
  /** The credential id written into authenticator data (default the authenticator's). */
  credentialIdInData?: Bytes;
  /** The declared credential id length (default its real length). */
  credentialIdLength?: number;
  /** AAGUID (default 16 zero bytes). */
  aaguid?: Bytes;
  /** Attestation format (default "none"). */
  fmt?: string;
  /** The attestation statement, or "self" for a valid packed self attestation. */
  attStmt?: Map<Encodable, Encodable> | "self";
  /** Edit the attestation object map. */
  attestationObject?: (object: Map<Encodable, Encodable>) => void;
  /** false leaves attested credential data out (default true). */
  attested?: boolean;
  /** Transports (default ["internal", "hybrid"]). */
  transports?: unknown;
}

/** Assertion knobs. */
export interface AuthenticateKnobs extends CommonKnobs {
  /** The userHandle (base64url); null leaves it out. Default the authenticator's. */
  userHandle?: string | null;
  /** Edit the signature bytes (after DER encoding for ES256). */
  signature?: (signature: Bytes) => Bytes;
  /** Sign with the key of another authenticator. */
  signWith?: SoftAuthenticator;
}

export interface SoftAuthenticator {
  alg: Alg;
  credentialId: Bytes;
  /** base64url credential id. */
  id: string;
  userHandle: string;
  /** The COSE key the authenticator reports (a fresh map per call). */
  coseKey(): Map<Encodable, Encodable>;
  /** Its encoding: what simplewebauthn stores. */
  coseKeyBytes(): Bytes;
  counter: number;
  register(knobs: RegisterKnobs): Promise<JsonObject>;
  authenticate(knobs: AuthenticateKnobs): Promise<JsonObject>;
  sign(data: Bytes): Promise<Bytes>;
}

export interface AuthenticatorSetup {
  /** Initial counter: each assertion adds one unless 0 (a counter-less authenticator). */
  counter?: number;
  rsaBits?: number;
  credentialId?: Bytes;
  userHandle?: string;
}

function b64(bytes: Uint8Array): string {
  return encodeBase64Url(bytes);
}

function fromB64(text: string | undefined): Bytes {
  const s = (text ?? "").replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(s + "=".repeat((4 - s.length % 4) % 4)), (c) => c.charCodeAt(0));
}

/** DER-encodes a P1363 ECDSA signature (r ‖ s, 32 bytes each). */
export function rawToDer(raw: Uint8Array): Bytes {
  const int = (half: Uint8Array): number[] => {
    let i = 0;
    while (i < half.length - 1 && half[i] === 0) i++;
    const body = [...half.subarray(i)];
    if (body[0] & 0x80) body.unshift(0);
    return [0x02, body.length, ...body];
  };
  const r = int(raw.subarray(0, 32));
  const s = int(raw.subarray(32));
  return new Uint8Array([0x30, r.length + s.length, ...r, ...s]);
}

export async function sha256(data: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await subtle.digest("SHA-256", data as Bytes));
}

function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function u32(n: number): Bytes {
  return new Uint8Array([(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255]);
}

export async function createAuthenticator(
  alg: Alg,
  setup: AuthenticatorSetup = {},
): Promise<SoftAuthenticator> {
  let pair: CryptoKeyPair;
  if (alg === -8) {
    pair = await subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]) as CryptoKeyPair;
  } else if (alg === -7) {
    pair = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ]);
  } else {
    pair = await subtle.generateKey(
      {
        name: "RSASSA-PKCS1-v1_5",
        modulusLength: setup.rsaBits ?? 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      true,
      ["sign", "verify"],
    );
  }
  const jwk = await subtle.exportKey("jwk", pair.publicKey);
  const credentialId = setup.credentialId ?? crypto.getRandomValues(new Uint8Array(32));
  const userHandle = setup.userHandle ?? b64(crypto.getRandomValues(new Uint8Array(32)));

  const coseKey = (): Map<Encodable, Encodable> => {
    if (alg === -8) {
      return new Map<Encodable, Encodable>([[1, 1], [3, -8], [-1, 6], [-2, fromB64(jwk.x)]]);
    }
    if (alg === -7) {
      return new Map<Encodable, Encodable>([[1, 2], [3, -7], [-1, 1], [-2, fromB64(jwk.x)], [
        -3,
        fromB64(jwk.y),
      ]]);
    }
    return new Map<Encodable, Encodable>([[1, 3], [3, -257], [-1, fromB64(jwk.n)], [
      -2,
      fromB64(jwk.e),
    ]]);
  };

  const sign = async (data: Bytes): Promise<Bytes> => {
    if (alg === -8) return new Uint8Array(await subtle.sign("Ed25519", pair.privateKey, data));
    if (alg === -7) {
      const raw = new Uint8Array(
        await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, data),
      );
      return rawToDer(raw);
    }
    return new Uint8Array(await subtle.sign("RSASSA-PKCS1-v1_5", pair.privateKey, data));
  };

  const clientDataBytes = (type: string, knobs: CommonKnobs): Bytes => {
    if (knobs.clientDataBytes) return knobs.clientDataBytes;
    const data: JsonObject = {
      type,
      challenge: knobs.challenge,
      origin: knobs.origin ?? ORIGIN,
      crossOrigin: false,
    };
    knobs.clientData?.(data);
    return encoder.encode(JSON.stringify(data));
  };

  const self: SoftAuthenticator = {
    alg,
    credentialId,
    id: b64(credentialId),
    userHandle,
    coseKey,
    coseKeyBytes: () => encodeCbor(coseKey()),
    counter: setup.counter ?? 0,
    sign,

    async register(knobs) {
      const clientDataJSON = clientDataBytes("webauthn.create", knobs);
      const rpIdHash = knobs.rpIdHash ?? await sha256(encoder.encode(knobs.rpId ?? RP_ID));
      const flags = knobs.flags ?? (FLAG.UP | FLAG.UV | FLAG.AT);
      const idInData = knobs.credentialIdInData ?? credentialId;
      const idLength = knobs.credentialIdLength ?? idInData.length;
      let keyBytes = knobs.coseKeyBytes;
      if (!keyBytes) {
        const key = coseKey();
        knobs.coseKey?.(key);
        keyBytes = encodeCbor(key);
      }
      const authData = concat(
        rpIdHash,
        new Uint8Array([flags]),
        u32(knobs.signCount ?? self.counter),
        ...(knobs.attested === false ? [] : [
          knobs.aaguid ?? new Uint8Array(16),
          new Uint8Array([idLength >> 8, idLength & 255]),
          idInData,
          keyBytes,
        ]),
        knobs.extensions ?? new Uint8Array(),
        knobs.authDataSuffix ?? new Uint8Array(),
      );
      let attStmt: Map<Encodable, Encodable> = new Map();
      let fmt = knobs.fmt ?? "none";
      if (knobs.attStmt === "self") {
        fmt = knobs.fmt ?? "packed";
        const sig = await sign(concat(authData, await sha256(clientDataJSON)));
        attStmt = new Map<Encodable, Encodable>([["alg", alg], ["sig", sig]]);
      } else if (knobs.attStmt) attStmt = knobs.attStmt;
      const object = new Map<Encodable, Encodable>([["fmt", fmt], ["attStmt", attStmt], [
        "authData",
        authData,
      ]]);
      knobs.attestationObject?.(object);
      const json: JsonObject = {
        id: self.id,
        rawId: self.id,
        type: "public-key",
        response: {
          clientDataJSON: b64(clientDataJSON),
          attestationObject: b64(encodeCbor(object)),
          transports: knobs.transports ?? ["internal", "hybrid"],
        },
        authenticatorAttachment: "platform",
        clientExtensionResults: {},
      };
      knobs.json?.(json);
      return json;
    },

    async authenticate(knobs) {
      const clientDataJSON = clientDataBytes("webauthn.get", knobs);
      const rpIdHash = knobs.rpIdHash ?? await sha256(encoder.encode(knobs.rpId ?? RP_ID));
      const flags = knobs.flags ?? (FLAG.UP | FLAG.UV);
      let count = knobs.signCount;
      if (count === undefined) {
        if (self.counter !== 0) self.counter++;
        count = self.counter;
      }
      const authData = concat(
        rpIdHash,
        new Uint8Array([flags]),
        u32(count),
        knobs.extensions ?? new Uint8Array(),
        knobs.authDataSuffix ?? new Uint8Array(),
      );
      const signer = knobs.signWith?.sign ?? sign;
      let signature = await signer(concat(authData, await sha256(clientDataJSON)));
      if (knobs.signature) signature = knobs.signature(signature);
      const response: JsonObject = {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
      };
      const handle = knobs.userHandle === undefined ? userHandle : knobs.userHandle;
      if (handle !== null) response.userHandle = handle;
      const json: JsonObject = {
        id: self.id,
        rawId: self.id,
        type: "public-key",
        response,
        authenticatorAttachment: "platform",
        clientExtensionResults: {},
      };
      knobs.json?.(json);
      return json;
    },
  };
  return self;
}

export function challenge(): string {
  return b64(crypto.getRandomValues(new Uint8Array(32)));
}

export { b64, concat, fromB64 };
