/**
 * `toNodeHandler`: serves a Web `Request -> Response` handler from
 * `node:http`, Express or Connect.
 *
 * @module
 */

import type { ClientInfo } from "../rate_limit/address.ts";
import { toWebRequest, UnreadableRequest } from "./_request.ts";
import { writeWebResponse } from "./_response.ts";
import type {
  NodeHandler,
  NodeIncomingMessage,
  NodeServerResponse,
  ToNodeHandlerOptions,
} from "./types.ts";

const ERROR_HEADERS: [string, string][] = [
  ["content-type", "application/json; charset=utf-8"],
  ["cache-control", "no-store"],
  ["x-content-type-options", "nosniff"],
];

/** Answers with an RFC 6749 error body, unless the answer has started (then cuts it off). */
function sendError(
  res: NodeServerResponse,
  status: number,
  body: { error: string; error_description: string },
): void {
  if (res.headersSent) {
    // A body that failed half way must not look complete.
    res.destroy();
    return;
  }
  if (res.writableEnded === true || res.destroyed === true) return;
  res.statusCode = status;
  for (const [name, value] of ERROR_HEADERS) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

/**
 * Whether the request's body has been received to its end, so that the
 * connection can carry the next request. Unknown (no `complete` flag, as in
 * some Node-compatible servers) counts as received unless the handler
 * refused the body (413, 408). HTTP/2 streams do not share a body's bytes.
 */
function bodyReceived(req: NodeIncomingMessage, status: number): boolean {
  if ((req.httpVersionMajor ?? 1) >= 2) return true;
  if (req.complete === false) return false;
  return status !== 413 && status !== 408;
}

/**
 * Wraps a Web handler, such as `auth.handlers.ALL`, as a Node request
 * listener that also works as Express or Connect middleware.
 *
 * The request URL is the `Host` header plus the request target read as a
 * path (`req.originalUrl` under Express, which strips mount paths from
 * `req.url`), so a target like `//evil.example/x` or `http://evil.example/x`
 * never changes the host; `https:` when the socket is TLS. A missing or
 * malformed `Host` gets a 400 `invalid_request`. The body is streamed, or
 * rebuilt from `req.body` when a body parser (`express.json()`,
 * `express.urlencoded()`, `express.text()`, `express.raw()`) has already
 * read it. Every `Set-Cookie` of the response is its own header line. The
 * handler's second argument is `{ remoteAddr: { hostname } }` with the
 * socket's address (`req.socket.remoteAddress`), which rate limits count by.
 * An answer sent before the request body ended (a 413 for a body over the
 * limit, a 408 for one that stalls) says `Connection: close`, so a
 * keep-alive connection never reads its next request from the middle of a
 * refused body.
 *
 * The returned function never rejects: an error thrown by the handler or
 * while writing is passed to `options.onError` and answered with a 500
 * `server_error` that carries no detail (or cuts off a response already
 * under way). It answers every request it gets, so mount it where only auth
 * requests reach it.
 *
 * @example With `node:http`
 * ```ts ignore
 * import { createServer } from "http";
 * import { createAuth } from "@service-stack/auth";
 * import { toNodeHandler } from "@service-stack/auth/node";
 *
 * const auth = createAuth({ oauth: ["github"] }); // secret from AUTH_SECRET
 * const handleAuth = toNodeHandler(auth.handlers.ALL);
 * createServer((req, res) => {
 *   if (req.url?.startsWith("/auth/")) return handleAuth(req, res);
 *   res.writeHead(404).end();
 * }).listen(3000);
 * ```
 *
 * @example As Express middleware, after body parsers
 * ```ts ignore
 * import express from "express";
 * import { createAuth } from "@service-stack/auth";
 * import { toNodeHandler } from "@service-stack/auth/node";
 *
 * const auth = createAuth({ oauth: ["github"] });
 * const app = express();
 * app.use(express.json());
 * app.use("/auth", toNodeHandler(auth.handlers.ALL)); // basePath "/auth", the default
 * app.listen(3000);
 * ```
 */
export function toNodeHandler(
  handler: (request: Request, info?: ClientInfo) => Response | Promise<Response>,
  options: ToNodeHandlerOptions = {},
): NodeHandler {
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  function report(error: unknown): void {
    try {
      onError(error);
    } catch {
      // A failing error reporter must not take the process down.
    }
  }
  return async function handleNodeRequest(
    req: NodeIncomingMessage,
    res: NodeServerResponse,
  ): Promise<void> {
    const aborter = new AbortController();
    let closed = false;
    function onClose(): void {
      closed = true;
      aborter.abort();
    }
    function onResponseError(error: unknown): void {
      closed = true;
      report(error);
    }
    res.on("close", onClose);
    // Left attached: an `error` event without a listener would crash the process.
    res.on("error", onResponseError);
    try {
      let request: Request;
      try {
        request = toWebRequest(req, aborter.signal);
      } catch (error) {
        if (!(error instanceof UnreadableRequest)) throw error;
        sendError(res, 400, { error: "invalid_request", error_description: error.message });
        return;
      }
      const info = { remoteAddr: { hostname: req.socket?.remoteAddress } };
      const response = await handler(request, info);
      // A body refused before its end (413, 408) leaves bytes, or a stall, on the connection: the
      // next request there would be read from the middle of this body or wait behind it forever.
      if (!bodyReceived(req, response.status) && !res.headersSent) {
        res.setHeader("connection", "close");
      }
      await writeWebResponse(res, response, {
        method: request.method,
        isClosed: () => closed,
      });
    } catch (error) {
      report(error);
      try {
        sendError(res, 500, {
          error: "server_error",
          error_description: "The server could not complete the request.",
        });
      } catch (sendFailure) {
        report(sendFailure);
      }
    }
  };
}
