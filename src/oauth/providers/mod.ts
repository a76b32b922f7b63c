/**
 * The built-in OAuth 2.0 and OpenID Connect providers, by id.
 *
 * @module
 */

import type { BuiltInProvider, BuiltInProviderId } from "../types.ts";
import { amazon } from "./amazon.ts";
import { apple } from "./apple.ts";
import { atlassian } from "./atlassian.ts";
import { auth0 } from "./auth0.ts";
import { bitbucket } from "./bitbucket.ts";
import { cognito } from "./cognito.ts";
import { discord } from "./discord.ts";
import { dropbox } from "./dropbox.ts";
import { facebook } from "./facebook.ts";
import { figma } from "./figma.ts";
import { github } from "./github.ts";
import { gitlab } from "./gitlab.ts";
import { google } from "./google.ts";
import { kakao } from "./kakao.ts";
import { keycloak } from "./keycloak.ts";
import { line } from "./line.ts";
import { linkedin } from "./linkedin.ts";
import { microsoft } from "./microsoft.ts";
import { naver } from "./naver.ts";
import { notion } from "./notion.ts";
import { okta } from "./okta.ts";
import { patreon } from "./patreon.ts";
import { reddit } from "./reddit.ts";
import { roblox } from "./roblox.ts";
import { salesforce } from "./salesforce.ts";
import { slack } from "./slack.ts";
import { spotify } from "./spotify.ts";
import { strava } from "./strava.ts";
import { tiktok } from "./tiktok.ts";
import { twitch } from "./twitch.ts";
import { x } from "./x.ts";
import { yahoo } from "./yahoo.ts";
import { zoom } from "./zoom.ts";

export {
  amazon,
  apple,
  atlassian,
  auth0,
  bitbucket,
  cognito,
  discord,
  dropbox,
  facebook,
  figma,
  github,
  gitlab,
  google,
  kakao,
  keycloak,
  line,
  linkedin,
  microsoft,
  naver,
  notion,
  okta,
  patreon,
  reddit,
  roblox,
  salesforce,
  slack,
  spotify,
  strava,
  tiktok,
  twitch,
  x,
  yahoo,
  zoom,
};

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
  /* @__PURE__ */ Object.freeze({
    amazon,
    apple,
    atlassian,
    auth0,
    bitbucket,
    cognito,
    discord,
    dropbox,
    facebook,
    figma,
    github,
    gitlab,
    google,
    kakao,
    keycloak,
    line,
    linkedin,
    microsoft,
    naver,
    notion,
    okta,
    patreon,
    reddit,
    roblox,
    salesforce,
    slack,
    spotify,
    strava,
    tiktok,
    twitch,
    x,
    yahoo,
    zoom,
  });

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
