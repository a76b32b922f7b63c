/**
 * Node request to Web `Request`: the URL from the `Host` header and a target
 * that is always read as a path, the headers, and the body streamed from the
 * request or rebuilt from what a body parser already read.
 *
 * @module
 */

import type { NodeIncomingMessage, NodeRequestHeaders } from "./types.ts";

// A host name, IPv4 address or bracketed IPv6 address, with an optional port.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const ABSOLUTE_FORM = /^https?:\/\//i;
// Request bodies are queued up to this many bytes before the socket is paused.
const BODY_HIGH_WATER_MARK = 64 * 1024;
const encoder = new TextEncoder();

/** Why a Node request cannot become a Web `Request`; answered with a 400. */
export class UnreadableRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableRequest";
  }
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * The path and query of the request target. Express keeps the full target in
 * `originalUrl` and strips its mount path from `url`. An absolute-form target
 * (`http://other.example/x`) gives only its path: the host comes from `Host`.
 */
function targetPath(req: NodeIncomingMessage): string {
  const target = req.originalUrl ?? req.url ?? "";
  if (target.startsWith("/")) return target;
  if (ABSOLUTE_FORM.test(target)) {
    try {
      const url = new URL(target);
      return `${url.pathname}${url.search}`;
    } catch {
      // Reported below.
    }
  }
  throw new UnreadableRequest(
    'The request target is not a path; expected one starting with "/".',
  );
}

/** The request URL: scheme from the socket, host from `Host`, the target appended as a path. */
export function requestURL(req: NodeIncomingMessage): URL {
  const host = single(req.headers[":authority"]) ?? single(req.headers.host) ?? "";
  if (!HOST.test(host)) {
    throw new UnreadableRequest(
      "The Host header is missing or malformed; expected a host like example.com:8000.",
    );
  }
  const protocol = req.socket?.encrypted === true ? "https:" : "http:";
  try {
    // Appended, never resolved: `new URL("//evil.example/x", base)` would take that host.
    return new URL(`${protocol}//${host}${targetPath(req)}`);
  } catch (error) {
    if (error instanceof UnreadableRequest) throw error;
    throw new UnreadableRequest("The request URL is malformed; expected a valid host and path.");
  }
}

function requestHeaders(source: NodeRequestHeaders): Headers {
  const headers = new Headers();
  try {
    for (const [name, value] of Object.entries(source)) {
      // HTTP/2 pseudo-headers (`:path`, `:authority`) are not headers of the Web request.
      if (value === undefined || name.startsWith(":")) continue;
      if (typeof value === "string") headers.append(name, value);
      else for (const item of value) headers.append(name, item);
    }
  } catch {
    throw new UnreadableRequest("A request header is malformed; expected valid header values.");
  }
  return headers;
}

function chunkBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === "string") return encoder.encode(chunk);
  throw new TypeError("The request stream gave a chunk that is not bytes; expected Uint8Array.");
}

/**
 * The request body as a Web stream that pauses the socket while the reader
 * is behind. Cancelling it does not destroy the request, which would reset
 * the connection before the answer (a 413, say) is sent: the rest of the
 * body is drained and dropped instead, as Node does for unread bodies.
 */
function bodyStream(req: NodeIncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  function detach(): void {
    finished = true;
    req.removeListener("data", onData);
    req.removeListener("end", onEnd);
    req.removeListener("error", onError);
    req.removeListener("close", onClose);
  }
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  function onData(chunk: unknown): void {
    if (finished) return;
    try {
      controller.enqueue(chunkBytes(chunk));
    } catch (error) {
      detach();
      controller.error(error);
      req.resume();
      return;
    }
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  }
  function onEnd(): void {
    if (finished) return;
    detach();
    controller.close();
  }
  function onError(error: unknown): void {
    if (finished) return;
    detach();
    controller.error(error);
  }
  function onClose(): void {
    // `close` before `end`: the client went away half way.
    onError(new Error("The client closed the connection before the request body ended."));
  }
  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("error", onError);
      req.on("close", onClose);
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      detach();
      req.resume();
    },
  }, { highWaterMark: BODY_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength });
}

function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** Appends a parsed form value, nested ones in the bracket notation `qs` parses back. */
function appendFormValue(form: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) appendFormValue(form, key, item);
  } else if (value !== null && typeof value === "object") {
    for (const [name, item] of Object.entries(value)) {
      appendFormValue(form, `${key}[${name}]`, item);
    }
  } else {
    form.append(key, String(value));
  }
}

/**
 * The body a parser already read, serialised again for the request's
 * `Content-Type`: JSON re-encoded, forms through `URLSearchParams`, text and
 * bytes as they are. `null` when it cannot be rebuilt (the handler then sees
 * an empty body and answers 4xx).
 */
function parsedBody(body: unknown, headers: Headers): string | Uint8Array<ArrayBuffer> | null {
  if (typeof body === "string") return body;
  // A copy: a Node `Buffer` may share a larger pool, which `BodyInit` does not accept.
  if (body instanceof Uint8Array) return new Uint8Array(body);
  const type = mediaType(headers);
  if (type === "application/json" || type.endsWith("+json")) {
    return JSON.stringify(body) ?? null;
  }
  if (type === "application/x-www-form-urlencoded" && body !== null && typeof body === "object") {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body)) appendFormValue(form, key, value);
    return form.toString();
  }
  return null;
}

/**
 * Converts a Node request into a Web `Request` whose `signal` is `signal`.
 * Throws {@linkcode UnreadableRequest} when the host, target or headers
 * cannot form one.
 */
export function toWebRequest(req: NodeIncomingMessage, signal: AbortSignal): Request {
  const url = requestURL(req);
  const headers = requestHeaders(req.headers);
  const method = (req.method ?? "GET").toUpperCase();
  let body: BodyInit | null = null;
  if (method !== "GET" && method !== "HEAD") {
    if (req.readableEnded === true) {
      // A body parser read the stream: what it parsed is all that is left.
      body = req.body === undefined ? null : parsedBody(req.body, headers);
      // The original length and encoding describe bytes that are gone.
      for (const name of ["content-length", "content-encoding", "transfer-encoding"]) {
        headers.delete(name);
      }
    } else {
      body = bodyStream(req);
    }
  }
  const init: RequestInit & { duplex?: "half" } = { method, headers, body, signal };
  // Node's `fetch` requires `duplex` with a streamed body.
  if (body instanceof ReadableStream) init.duplex = "half";
  try {
    return new Request(url, init);
  } catch {
    if (body instanceof ReadableStream) void body.cancel();
    throw new UnreadableRequest("The request method is not allowed; expected e.g. GET or POST.");
  }
}
