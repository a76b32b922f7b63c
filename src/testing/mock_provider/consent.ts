/**
 * The interactive mode's consent step: the page with the account choice and
 * Approve / Deny buttons, and the decision its form posts back.
 *
 * @module
 */

import type { MockContext } from "./_state.ts";
import { consentPage } from "./pages.ts";
import type { Outcome } from "./responses.ts";
import type { MockDecision } from "./types.ts";
import { accountLabel, findUser } from "./users.ts";

/** The consent page for a validated authorization request; the form re-sends its parameters. */
export function consentOutcome(
  ctx: MockContext,
  params: URLSearchParams,
  request: { scope: string; loginHint: string | undefined },
): Outcome {
  const { users } = ctx.settings;
  const hinted = request.loginHint === undefined ? users[0] : findUser(users, request.loginHint);
  const response = consentPage({
    providerName: "Mock",
    action: ctx.settings.endpoints.authorize,
    params: Object.fromEntries(
      [...params].filter(([name]) => name !== "decision" && name !== "user"),
    ),
    scope: request.scope,
    accounts: users.map((u) => [u.sub, accountLabel(u)]),
    selected: hinted?.sub,
  });
  return { response, params };
}

/** The decision a posted consent form carries; `undefined` when it carries none. */
export function consentDecision(params: URLSearchParams): MockDecision | undefined {
  const choice = params.get("decision");
  if (choice !== "approve" && choice !== "deny") return undefined;
  const chosen = params.get("user");
  return choice === "deny" ? "deny" : chosen ? { user: chosen } : "approve";
}
