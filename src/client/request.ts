/**
 * One HTTP exchange with the auth handlers, turned into `{ data, error }`
 * without ever throwing.
 *
 * @module
 */

import { type ErrorType, isErrorType } from "../types.ts";
import type { ResolvedClientOptions } from "./options.ts";
import type { AuthClientError, AuthResult } from "./types.ts";

/** A request the client sends: path below the base path, query and JSON body. */
export interface ClientRequest {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Starts with `/`, below the base path. */
  readonly path: string;
  readonly query?: Record<string, string | undefined>;
  readonly body?: unknown;
  readonly csrfToken?: string;
}

/** Builds `{prefix}{path}?{query}`, leaving out absent query values. */
export function buildURL(
  options: ResolvedClientOptions,
  path: string,
  query: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, value);
  }
  const search = params.toString();
  return options.prefix + path + (search ? `?${search}` : "");
}

/** An error result. */
export function failure(error: ErrorType, description: string, status: number): {
  data: null;
  error: AuthClientError;
} {
  return { data: null, error: { error, error_description: description, status } };
}

function describe(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

/** Turns a non-2xx answer (or an unusable 2xx one) into a well-formed error. */
function errorFrom(status: number, body: unknown): { data: null; error: AuthClientError } {
  const fields = typeof body === "object" && body !== null ? body as Record<string, unknown> : {};
  const description = typeof fields.error_description === "string"
    ? fields.error_description
    : undefined;
  if (isErrorType(fields.error) && status >= 400) {
    const error: AuthClientError = { error: fields.error, status };
    if (description !== undefined) error.error_description = description;
    return { data: null, error };
  }
  return failure(
    "server_error",
    description ?? `The server answered HTTP ${status} without a usable JSON body.`,
    status,
  );
}

/**
 * Sends one request with the configured fetch options and headers, and
 * resolves the parsed JSON body of a 2xx answer when `accept` takes it.
 */
export async function send<T>(
  options: ResolvedClientOptions,
  request: ClientRequest,
  accept: (body: unknown) => body is T,
): Promise<AuthResult<T>> {
  let response: Response;
  try {
    const extra = typeof options.headers === "function" ? await options.headers() : options.headers;
    const headers = new Headers(extra);
    // The client's own headers win over user headers: they carry the protocol.
    headers.set("Accept", "application/json");
    if (request.body !== undefined) headers.set("Content-Type", "application/json");
    if (request.csrfToken !== undefined) headers.set("X-CSRF-Token", request.csrfToken);
    const init: RequestInit = {
      method: request.method,
      headers,
      cache: options.cache,
      credentials: options.credentials,
      mode: options.mode,
    };
    if (request.body !== undefined) init.body = JSON.stringify(request.body);
    const url = buildURL(options, request.path, request.query);
    // Called with globalThis as `this`, so an unbound `window.fetch` works.
    response = options.fetch
      ? await options.fetch.call(globalThis, url, init)
      : await globalThis.fetch(url, init);
  } catch (cause) {
    return failure("server_error", `The request failed without an answer (${describe(cause)}).`, 0);
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  if (response.status >= 200 && response.status < 300 && accept(body)) {
    return { data: body, error: null };
  }
  return errorFrom(response.status, body);
}
