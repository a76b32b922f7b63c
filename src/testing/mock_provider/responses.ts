/**
 * How the mock's endpoints read requests and build responses: the outcome
 * of one request, JSON and error responses, and the form body reader.
 *
 * @module
 */

import { readLimitedBody, utf8Text } from "../../body.ts";
import { AuthError } from "../../errors.ts";
import { jsonResponse, MAX_BODY_BYTES, mediaType } from "../../http.ts";
import type { MockRequestRecord } from "./types.ts";

/** What an endpoint answered, and what the request log keeps of it. */
export interface Outcome {
  response: Response;
  /** The OAuth error code, when the request failed. */
  error?: string;
  /** Token requests: the client authentication the client used. */
  clientAuthMethod?: MockRequestRecord["clientAuthMethod"];
  /** The request's parameters, recorded with secrets redacted. */
  params?: URLSearchParams;
}

/** A JSON response that no cache keeps, with extra headers. */
export function json(
  body: unknown,
  options: { status?: number; headers?: [string, string][] } = {},
): Response {
  const headers: [string, string][] = [["Pragma", "no-cache"], ...options.headers ?? []];
  return jsonResponse({ setCookies: [], headers }, body, options.status ?? 200);
}

/** The RFC 6749 error response of a failure; a 401 names the Basic scheme. */
export function errorJSON(failure: AuthError): Response {
  const headers: [string, string][] = failure.status === 401
    ? [["WWW-Authenticate", 'Basic realm="mock-oauth"']]
    : [];
  return json(failure.toJSON(), { status: failure.status, headers });
}

/** The outcome of a failure: its error response and code. */
export function failed(failure: AuthError): Outcome {
  return { response: errorJSON(failure), error: failure.code };
}

/** A 405 with the allowed methods. */
export function methodNotAllowed(allow: string): Outcome {
  const failure = new AuthError("invalid_request", `Method not allowed: expected ${allow}.`, {
    status: 405,
  });
  return {
    response: json(failure.toJSON(), { status: 405, headers: [["Allow", allow]] }),
    error: failure.code,
  };
}

/** A 401 with a Bearer challenge (RFC 6750 section 3). */
export function bearerChallenge(description: string, error: "invalid_token" | undefined): Outcome {
  const challenge = error === undefined
    ? 'Bearer realm="mock-oauth"'
    : `Bearer realm="mock-oauth", error="${error}"`;
  return {
    response: json(
      { error: "invalid_token", error_description: description },
      { status: 401, headers: [["WWW-Authenticate", challenge]] },
    ),
    error: "invalid_token",
  };
}

/**
 * Reads a form-encoded body with the library's size-limited reader;
 * `undefined` for another content type, a body over 64 KiB or bytes that
 * are not UTF-8. Repeated fields are kept: each endpoint decides what a
 * repeated parameter means for its answer.
 */
export async function readForm(request: Request): Promise<URLSearchParams | undefined> {
  if (mediaType(request) !== "application/x-www-form-urlencoded") {
    await request.body?.cancel();
    return undefined;
  }
  const read = await readLimitedBody(request.body, { maxBytes: MAX_BODY_BYTES });
  const text = read.ok ? utf8Text(read.bytes) : undefined;
  return text === undefined ? undefined : new URLSearchParams(text);
}

/** The first parameter sent more than once (RFC 6749 section 3.1 allows each once). */
export function firstDuplicate(params: URLSearchParams): string | undefined {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}
