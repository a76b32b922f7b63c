/**
 * The seven built-in OAuth 2.0 providers, by id.
 *
 * @module
 */

import type { BuiltInProvider, BuiltInProviderId } from "../types.ts";
import { bitbucket } from "./bitbucket.ts";
import { discord } from "./discord.ts";
import { figma } from "./figma.ts";
import { github } from "./github.ts";
import { gitlab } from "./gitlab.ts";
import { spotify } from "./spotify.ts";
import { x } from "./x.ts";

export { bitbucket, discord, figma, github, gitlab, spotify, x };

/**
 * Every built-in provider by id. The record and each provider are frozen;
 * to change a field, spread the provider into a custom one.
 *
 * @example
 * ```ts
 * import { builtInProviders } from "@service-stack/auth";
 *
 * const provider = builtInProviders.github;
 * console.log(provider.userInfo); // "https://api.github.com/user"
 * ```
 */
export const builtInProviders: Readonly<Record<BuiltInProviderId, BuiltInProvider>> = Object
  .freeze({ github, bitbucket, figma, discord, gitlab, spotify, x });

/**
 * Returns whether `id` names a built-in provider (own keys only, so
 * `"constructor"` or `"__proto__"` never match).
 *
 * @example
 * ```ts
 * import { isBuiltInProviderId } from "./mod.ts";
 *
 * isBuiltInProviderId("github"); // true
 * isBuiltInProviderId("toString"); // false
 * ```
 */
export function isBuiltInProviderId(id: string): id is BuiltInProviderId {
  return Object.hasOwn(builtInProviders, id);
}
