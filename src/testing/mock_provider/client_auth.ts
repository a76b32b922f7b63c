/**
 * Client authentication at the token endpoint (RFC 6749 section 2.3.1):
 * exactly one method, the configured one, with credentials compared in
 * constant time.
 *
 * @module
 */

import { utf8Text } from "../../body.ts";
import { AuthError } from "../../errors.ts";
import { timingSafeEqual } from "../../crypto/timing_safe_equal.ts";
import type { MockSettings } from "./options.ts";
import type { MockRequestRecord } from "./types.ts";

/** The client authentication a token request used, or `"none"` / `"multiple"`. */
export type UsedClientAuth = NonNullable<MockRequestRecord["clientAuthMethod"]>;

const BASIC = /^Basic +([A-Za-z0-9+/]+=*) *$/i;

/** Which client authentication a token request used. */
export function usedClientAuth(header: string | null, params: URLSearchParams): UsedClientAuth {
  const inBody = params.has("client_secret");
  if (header !== null && inBody) return "multiple";
  if (header !== null) return "client_secret_basic";
  return inBody ? "client_secret_post" : "none";
}

/** Throws an `AuthError` unless the client authenticated as configured. */
export function authenticateClient(
  settings: MockSettings,
  request: { used: UsedClientAuth; header: string | null; params: URLSearchParams },
): void {
  const { used, header, params } = request;
  if (used === "multiple") {
    throw new AuthError(
      "invalid_request",
      "The client used more than one authentication method: expected exactly one.",
    );
  }
  if (used !== settings.clientAuthMethod) {
    throw new AuthError(
      "invalid_client",
      `Client authentication failed: expected ${settings.clientAuthMethod}.`,
    );
  }
  let id: string | undefined;
  let secret: string | undefined;
  if (used === "client_secret_basic") {
    [id, secret] = parseBasic(header ?? "") ?? [];
    const bodyId = params.get("client_id");
    if (bodyId !== null && bodyId !== id) {
      throw new AuthError("invalid_request", "client_id in the body differs from the Basic one.");
    }
  } else {
    id = params.get("client_id") ?? undefined;
    secret = params.get("client_secret") ?? undefined;
  }
  // Both compared every time, in constant time, so timing reveals neither.
  const idOk = timingSafeEqual(id ?? "", settings.clientId);
  const secretOk = timingSafeEqual(secret ?? "", settings.clientSecret);
  if (id === undefined || secret === undefined || !idOk || !secretOk) {
    throw new AuthError("invalid_client", "Client authentication failed.");
  }
}

/** Decodes `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 section 2.3.1). */
export function parseBasic(header: string): [string, string] | undefined {
  const match = BASIC.exec(header);
  if (!match) return undefined;
  try {
    const binary = atob(match[1]);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const text = utf8Text(bytes);
    if (text === undefined) return undefined;
    const colon = text.indexOf(":");
    if (colon < 0) return undefined;
    const decode = (part: string) => decodeURIComponent(part.replaceAll("+", " "));
    return [decode(text.slice(0, colon)), decode(text.slice(colon + 1))];
  } catch {
    return undefined;
  }
}
