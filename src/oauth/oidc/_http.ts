/**
 * Private helpers of the OpenID Connect modules: which URLs a provider may
 * name, and one bounded JSON GET (timeout, size cap, media type, object).
 *
 * @module
 */

import {
  callProvider,
  parseProviderJSON,
  PROVIDER_TIMEOUT_MS,
  providerError,
  readProviderText,
  timedFetch,
} from "../provider_fetch.ts";

/** Whether a URL's `hostname` is loopback: `localhost`, `*.localhost`, `127.0.0.1`, `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" ||
    host === "[::1]";
}

/**
 * Parses a URL a provider names and checks it: `https:`, or `http:` to a
 * loopback host when `allowLoopbackHttp` is set; never credentials or a
 * fragment. Returns `null` for anything else.
 */
export function providerURL(value: unknown, allowLoopbackHttp: boolean): URL | null {
  if (typeof value !== "string" || value === "" || value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const plainLoopback = url.protocol === "http:" && allowLoopbackHttp &&
    isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !plainLoopback) return null;
  if (url.username !== "" || url.password !== "" || url.hash !== "" || value.includes("#")) {
    return null;
  }
  return url;
}

/** What a bounded GET answered: the parsed object, or the status of a non-2xx answer. */
export type JSONAnswer =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; status: number };

/** Options of {@link getProviderJSON}. */
export interface GetJSONOptions {
  /** The fetch to use; wrapped with the timeout and `redirect: "error"`. */
  fetch: typeof fetch;
  /** Timeout of the request and, separately, of reading its body; default 10 s. */
  timeoutMs?: number;
  /** Accepted media types besides `application/json` and `*+json`. */
  accept?: string;
}

/**
 * GETs a JSON object from a provider: a 2xx answer must be JSON (by media
 * type), at most 256 KiB, and an object; a non-2xx answer is returned as its
 * status with the body discarded. Network failures, timeouts and bad bodies
 * are 502 `AuthError`s naming `what`.
 */
export async function getProviderJSON(
  url: string,
  what: string,
  options: GetJSONOptions,
): Promise<JSONAnswer> {
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const response = await callProvider(timedFetch(options.fetch, timeoutMs), url, {
    headers: { Accept: options.accept ?? "application/json" },
  }, what);
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, status: response.status };
  }
  const type = (response.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) {
    await response.body?.cancel().catch(() => {});
    throw providerError(`The provider's ${what} response is not JSON.`);
  }
  const text = await readProviderText(response, what, timeoutMs);
  return { ok: true, data: parseProviderJSON(text, what) };
}
