/**
 * How a built-in provider is defined: frozen, and found again from a copy
 * (`{ ...okta, issuer }`), so that `createAuth` of `core.ts`, which has no
 * table of built-ins, can tell the copy's overrides from the built-in's own
 * fields.
 *
 * @module
 */

import type { OIDCKit } from "../oidc/kit.ts";
import type { BuiltInProvider, ProfileMapper } from "../types.ts";

// Keyed by the profile mapper, which every built-in has of its own and every copy keeps.
const definitions = new WeakMap<ProfileMapper, BuiltInProvider>();
const kits = new WeakMap<ProfileMapper, OIDCKit>();

/**
 * Freezes a built-in provider and remembers it by its profile mapper; an
 * OpenID Connect provider passes `oidcKit`, so that its definition brings
 * that code into a bundle. Call it as
 * `/* @__PURE__ *\/ defineProvider({...})`, so that a bundler drops the
 * providers an app does not use.
 *
 * @example
 * ```ts ignore
 * export const corp: BuiltInProvider = /* @__PURE__ *\/ defineProvider({ id: "corp", ... }, oidcKit);
 * ```
 */
export function defineProvider(definition: BuiltInProvider, oidc?: OIDCKit): BuiltInProvider {
  const frozen = Object.freeze(definition);
  definitions.set(frozen.profile, frozen);
  if (oidc !== undefined) kits.set(frozen.profile, oidc);
  return frozen;
}

/**
 * The OpenID Connect code a built-in brought with its definition, for an
 * `oauth` entry that is that built-in or a copy of it (one keeping its
 * profile mapper); `undefined` for any other entry.
 *
 * @example
 * ```ts
 * import { oidcKitOf } from "./_define.ts";
 * import { google } from "./google.ts";
 * import { github } from "./github.ts";
 *
 * oidcKitOf({ ...google, clientId: "id" }) !== undefined; // true
 * oidcKitOf(github); // undefined
 * ```
 */
export function oidcKitOf(entry: unknown): OIDCKit | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const profile = (entry as Record<string, unknown>).profile;
  return typeof profile === "function" ? kits.get(profile as ProfileMapper) : undefined;
}

/**
 * The built-in that `entry` is a copy of (same id and profile mapper), or
 * `undefined` for any other object.
 *
 * @example
 * ```ts
 * import { definitionOf } from "./_define.ts";
 * import { okta } from "./okta.ts";
 *
 * definitionOf({ ...okta, issuer: "https://dev-1.okta.com" }) === okta; // true
 * ```
 */
export function definitionOf(entry: Record<string, unknown>): BuiltInProvider | undefined {
  const profile = entry.profile;
  if (typeof profile !== "function") return undefined;
  const definition = definitions.get(profile as ProfileMapper);
  return definition?.id === entry.id ? definition : undefined;
}
