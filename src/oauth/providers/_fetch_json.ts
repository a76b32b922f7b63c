/**
 * A guarded JSON GET for providers that need a second call after user info.
 *
 * @module
 */

import { readProviderText } from "../provider_fetch.ts";

/**
 * Fetches `url` with the access token as a Bearer credential and returns the
 * parsed JSON body, or `undefined` when the call fails in any way (network
 * error, timeout, non-2xx status, a body over the size limit, non-JSON body):
 * the caller then leaves the field out rather than failing the sign-in.
 *
 * @example
 * ```ts
 * import { fetchJSON } from "./_fetch_json.ts";
 *
 * const emails = await fetchJSON(fetch, "https://api.github.com/user/emails", "gho_token");
 * ```
 */
export async function fetchJSON(
  fetchFn: typeof fetch,
  url: string,
  accessToken: string,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      headers: {
        ...headers,
        Accept: headers.Accept ?? "application/json",
        Authorization: `Bearer ${accessToken}`,
      },
    });
  } catch {
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  try {
    // Same size limit as the token and user-info responses.
    return JSON.parse(await readProviderText(response, "second"));
  } catch {
    return undefined;
  }
}
