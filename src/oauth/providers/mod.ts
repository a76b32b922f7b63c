/**
 * The built-in OAuth 2.0 and OpenID Connect providers, by id, from the one
 * list of them (`all.ts`), and the resolution of entries against them.
 *
 * @module
 */

import type { EnvReader } from "../../env.ts";
import { resolveProvidersWith } from "../resolve.ts";
import type { ResolvedProvider } from "../resolved_provider.ts";
import type { BuiltInProvider, BuiltInProviderId } from "../types.ts";
import * as all from "./all.ts";

/**
 * The table's type when the `BuiltInProviderId` union of `../types.ts`
 * (written below the providers, which import that module) names exactly the
 * providers of `all.ts`; `never`, and so a type error, otherwise. The table
 * below is written out (a spread of the namespace would keep every provider
 * in a `core.ts` bundle); this type and the object literal's excess-property
 * check hold it to the list.
 */
type SameIds = [keyof typeof all] extends [BuiltInProviderId]
  ? [BuiltInProviderId] extends [keyof typeof all] ? Record<BuiltInProviderId, BuiltInProvider>
  : never
  : never;

/**
 * Every built-in provider by id. The record and each provider are frozen;
 * to change a field, pass an entry `{ id, ...overrides }` or spread the
 * provider into a custom one.
 *
 * @example
 * ```ts
 * import { builtInProviders } from "@service-stack/auth";
 *
 * const provider = builtInProviders.github;
 * console.log(provider.userInfo); // "https://api.github.com/user"
 * ```
 */
export const builtInProviders: Readonly<Record<BuiltInProviderId, BuiltInProvider>> =
  /* @__PURE__ */ Object.freeze(
    {
      amazon: all.amazon,
      apple: all.apple,
      atlassian: all.atlassian,
      auth0: all.auth0,
      bitbucket: all.bitbucket,
      cognito: all.cognito,
      discord: all.discord,
      dropbox: all.dropbox,
      facebook: all.facebook,
      figma: all.figma,
      github: all.github,
      gitlab: all.gitlab,
      google: all.google,
      kakao: all.kakao,
      keycloak: all.keycloak,
      line: all.line,
      linkedin: all.linkedin,
      microsoft: all.microsoft,
      naver: all.naver,
      notion: all.notion,
      okta: all.okta,
      patreon: all.patreon,
      reddit: all.reddit,
      roblox: all.roblox,
      salesforce: all.salesforce,
      slack: all.slack,
      spotify: all.spotify,
      strava: all.strava,
      tiktok: all.tiktok,
      twitch: all.twitch,
      x: all.x,
      yahoo: all.yahoo,
      zoom: all.zoom,
    } satisfies SameIds,
  );

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

/**
 * Resolves every entry against the built-in providers (see
 * `resolveProvidersWith` of `../resolve.ts`, which `createAuth` calls with
 * this table or, from `core.ts`, none); duplicate ids and missing
 * credentials throw, naming the fix.
 *
 * @example
 * ```ts
 * import { resolveProviders } from "./mod.ts";
 *
 * const providers = resolveProviders(["github"], () => "value-from-env");
 * providers.get("github")?.clientId; // "value-from-env"
 * ```
 */
export function resolveProviders(
  entries: readonly unknown[],
  read: EnvReader,
): ReadonlyMap<string, ResolvedProvider> {
  return resolveProvidersWith(entries, read, builtInProviders);
}
