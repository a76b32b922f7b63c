/**
 * How a built-in provider is defined: frozen, and found again from a copy
 * (`{ ...okta, issuer }`), so that `createAuth` of `core.ts`, which has no
 * table of built-ins, can tell the copy's overrides from the built-in's own
 * fields.
 *
 * @module
 */

import type { BuiltInProvider, ProfileMapper } from "../types.ts";

// Keyed by the profile mapper, which every built-in has of its own and every copy keeps.
const definitions = new WeakMap<ProfileMapper, BuiltInProvider>();

/**
 * Freezes a built-in provider and remembers it by its profile mapper. Call
 * it as `/* @__PURE__ *\/ defineProvider({...})`, so that a bundler drops the
 * providers an app does not use.
 *
 * @example
 * ```ts ignore
 * export const corp: BuiltInProvider = /* @__PURE__ *\/ defineProvider({ id: "corp", ... });
 * ```
 */
export function defineProvider(definition: BuiltInProvider): BuiltInProvider {
  const frozen = Object.freeze(definition);
  definitions.set(frozen.profile, frozen);
  return frozen;
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
