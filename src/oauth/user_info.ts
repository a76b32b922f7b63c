/**
 * The user-info request with the bearer token, and its validation.
 *
 * @module
 */

import {
  callProvider,
  parseProviderJSON,
  providerError,
  readProviderText,
} from "./provider_fetch.ts";
import { mediaType } from "../http.ts";
import type { ResolvedProvider } from "./resolve.ts";
import type { OAuthTokens } from "./types.ts";

/** Fetches the provider's user-info object; any failure is a 502 `AuthError`. */
export async function fetchUserInfo(
  fetchFn: typeof fetch,
  provider: ResolvedProvider,
  tokens: OAuthTokens,
): Promise<Record<string, unknown>> {
  const response = await callProvider(fetchFn, provider.userInfo, {
    headers: { Accept: "application/json", Authorization: `Bearer ${tokens.access_token}` },
  }, "user-info");
  const text = await readProviderText(response, "user-info");
  if (!response.ok) {
    throw providerError(`The provider's user-info endpoint answered ${response.status}.`);
  }
  const type = mediaType(response);
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw providerError("The provider's user-info response is not JSON.");
  }
  return parseProviderJSON(text, "user-info");
}
