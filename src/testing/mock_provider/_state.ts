/**
 * What one mock provider remembers between requests: its issued codes and
 * access tokens, its request log and its ID token signing key. Each
 * `createMockProvider` call has its own; nothing is shared between mocks.
 *
 * @module
 */

import type { MockSettings } from "./options.ts";
import type { MockRequestRecord } from "./types.ts";

/** An issued authorization code. */
export interface CodeGrant {
  clientId: string;
  redirectURI: string;
  codeChallenge: string;
  scope: string;
  sub: string;
  /** The authorization request's `nonce`, echoed in the ID token. */
  nonce: string | undefined;
  expiresAt: number;
  used: boolean;
  revoked: boolean;
  accessTokens: string[];
}

/** An issued access token. */
export interface AccessGrant {
  sub: string;
  scope: string;
  expiresAt: number;
}

/** An ID token signing key and its public JWK (with `kid`, `alg` and `use`). */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJWK: Readonly<Record<string, string>>;
}

/** The stores of one mock provider. */
export interface MockState {
  readonly codes: Map<string, CodeGrant>;
  readonly accessTokens: Map<string, AccessGrant>;
  readonly requests: MockRequestRecord[];
  /** The current signing key, generated on first need (a promise, so that it is generated once). */
  signingKey: Promise<SigningKey> | undefined;
}

/** The settings and stores every endpoint works on. */
export interface MockContext {
  readonly settings: MockSettings;
  readonly state: MockState;
}

/** Empty stores. */
export function createState(): MockState {
  return { codes: new Map(), accessTokens: new Map(), requests: [], signingKey: undefined };
}
