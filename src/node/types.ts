/**
 * The shapes of Node's `IncomingMessage` and `ServerResponse` that
 * `toNodeHandler` uses, declared structurally so that the library imports no
 * `node:` module and needs no `@types/node`. Express and Connect requests and
 * responses extend Node's, so they fit too.
 *
 * @module
 */

/**
 * Request headers as Node parses them: lower-case names, repeated ones as arrays.
 *
 * @example
 * ```ts
 * import type { NodeRequestHeaders } from "@service-stack/auth/node";
 *
 * const headers: NodeRequestHeaders = { host: "example.com", "x-tag": ["one", "two"] };
 * ```
 */
export type NodeRequestHeaders = Record<string, string | readonly string[] | undefined>;

/**
 * The part of a request's socket that `toNodeHandler` reads.
 *
 * @example
 * ```ts
 * import type { NodeSocketLike } from "@service-stack/auth/node";
 *
 * const tls: NodeSocketLike = { encrypted: true }; // the request URL starts with https:
 * ```
 */
export interface NodeSocketLike {
  /** `true` on a TLS socket (`node:https`), absent on a plain one. */
  readonly encrypted?: boolean;
  /** The peer's address: handed to the handler as `{ remoteAddr: { hostname } }` (rate limits). */
  readonly remoteAddress?: string;
}

/**
 * The part of a Node `http.IncomingMessage` (or an Express/Connect request)
 * that `toNodeHandler` reads. A readable stream of the body with these
 * fields fits, which is how a test can stand in for Node's request.
 *
 * @example A stand-in built from a Node stream
 * ```ts
 * import { Readable } from "stream";
 * import type { NodeIncomingMessage } from "@service-stack/auth/node";
 *
 * const req: NodeIncomingMessage = Object.assign(Readable.from([]), {
 *   method: "GET",
 *   url: "/auth/session",
 *   headers: { host: "example.com" },
 * });
 * ```
 */
export interface NodeIncomingMessage {
  /** The request method, e.g. `"POST"`. */
  readonly method?: string;
  /** The request target; Express removes a mount path from it. */
  readonly url?: string;
  /** Express: the request target before any mount path was removed. */
  readonly originalUrl?: string;
  /** Parsed headers, lower-case names. */
  readonly headers: NodeRequestHeaders;
  /** The connection, to tell `https:` from `http:`. */
  readonly socket?: NodeSocketLike | null;
  /** What a body parser (`express.json()`, `express.urlencoded()`, ...) read, if one ran. */
  readonly body?: unknown;
  /** `true` once the body stream has been read to its end (by a body parser, for instance). */
  readonly readableEnded?: boolean;
  /** `true` once the whole request, body included, has been received (Node's `IncomingMessage`). */
  readonly complete?: boolean;
  /** The HTTP major version, `1` or `2`: `Connection` is an HTTP/1 header only. */
  readonly httpVersionMajor?: number;
  /** Adds a stream event listener (`data`, `end`, `error`, `close`). */
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** Removes a listener added with `on`. */
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
  /** Stops the `data` events until `resume()`. */
  pause(): unknown;
  /** Starts or restarts the `data` events. */
  resume(): unknown;
}

/**
 * The part of a Node `http.ServerResponse` (or an Express/Connect response)
 * that `toNodeHandler` writes to.
 *
 * @example Node's own response fits
 * ```ts ignore
 * import type { ServerResponse } from "http";
 * import type { NodeServerResponse } from "@service-stack/auth/node";
 *
 * function asNodeResponse(res: ServerResponse): NodeServerResponse {
 *   return res;
 * }
 * ```
 */
export interface NodeServerResponse {
  /** The status code to send. */
  statusCode: number;
  /** `true` once the status line and headers have been sent. */
  readonly headersSent: boolean;
  /** `true` once `end()` has been called. */
  readonly writableEnded?: boolean;
  /** `true` once the response or its connection has been destroyed. */
  readonly destroyed?: boolean;
  /** Sets one header; an array sends one header line per element. */
  setHeader(name: string, value: string | readonly string[]): unknown;
  /** Writes a chunk of the body; `false` asks to wait for `drain`. */
  write(chunk: Uint8Array): boolean;
  /** Ends the response, optionally with a last chunk. */
  end(chunk?: string): unknown;
  /** Closes the connection at once (a body that failed half way). */
  destroy(): unknown;
  /** Adds an event listener (`drain`, `close`, `error`). */
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** Removes a listener added with `on`. */
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * A Node request listener that also fits Express and Connect as middleware;
 * `next` is accepted and never called, since every request gets an answer.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "http";
 * import { type NodeHandler, toNodeHandler } from "@service-stack/auth/node";
 *
 * const handler: NodeHandler = toNodeHandler(() => new Response("hello"));
 * createServer(handler).listen(3000);
 * ```
 */
export type NodeHandler = (
  req: NodeIncomingMessage,
  res: NodeServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void>;

/**
 * Options for `toNodeHandler`.
 *
 * @example Report errors to the application's logger
 * ```ts ignore
 * import { toNodeHandler } from "@service-stack/auth/node";
 *
 * const handler = toNodeHandler(auth.handlers.ALL, {
 *   onError: (error) => logger.error("auth adapter failed", error),
 * });
 * ```
 */
export interface ToNodeHandlerOptions {
  /**
   * Receives an error that the adapter or the handler threw (the client got a
   * 500 `server_error` without its details); default `console.error`.
   */
  onError?: (error: unknown) => void;
}
