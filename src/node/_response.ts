/**
 * Web `Response` to Node response: status, every header, each `Set-Cookie`
 * on its own line, the body streamed with backpressure.
 *
 * @module
 */

import type { NodeServerResponse } from "./types.ts";

/** Statuses that never carry a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * Resolves once `res` can take more data (`drain`) or is gone (`close`);
 * `true` when it is gone.
 */
function drained(res: NodeServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed === true) {
      resolve(true);
      return;
    }
    function onDrain(): void {
      cleanup();
      resolve(false);
    }
    function onClose(): void {
      cleanup();
      resolve(true);
    }
    function cleanup(): void {
      res.removeListener("drain", onDrain);
      res.removeListener("close", onClose);
    }
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/**
 * Writes `response` to `res`. Iterating `Headers` joins `Set-Cookie` values
 * with commas, which breaks their `Expires` dates, so cookies are sent from
 * `getSetCookie()`, one line each. No body for `HEAD` and bodiless statuses.
 * Stops reading the body once the client is gone (`isClosed()`).
 */
export async function writeWebResponse(
  res: NodeServerResponse,
  response: Response,
  options: { method: string; isClosed: () => boolean },
): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (response.body === null || options.method === "HEAD" || NO_BODY.has(response.status)) {
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    while (true) {
      if (options.isClosed()) {
        await reader.cancel().catch(() => {});
        return;
      }
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value) && await drained(res)) {
        await reader.cancel().catch(() => {});
        return;
      }
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  }
  res.end();
}
