/**
 * Response builders and request body parsing with size and type limits.
 * Every response's headers are built from scratch: nothing is copied from
 * the request.
 *
 * @module
 */

import { readLimitedBody, utf8Text } from "./body.ts";
import { AuthError } from "./errors.ts";

/** Request bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A request body that has not fully arrived after this many milliseconds is refused with 408. */
export const BODY_TIMEOUT_MS = 10_000;

/** What a response collects while a request runs: its Set-Cookie lines and other headers. */
export interface ResponseHeaders {
  /** Set-Cookie lines, in order. */
  readonly setCookies: string[];
  /** Other headers (CORS, Vary, Allow, ...). */
  readonly headers: [string, string][];
}

/** Creates an empty {@link ResponseHeaders}. */
export function responseHeaders(): ResponseHeaders {
  return { setCookies: [], headers: [] };
}

/** Builds a fresh record of a response's base headers, `nosniff` among them. */
type BaseHeaders = () => Record<string, string>;

const jsonHeaders: BaseHeaders = () => ({
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
});
const htmlHeaders: BaseHeaders = () => ({
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
});
const emptyHeaders: BaseHeaders = () => ({ "X-Content-Type-Options": "nosniff" });

/**
 * A response with the given base headers, then what the request collected.
 * The headers go into the constructor, never set on the response
 * afterwards: some `Response` implementations (Hono's on Node) lose headers
 * set after construction when they copy the response. Every response gets a
 * new record or list: an implementation may keep the very one it was given.
 */
function respond(
  body: string | null,
  status: number,
  base: Record<string, string>,
  out: ResponseHeaders | undefined,
): Response {
  if (out === undefined || (out.headers.length === 0 && out.setCookies.length === 0)) {
    // A record, not a list of pairs: Deno converts it ~0.5 µs faster, on every session read.
    return new Response(body, { status, headers: base });
  }
  const headers = Object.entries(base);
  for (const header of out.headers) headers.push(header);
  for (const line of out.setCookies) headers.push(["Set-Cookie", line]);
  return new Response(body, { status, headers });
}

/** A JSON response with `Cache-Control: no-store`. */
export function jsonResponse(
  out: ResponseHeaders | undefined,
  body: unknown,
  status: number,
): Response {
  return respond(JSON.stringify(body), status, jsonHeaders(), out);
}

/** Like {@link jsonResponse}, for a body already serialized as JSON text. */
export function jsonTextResponse(
  out: ResponseHeaders | undefined,
  json: string,
  status: number,
): Response {
  return respond(json, status, jsonHeaders(), out);
}

/**
 * An HTML page with `Cache-Control: no-store` and a Content-Security-Policy
 * that loads nothing and runs nothing (inline styles only).
 */
export function htmlResponse(
  out: ResponseHeaders | undefined,
  html: string,
  status: number,
): Response {
  return respond(html, status, htmlHeaders(), out);
}

/** A 302 redirect with `Cache-Control: no-store`. */
export function redirectResponse(out: ResponseHeaders | undefined, location: string): Response {
  return respond(null, 302, {
    Location: location,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  }, out);
}

/** An empty response (CORS preflight). */
export function emptyResponse(out: ResponseHeaders | undefined, status: number): Response {
  return respond(null, status, emptyHeaders(), out);
}

/** The RFC 6749 error response for an `AuthError`. */
export function errorResponse(out: ResponseHeaders | undefined, error: AuthError): Response {
  return jsonResponse(out, error.toJSON(), error.status);
}

/** A single query parameter; a repeated one is refused with 400. */
export function singleParam(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) {
    throw new AuthError(
      "invalid_request",
      `The query parameter "${name}" is repeated; expected it once.`,
    );
  }
  return values.length === 1 ? values[0] : null;
}

/** The media type of a request or response, lower-cased, without parameters. */
export function mediaType(message: Request | Response): string {
  return (message.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
}

/** A parsed request body: a flat record of JSON values or form strings. */
export type Body = Record<string, unknown>;

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** An empty body reads as `{}` instead of a 400. */
  optional?: boolean;
  /** The deadline for the whole body, in milliseconds; default {@link BODY_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * Reads a JSON or form-encoded body, refusing other types (415), bodies over
 * {@link MAX_BODY_BYTES} (413), bodies still arriving after the deadline
 * (408) and malformed content (400).
 */
export async function readBody(request: Request, options: ReadBodyOptions = {}): Promise<Body> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const read = await readLimitedBody(request.body, {
    maxBytes: MAX_BODY_BYTES,
    timeoutMs: options.timeoutMs ?? BODY_TIMEOUT_MS,
  });
  if (!read.ok) {
    if (read.reason === "too_large") throw tooLarge();
    if (read.reason === "timeout") {
      throw new AuthError(
        "invalid_request",
        "The request body did not arrive in time; expected the whole body within 10 seconds.",
        { status: 408 },
      );
    }
    throw new AuthError("invalid_request", "The request body could not be read.");
  }
  if (read.bytes.length === 0) {
    if (options.optional) return {};
    throw new AuthError("invalid_request", "The request body is empty; expected JSON.");
  }
  const type = mediaType(request);
  const text = utf8Text(read.bytes);
  if (text === undefined) {
    throw new AuthError("invalid_request", "The request body is not valid UTF-8.");
  }
  if (type === "application/json") return parseJSONObject(text);
  if (type === "application/x-www-form-urlencoded") return parseForm(text);
  throw new AuthError(
    "invalid_request",
    "The content type is not supported; expected application/json or application/x-www-form-urlencoded.",
    { status: 415 },
  );
}

function parseJSONObject(text: string): Body {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AuthError("invalid_request", "The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AuthError(
      "invalid_request",
      "The request body is not an object; expected a JSON object.",
    );
  }
  return value as Body;
}

function parseForm(text: string): Body {
  const body: Body = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(body, key)) {
      throw new AuthError("invalid_request", `The form field ${quotedName(key)}is repeated.`);
    }
    body[key] = value;
  }
  return body;
}

function tooLarge(): AuthError {
  return new AuthError(
    "invalid_request",
    "The request body is too large; expected at most 64 KiB.",
    {
      status: 413,
    },
  );
}

/**
 * A request-supplied name made safe to repeat in an `error_description`:
 * quoted with a trailing space when it is at most 64 characters of letters,
 * digits, `_`, `-` and `.`, else the empty string (left out of the message).
 *
 * @example
 * ```ts
 * import { quotedName } from "./http.ts";
 * `Unknown field ${quotedName("nickname")}in the body.`; // 'Unknown field "nickname" in the body.'
 * `Unknown field ${quotedName("<img src=x>")}in the body.`; // "Unknown field in the body."
 * ```
 */
export function quotedName(name: string): string {
  return typeof name === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(name) ? `"${name}" ` : "";
}
