/**
 * Provider tokens sealed at rest: one compact JWE (`dir` + A256GCM under a
 * key derived for the `provider-tokens` purpose only), so a seal or an
 * unseal is one Web Crypto call. The sealed text names its account
 * (provider and provider account id): tokens copied onto another row of the
 * store do not open there.
 *
 * @module
 */

import type { Jose } from "../jose/types.ts";
import { isRecord } from "../is_record.ts";

/** The `cty` of sealed provider tokens. */
const TOKENS_CTY = "provider-tokens";
const CTY_OPTION = { cty: TOKENS_CTY } as const;

/** A linked account's tokens, as the library keeps them. */
export interface ProviderTokens {
  /** The access token. */
  accessToken: string;
  /** Its type, as the provider named it (`bearer`). */
  tokenType: string;
  /** The refresh token, when the provider issued one. */
  refreshToken?: string;
  /** The OpenID Connect ID token, when one came. */
  idToken?: string;
}

/** The account sealed tokens belong to. */
export interface TokenOwner {
  provider: string;
  providerAccountId: string;
}

/** Seals tokens for one account: the `tokens` field of a `StoredAccount`. */
export async function sealTokens(
  jose: Jose,
  owner: TokenOwner,
  tokens: ProviderTokens,
): Promise<string> {
  const payload: Record<string, string> = {
    p: owner.provider,
    s: owner.providerAccountId,
    a: tokens.accessToken,
    t: tokens.tokenType,
  };
  if (tokens.refreshToken !== undefined) payload.r = tokens.refreshToken;
  if (tokens.idToken !== undefined) payload.i = tokens.idToken;
  return await jose.encryptJWE(JSON.stringify(payload), { cty: TOKENS_CTY });
}

/**
 * Opens an account's sealed tokens. Throws an `Error` for a value this
 * library did not seal for this account (with this secret or a previous one).
 */
export function openTokens(
  jose: Jose,
  owner: TokenOwner,
  sealed: string,
): Promise<ProviderTokens> {
  // One promise step, not an async function's two: this is the hot path of getAccessToken.
  return jose.decryptJWE(sealed, CTY_OPTION).then(
    (text) => readPayload(owner, text),
    () => {
      throw new Error(
        "The account's tokens do not open with this secret; expected tokens sealed by this library.",
      );
    },
  );
}

function readPayload(owner: TokenOwner, text: string): ProviderTokens {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = undefined;
  }
  if (
    !isRecord(payload) || payload.p !== owner.provider || payload.s !== owner.providerAccountId ||
    typeof payload.a !== "string" || typeof payload.t !== "string" ||
    (payload.r !== undefined && typeof payload.r !== "string") ||
    (payload.i !== undefined && typeof payload.i !== "string")
  ) {
    throw new Error(
      "The account's tokens were sealed for another account; expected this account's own.",
    );
  }
  const tokens: ProviderTokens = { accessToken: payload.a, tokenType: payload.t };
  if (payload.r !== undefined) tokens.refreshToken = payload.r as string;
  if (payload.i !== undefined) tokens.idToken = payload.i as string;
  return tokens;
}
