/**
 * How an optional feature is defined: its config key, resolver, hooks and
 * routes in one frozen value (see `AuthFeature` in `config/feature.ts`).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { FeatureDefinition } from "../config/feature.ts";
import type { Route } from "../router.ts";

/** An optional feature with its routes typed. */
export type Feature = FeatureDefinition<Route, AuthContext>;

/**
 * Freezes a feature (its routes too). Call it as
 * `/* @__PURE__ *\/ defineFeature({...})`, with the routes built the same
 * way, so that a bundler drops the features an app does not use.
 *
 * @example
 * ```ts ignore
 * export const email: AuthFeature = /* @__PURE__ *\/ defineFeature({ key: "email", ... });
 * ```
 */
export function defineFeature(feature: Feature): Feature {
  return Object.freeze({
    ...feature,
    hooks: Object.freeze(feature.hooks),
    routes: Object.freeze([...feature.routes]),
  });
}
