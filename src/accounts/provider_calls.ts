/**
 * The two calls linked accounts make to a provider besides sign-in: the
 * refresh-token grant (RFC 6749 section 6) and token revocation (RFC 7009),
 * both with the client authentication of the code exchange.
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { mediaType } from "../http.ts";
import {
  parseProviderJSON,
  providerError,
  readProviderText,
  timedFetch,
} from "../oauth/provider_fetch.ts";
import { requireEndpoint } from "../oauth/endpoints.ts";
import type { ResolvedProvider } from "../oauth/resolved_provider.ts";
import { postWithClientAuth, validateTokens } from "../oauth/token.ts";
import type { OAuthTokens } from "../oauth/types.ts";

/** How long an unlink waits for the provider's revocation endpoint, in milliseconds. */
export const REVOCATION_TIMEOUT_MS = 5_000;

/** What a refresh request ended with. */
export type RefreshResult = { tokens: OAuthTokens } | { invalidGrant: true };

/**
 * Sends the refresh-token grant. `invalid_grant` (the grant is revoked or
 * the refresh token is used up) is a result; anything else that is not a
 * token response throws (an `AuthError`, 502).
 */
export async function requestRefresh(
  fetchFn: typeof fetch,
  provider: ResolvedProvider,
  refreshToken: string,
): Promise<RefreshResult> {
  const url = requireEndpoint(provider, "accessToken");
  const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
  const response = await postWithClientAuth(timedFetch(fetchFn), provider, url, body, "token");
  const text = await readProviderText(response, "token");
  const type = mediaType(response);
  let data: Record<string, unknown>;
  if (type === "application/x-www-form-urlencoded") {
    data = Object.fromEntries(new URLSearchParams(text));
  } else if (type === "application/json" || type.endsWith("+json")) {
    data = parseProviderJSON(text, "token");
  } else {
    throw providerError(`The provider's token endpoint answered ${response.status}, not JSON.`);
  }
  if (data.error === "invalid_grant") return { invalidGrant: true };
  if (typeof data.error === "string" || !response.ok) {
    throw new AuthError(
      "server_error",
      `The provider's token endpoint refused the refresh (${response.status}).`,
      { status: 502 },
    );
  }
  return { tokens: validateTokens(data) };
}

/**
 * Revokes a token at the provider (RFC 7009), best effort: resolves whether
 * the provider accepted it; never throws. Without a revocation endpoint
 * nothing is sent.
 */
export async function revokeToken(
  fetchFn: typeof fetch,
  provider: ResolvedProvider,
  token: { value: string; hint: "refresh_token" | "access_token" },
): Promise<boolean> {
  const url = provider.revocationURL;
  if (url === undefined) return false;
  try {
    const body = new URLSearchParams({ token: token.value, token_type_hint: token.hint });
    const timed = timedFetch(fetchFn, REVOCATION_TIMEOUT_MS);
    const response = await postWithClientAuth(timed, provider, url, body, "revocation");
    await response.body?.cancel().catch(() => {});
    return response.ok;
  } catch {
    return false;
  }
}
