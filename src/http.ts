/**
 * Response builders and request body parsing with size and type limits.
 * Every response's headers are built from scratch: nothing is copied from
 * the request.
 *
 * @module
 */

import { AuthError } from "./errors.ts";

/** Request bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Headers for a response under construction: Set-Cookie lines plus others. */
export interface ResponseParts {
  /** Set-Cookie lines, in order. */
  cookies: string[];
  /** Other headers (CORS, Vary, ...). */
  headers: [string, string][];
}

/** Creates empty response parts. */
export function responseParts(): ResponseParts {
  return { cookies: [], headers: [] };
}

function buildHeaders(parts: ResponseParts | undefined, base: [string, string][]): Headers {
  const headers = new Headers(base);
  if (parts) {
    for (const [name, value] of parts.headers) headers.append(name, value);
    for (const line of parts.cookies) headers.append("Set-Cookie", line);
  }
  return headers;
}

/** A JSON response with `Cache-Control: no-store`. */
export function jsonResponse(body: unknown, status: number, parts?: ResponseParts): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: buildHeaders(parts, [
      ["Content-Type", "application/json; charset=utf-8"],
      ["Cache-Control", "no-store"],
    ]),
  });
}

/** A 302 redirect with `Cache-Control: no-store`. */
export function redirectResponse(location: string, parts?: ResponseParts): Response {
  return new Response(null, {
    status: 302,
    headers: buildHeaders(parts, [["Location", location], ["Cache-Control", "no-store"]]),
  });
}

/** An empty response (CORS preflight). */
export function emptyResponse(status: number, parts?: ResponseParts): Response {
  return new Response(null, { status, headers: buildHeaders(parts, []) });
}

/** The RFC 6749 error response for an `AuthError`. */
export function errorResponse(error: AuthError, parts?: ResponseParts): Response {
  return jsonResponse(error.toJSON(), error.status, parts);
}

/** The media type of a request or response, lower-cased, without parameters. */
export function mediaType(message: Request | Response): string {
  return (message.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
}

/** A parsed request body: a flat record of JSON values or form strings. */
export type Body = Record<string, unknown>;

/**
 * Reads a JSON or form-encoded body, refusing other types (415), bodies over
 * {@link MAX_BODY_BYTES} (413) and malformed content (400). An empty body
 * reads as `{}` when `optional` is set.
 */
export async function readBody(request: Request, optional = false): Promise<Body> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request);
  if (bytes.length === 0) {
    if (optional) return {};
    throw new AuthError("invalid_request", "The request body is empty: expected JSON.");
  }
  const type = mediaType(request);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AuthError("invalid_request", "The request body is not valid UTF-8.");
  }
  if (type === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new AuthError("invalid_request", "The request body is not valid JSON.");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new AuthError("invalid_request", "The request body must be a JSON object.");
    }
    return value as Body;
  }
  if (type === "application/x-www-form-urlencoded") {
    const body: Body = Object.create(null);
    for (const [key, value] of new URLSearchParams(text)) {
      if (Object.hasOwn(body, key)) {
        throw new AuthError("invalid_request", `The form field "${safeName(key)}" is repeated.`);
      }
      body[key] = value;
    }
    return body;
  }
  throw new AuthError(
    "invalid_request",
    "Unsupported content type: expected application/json or application/x-www-form-urlencoded.",
    { status: 415 },
  );
}

async function readLimited(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError("invalid_request", "The request body could not be read.");
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(): AuthError {
  return new AuthError("invalid_request", "The request body is larger than 64 KiB.", {
    status: 413,
  });
}

/** A field name made safe to quote in an error description. */
export function safeName(name: string): string {
  return name.length > 40 || /[^\w.-]/.test(name) ? "(field)" : name;
}
