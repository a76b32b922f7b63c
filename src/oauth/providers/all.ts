/**
 * The built-in providers: the one list of them. The entry points re-export
 * it (`export *`, so that a bundler keeps only the providers an app
 * imports) and `builtInProviders` of `mod.ts` is built from it. Adding a
 * provider is adding its file and one line here; the type check then asks
 * for its id in `BuiltInProviderId` of `../types.ts` and its line in the
 * table of `mod.ts` (which a bundler needs written out).
 *
 * @module
 */

export { amazon } from "./amazon.ts";
export { apple } from "./apple.ts";
export { atlassian } from "./atlassian.ts";
export { auth0 } from "./auth0.ts";
export { bitbucket } from "./bitbucket.ts";
export { cognito } from "./cognito.ts";
export { discord } from "./discord.ts";
export { dropbox } from "./dropbox.ts";
export { facebook } from "./facebook.ts";
export { figma } from "./figma.ts";
export { github } from "./github.ts";
export { gitlab } from "./gitlab.ts";
export { google } from "./google.ts";
export { kakao } from "./kakao.ts";
export { keycloak } from "./keycloak.ts";
export { line } from "./line.ts";
export { linkedin } from "./linkedin.ts";
export { microsoft } from "./microsoft.ts";
export { naver } from "./naver.ts";
export { notion } from "./notion.ts";
export { okta } from "./okta.ts";
export { patreon } from "./patreon.ts";
export { reddit } from "./reddit.ts";
export { roblox } from "./roblox.ts";
export { salesforce } from "./salesforce.ts";
export { slack } from "./slack.ts";
export { spotify } from "./spotify.ts";
export { strava } from "./strava.ts";
export { tiktok } from "./tiktok.ts";
export { twitch } from "./twitch.ts";
export { x } from "./x.ts";
export { yahoo } from "./yahoo.ts";
export { zoom } from "./zoom.ts";
