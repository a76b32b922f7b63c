/**
 * Slack (Sign in with Slack, OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://docs.slack.dev/authentication/sign-in-with-slack/,
 * https://docs.slack.dev/reference/methods/openid.connect.token and
 * https://docs.slack.dev/reference/methods/openid.connect.userInfo:
 * issuer `https://slack.com`, scopes `openid profile email`, token at
 * `openid.connect.token` with the client id and secret as form
 * parameters, user info by `POST openid.connect.userInfo` with the bearer
 * token; errors come back as `200 { ok: false, error }` (refused as a
 * token `error`). The confidential OpenID Connect exchange fails when a
 * `code_verifier` is sent, so PKCE is off; `nonce` is supported. Email:
 * `email_verified` is documented; the email is used only when it is `true`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInProvider } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";

/**
 * Maps Slack's claims: `sub` (the Slack user id), `name`, `picture`, and
 * `email` only when `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { slackProfile } from "./slack.ts";
 *
 * slackProfile({ ok: true, sub: "U0R7JM", email: "krane@slack-corp.com", email_verified: true, name: "krane" });
 * // { sub: "U0R7JM", name: "krane", email: "krane@slack-corp.com" }
 * ```
 */
export function slackProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Slack", { requireVerified: true });
}

/**
 * The built-in Slack provider (OpenID Connect): scopes
 * `openid profile email`, client credentials in the body, user info by
 * `POST`, no PKCE. Credentials come from `SLACK_CLIENT_ID` /
 * `SLACK_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { slack } from "@service-stack/auth";
 *
 * console.log(slack.userInfoMethod); // "POST"
 * ```
 */
export const slack: BuiltInProvider = /* @__PURE__ */ defineProvider({
  id: "slack",
  name: "Slack",
  issuer: "https://slack.com",
  authorizeURL: "https://slack.com/openid/connect/authorize",
  accessToken: "https://slack.com/api/openid.connect.token",
  userInfo: "https://slack.com/api/openid.connect.userInfo",
  jwksURI: "https://slack.com/openid/connect/keys",
  idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
  scope: "openid profile email",
  responseType: "code",
  clientAuthMethod: "client_secret_post",
  pkce: false,
  userInfoMethod: "POST",
  profile: slackProfile,
  verifiesEmail: true,
}, oidcKit);
