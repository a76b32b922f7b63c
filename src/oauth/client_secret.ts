/**
 * The client secret of a provider as a string, for the token request and
 * for HS256 ID tokens; apart from `token.ts` so that the OIDC kit, which
 * built-in providers import, does not import the provider resolution.
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { providerError } from "./provider_fetch.ts";
import type { ClientSecret } from "./types.ts";

/**
 * The client secret as a string (a secret function is awaited); a missing
 * secret is a 502 and a failing secret function a 500 `AuthError`, so that
 * whatever needs it fails closed.
 *
 * @example
 * ```ts
 * import { clientSecretValue } from "./client_secret.ts";
 *
 * await clientSecretValue(() => Promise.resolve("s3cret")); // "s3cret"
 * ```
 */
export async function clientSecretValue(secret: ClientSecret | undefined): Promise<string> {
  if (typeof secret === "string") return secret;
  if (secret === undefined) throw providerError("The provider has no client secret.");
  let value: unknown;
  try {
    value = await secret();
  } catch {
    throw new AuthError("server_error", "The client secret could not be made.", { status: 500 });
  }
  if (typeof value !== "string" || value === "") {
    throw new AuthError("server_error", "The client secret could not be made.", { status: 500 });
  }
  return value;
}
