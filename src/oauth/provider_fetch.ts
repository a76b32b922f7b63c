/**
 * Calls to a provider: a 10 s timeout, a size limit, and a response read
 * that never throws anything but an `AuthError`.
 *
 * @module
 */

import { readLimitedBody, utf8Text } from "../body.ts";
import { AuthError } from "../errors.ts";

/** Timeout of every provider call, in milliseconds. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** Provider responses larger than this are refused. */
export const MAX_PROVIDER_RESPONSE_BYTES = 256 * 1024;

/** A fetch that aborts after the timeout; the provider's own `signal` is respected too. */
export function timedFetch(fetchFn: typeof fetch, timeoutMs = PROVIDER_TIMEOUT_MS): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetchFn(input, { ...init, signal, redirect: "error" });
  };
}

/** A failed provider call: 502 with `server_error` or the provider's own code. */
export function providerError(
  description: string,
  code: "server_error" | "temporarily_unavailable" = "server_error",
): AuthError {
  return new AuthError(code, description, { status: 502 });
}

/** Sends a request to a provider; network failures and timeouts become 502 `AuthError`s. */
export async function callProvider(
  fetchFn: typeof fetch,
  url: string,
  init: RequestInit,
  what: string,
): Promise<Response> {
  try {
    return await fetchFn(url, init);
  } catch (error) {
    if (
      error instanceof DOMException &&
      (error.name === "TimeoutError" || error.name === "AbortError")
    ) {
      throw providerError(`The provider's ${what} endpoint did not answer in time.`);
    }
    throw providerError(`The provider's ${what} endpoint could not be reached.`);
  }
}

/**
 * Reads a provider response body as text within the size limit and within
 * `timeoutMs` of its own, so that a body that stalls is cut off even when a
 * custom `fetch` ignores the abort signal.
 */
export async function readProviderText(
  response: Response,
  what: string,
  timeoutMs = PROVIDER_TIMEOUT_MS,
): Promise<string> {
  const declared = Number(response.headers.get("Content-Length") ?? "0");
  if (declared > MAX_PROVIDER_RESPONSE_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw providerError(`The provider's ${what} response is too large.`);
  }
  const read = await readLimitedBody(response.body, {
    maxBytes: MAX_PROVIDER_RESPONSE_BYTES,
    timeoutMs,
  });
  if (!read.ok) {
    throw providerError(
      read.reason === "too_large"
        ? `The provider's ${what} response is too large.`
        : read.reason === "timeout"
        ? `The provider's ${what} endpoint did not answer in time.`
        : `The provider's ${what} response could not be read.`,
    );
  }
  const text = utf8Text(read.bytes);
  if (text === undefined) {
    throw providerError(`The provider's ${what} response is not valid UTF-8.`);
  }
  return text;
}

/** Parses a JSON object; anything else is a 502. */
export function parseProviderJSON(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw providerError(`The provider's ${what} response is not valid JSON.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw providerError(`The provider's ${what} response is not a JSON object.`);
  }
  return value as Record<string, unknown>;
}
