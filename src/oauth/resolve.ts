/**
 * Turns the `oauth` config entries into validated, frozen providers:
 * built-in ids get their credentials from `{ID}_CLIENT_ID` /
 * `{ID}_CLIENT_SECRET`, custom providers are checked field by field.
 *
 * @module
 */

import { type EnvReader, lookupEnv } from "../env.ts";
import type { User } from "../types.ts";
import { defaultProfile } from "./profile.ts";
import { builtInProviders, isBuiltInProviderId } from "./providers/mod.ts";
import type { ClientAuthMethod, OAuthProviderCredentials, ProfileContext } from "./types.ts";
import { isRecord } from "../is_record.ts";

/** A provider ready for the flow: every field present and checked. */
export interface ResolvedProvider extends OAuthProviderCredentials {
  /** Maps the user-info object to a `User` (the provider's own or the default mapping). */
  profile: (profile: Record<string, unknown>, context: ProfileContext) => User | Promise<User>;
  /** Client authentication at the token endpoint. */
  clientAuthMethod: ClientAuthMethod;
  /** Extra authorization request parameters. */
  authorizationParams: Readonly<Record<string, string>>;
}

/** Parameters the flow sets itself; `authorizationParams` may not override them. */
const RESERVED_AUTHORIZATION_PARAMS: ReadonlySet<string> = new Set([
  "state",
  "code_challenge",
  "code_challenge_method",
  "redirect_uri",
  "client_id",
  "response_type",
]);

function fail(message: string): never {
  throw new TypeError(`createAuth: ${message}`);
}

function text(entry: Record<string, unknown>, key: string, id: string): string {
  const value = entry[key];
  if (typeof value !== "string" || value.trim() === "") {
    fail(`provider "${id}" needs a non-empty string "${key}".`);
  }
  return value;
}

function endpoint(entry: Record<string, unknown>, key: string, id: string): string {
  const value = text(entry, key, id);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`provider "${id}" ${key} must be an absolute URL, got "${value}".`);
  }
  const local = url.hostname === "localhost" || url.hostname.endsWith(".localhost") ||
    url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
    fail(`provider "${id}" ${key} must use https (http is allowed only for localhost).`);
  }
  if (url.username || url.password || url.hash) {
    fail(`provider "${id}" ${key} must not contain credentials or a fragment.`);
  }
  return url.href;
}

function envCredential(id: string, suffix: "CLIENT_ID" | "CLIENT_SECRET", read: EnvReader): string {
  const key = `${id.toUpperCase()}_${suffix}`;
  const value = lookupEnv(key, read);
  if (value === undefined) {
    fail(
      `provider "${id}" has no ${
        suffix === "CLIENT_ID" ? "client id" : "client secret"
      }: set ${key} (or AUTH_${key}) in the environment, or pass it in the provider object.`,
    );
  }
  return value;
}

function resolveOne(entry: unknown, read: EnvReader): ResolvedProvider {
  const object: Record<string, unknown> = typeof entry === "string"
    ? { id: entry }
    : isRecord(entry)
    ? entry
    : fail(
      "each oauth entry must be a built-in provider id or a provider object.",
    );
  const id = object.id;
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    fail(`a provider id must be 1-64 letters, digits, "-" or "_", got ${JSON.stringify(id)}.`);
  }
  if (id === "credentials") {
    fail(`"credentials" is reserved for username/password sign-in; choose another provider id.`);
  }
  if (typeof entry === "string" && !isBuiltInProviderId(id)) {
    fail(
      `unknown built-in provider "${id}": expected one of ${
        Object.keys(builtInProviders).join(", ")
      }, or a provider object.`,
    );
  }
  const merged: Record<string, unknown> = isBuiltInProviderId(id)
    ? { ...builtInProviders[id], ...object }
    : object;
  const clientId = merged.clientId ?? envCredential(id, "CLIENT_ID", read);
  const clientSecret = merged.clientSecret ?? envCredential(id, "CLIENT_SECRET", read);
  merged.clientId = clientId;
  merged.clientSecret = clientSecret;

  const responseType = merged.responseType ?? "code";
  if (responseType !== "code") {
    fail(
      `provider "${id}" responseType must be "code": this version runs the authorization-code flow.`,
    );
  }
  const clientAuthMethod = merged.clientAuthMethod ?? "client_secret_basic";
  if (clientAuthMethod !== "client_secret_basic" && clientAuthMethod !== "client_secret_post") {
    fail(
      `provider "${id}" clientAuthMethod must be "client_secret_basic" or "client_secret_post".`,
    );
  }
  if (merged.profile !== undefined && typeof merged.profile !== "function") {
    fail(`provider "${id}" profile must be a function.`);
  }
  if (merged.issuer !== undefined && typeof merged.issuer !== "string") {
    fail(`provider "${id}" issuer must be a string.`);
  }
  const params = merged.authorizationParams ?? {};
  if (!isRecord(params) || !Object.values(params).every((value) => typeof value === "string")) {
    fail(`provider "${id}" authorizationParams must be an object of strings.`);
  }
  for (const key of Object.keys(params)) {
    if (RESERVED_AUTHORIZATION_PARAMS.has(key) || key === "scope") {
      fail(
        `provider "${id}" authorizationParams may not set "${key}": the flow sets it${
          key === "scope" ? " (use scope)" : ""
        }.`,
      );
    }
  }
  return Object.freeze({
    id,
    name: text(merged, "name", id),
    authorizeURL: endpoint(merged, "authorizeURL", id),
    accessToken: endpoint(merged, "accessToken", id),
    userInfo: endpoint(merged, "userInfo", id),
    scope: typeof merged.scope === "string"
      ? merged.scope
      : fail(`provider "${id}" needs a string "scope".`),
    responseType: "code",
    clientId: text(merged, "clientId", id),
    clientSecret: text(merged, "clientSecret", id),
    profile: (merged.profile as ResolvedProvider["profile"] | undefined) ?? defaultProfile,
    issuer: merged.issuer as string | undefined,
    clientAuthMethod,
    authorizationParams: Object.freeze({ ...(params as Record<string, string>) }),
  });
}

/** Resolves every entry; duplicate ids and missing credentials throw, naming the fix. */
export function resolveProviders(
  entries: readonly unknown[],
  read: EnvReader,
): ReadonlyMap<string, ResolvedProvider> {
  const providers = new Map<string, ResolvedProvider>();
  for (const entry of entries) {
    const provider = resolveOne(entry, read);
    if (providers.has(provider.id)) fail(`provider id "${provider.id}" is configured twice.`);
    providers.set(provider.id, provider);
  }
  return providers;
}
