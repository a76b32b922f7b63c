/**
 * A guarded JSON GET for providers that need a second call after user info,
 * and the follow-up URL built from the configured user-info endpoint.
 *
 * @module
 */

import { readProviderText } from "../provider_fetch.ts";

/**
 * The URL of a follow-up resource under the configured user-info endpoint:
 * its path plus `/{segment}`, query and fragment dropped
 * (`https://git.corp.example/api/v3/user` gives
 * `https://git.corp.example/api/v3/user/emails`); `undefined` without one.
 *
 * @example
 * ```ts
 * import { followUpURL } from "./_fetch_json.ts";
 *
 * followUpURL("https://api.github.com/user", "emails"); // "https://api.github.com/user/emails"
 * ```
 */
export function followUpURL(userInfo: string | undefined, segment: string): string | undefined {
  if (userInfo === undefined) return undefined;
  const url = new URL(userInfo);
  url.search = "";
  url.hash = "";
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${segment}`;
  return url.href;
}

/**
 * Fetches `url` with the access token as a Bearer credential and returns the
 * parsed JSON body, or `undefined` when the call fails in any way (refused
 * host, network error, timeout, non-2xx status, a body over the size limit,
 * non-JSON body): the caller then leaves the field out rather than failing
 * the sign-in.
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
  url: string | undefined,
  accessToken: string,
  headers: Record<string, string> = {},
): Promise<unknown> {
  if (url === undefined) return undefined;
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
