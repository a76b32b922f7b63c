/**
 * The browser client's `apiKeys`: create, list and delete the signed-in
 * user's API keys (`POST /apiKeys`, `GET /apiKeys`, `DELETE /apiKeys/:id`).
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { type ClientRequest, failure } from "./request.ts";
import type { ApiKeyClient, AuthResult, ClientApiKey } from "./types.ts";

function isCreated(body: unknown): body is { key: string; apiKey: ClientApiKey } {
  return isRecord(body) && typeof body.key === "string" && isRecord(body.apiKey);
}

function isList(body: unknown): body is { apiKeys: ClientApiKey[] } {
  return isRecord(body) && Array.isArray(body.apiKeys);
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
      // Only the known fields: anything else would be refused by the server.
      const { name, scopes, expiresIn } = isRecord(options) ? options : {} as never;
      return transport.mutate(
        { method: "POST", path: "/apiKeys", body: { name, scopes, expiresIn } },
        isCreated,
      );
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
