/**
 * Which provider an `oauth` entry names: a built-in id found in the table
 * of built-ins (`"github"`), an object checked key by key, and an object
 * that is its own definition (a custom provider). Looked up before any
 * field is read, so that a typo or an unknown id is named first.
 *
 * @module
 */

import { isRecord } from "./profile.ts";
import { fail } from "./provider_checks.ts";
import { OPTION_ENV } from "./provider_env.ts";
import type { BuiltInProvider } from "./types.ts";

/** Keys an `oauth` entry may have (a typo must not pass silently). */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  "id",
  "name",
  "authorizeURL",
  "accessToken",
  "userInfo",
  "scope",
  "responseType",
  "profile",
  "issuer",
  "jwksURI",
  "idTokenAlgorithms",
  "issuerFor",
  "nonce",
  "responseMode",
  "clientAuthMethod",
  "clientIdParam",
  "pkce",
  "userInfoMethod",
  "headers",
  "authorizationParams",
  "clientId",
  "clientSecret",
  // Built-in options, and the fields of a spread built-in provider.
  "tenant",
  "teamId",
  "keyId",
  "privateKey",
  "options",
  "configure",
  "verifiesEmail",
]);

/** The entry as an object: a built-in id becomes `{ id }`. */
export function entryObject(entry: unknown): Record<string, unknown> {
  if (typeof entry === "string") return { id: entry };
  if (isRecord(entry)) return entry;
  return fail(
    'each oauth entry must be a built-in provider id or a provider object; expected e.g. "github" or { id, name, ... }.',
  );
}

/**
 * Built-in providers by id, for entries that name one (`"github"`,
 * `{ id: "okta", issuer }`); `createAuth` from `core.ts` passes none, so
 * the providers it is not given stay out of a bundle.
 */
export type BuiltInTable = Readonly<Record<string, BuiltInProvider>>;

/** The built-in of `table` named `id` (own keys only). */
export function builtInOf(table: BuiltInTable, id: string): BuiltInProvider | undefined {
  // Own keys only, so "constructor" or "__proto__" never match.
  return Object.hasOwn(table, id) ? table[id] : undefined;
}

/** The entry's id, checked, and every key of the entry a known one. */
export function checkId(
  object: Record<string, unknown>,
  entry: unknown,
  table: BuiltInTable,
): string {
  const id = object.id;
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    fail(
      `a provider id must be 1-64 letters, digits, "-" or "_", got ${
        JSON.stringify(id)
      }; expected e.g. "github".`,
    );
  }
  if (id === "credentials") {
    fail(`"credentials" is reserved for username/password sign-in; choose another provider id.`);
  }
  if (typeof entry === "string" && builtInOf(table, id) === undefined) {
    if (Object.keys(table).length === 0) {
      fail(
        `provider "${id}" is named by its id, but this createAuth has no table of built-in providers; expected the provider object that @service-stack/auth/core exports (oauth: [${id}]).`,
      );
    }
    fail(
      `unknown built-in provider "${id}": expected one of ${
        Object.keys(table).join(", ")
      }, or a provider object.`,
    );
  }
  for (const key of Object.keys(object)) {
    if (!KNOWN_KEYS.has(key)) {
      fail(
        `provider "${id}" has an unknown key "${key}"; expected the fields of OAuthProviderCredentials.`,
      );
    }
  }
  return id;
}

/** An object entry as its own definition: its `options` and `configure`, when present, checked. */
export function ownDefinition(object: Record<string, unknown>, id: string): BuiltInProvider {
  const { options, configure } = object;
  if (
    options !== undefined &&
    (!Array.isArray(options) || !options.every((name) => Object.hasOwn(OPTION_ENV, name)))
  ) {
    fail(
      `provider "${id}" options must be a list of option names; expected e.g. ["issuer"] or no options.`,
    );
  }
  if (configure !== undefined && typeof configure !== "function") {
    fail(`provider "${id}" configure must be a function; expected (options) => settings.`);
  }
  return object as unknown as BuiltInProvider;
}
