/**
 * The browser client's `apiKeys`: create, list and delete the signed-in
 * user's API keys (`POST /apiKeys`, `GET /apiKeys`, `DELETE /apiKeys/:id`).
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { type ClientRequest, failure } from "./request.ts";
import type { ApiKeyClient, AuthResult, ClientApiKey } from "./types.ts";

function isApiKey(value: unknown): value is ClientApiKey {
  return isRecord(value) && typeof value.id === "string" && typeof value.name === "string" &&
    Array.isArray(value.scopes) && typeof value.createdAt === "string";
}

function isCreated(body: unknown): body is { key: string; apiKey: ClientApiKey } {
  return isRecord(body) && typeof body.key === "string" && isApiKey(body.apiKey);
}

function isList(body: unknown): body is { apiKeys: ClientApiKey[] } {
  return isRecord(body) && Array.isArray(body.apiKeys) && body.apiKeys.every(isApiKey);
}

function isEmpty(body: unknown): body is undefined {
  return body === undefined; // a 204 has no body
}

/** What the client gives `apiKeys`: a CSRF-protected call and a plain GET. */
export interface ApiKeyTransport {
  mutate<T>(
    request: Omit<ClientRequest, "query" | "csrfToken">,
    accept: (body: unknown) => body is T,
  ): Promise<AuthResult<T>>;
  get<T>(path: string, accept: (body: unknown) => body is T): Promise<AuthResult<T>>;
}

/** Builds `apiKeys` over the client's transport. */
export function apiKeyClient(transport: ApiKeyTransport): ApiKeyClient {
  return {
    create(options) {
      const body = isRecord(options)
        ? { name: options.name, scopes: options.scopes, expiresIn: options.expiresIn }
        : {};
      return transport.mutate({ method: "POST", path: "/apiKeys", body }, isCreated);
    },
    list() {
      return transport.get("/apiKeys", isList);
    },
    async delete(id: string) {
      if (typeof id !== "string" || id === "") {
        return failure(
          "invalid_request",
          "The API key id was refused: expected a non-empty string.",
          0,
        );
      }
      const result = await transport.mutate(
        { method: "DELETE", path: `/apiKeys/${encodeURIComponent(id)}` },
        isEmpty,
      );
      return result.error ? result : { data: { ok: true as const }, error: null };
    },
  };
}
