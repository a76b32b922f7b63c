/**
 * The `accounts` settings of a context, or the error that says they are
 * missing; and the account times the store keeps (integer seconds).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { AccountSettings } from "../config/accounts.ts";
import { AuthError } from "../errors.ts";

/** The configured `accounts`, or 404 `invalid_request` (routes). */
export function accountsOf(ctx: AuthContext): NonNullable<AccountSettings["accounts"]> {
  const accounts = ctx.accounts;
  if (accounts === undefined) {
    throw new AuthError(
      "invalid_request",
      "Linked accounts are not configured; expected accounts: { store } in createAuth.",
      { status: 404 },
    );
  }
  return accounts;
}

/** Now in whole seconds since the epoch, on the instance's clock. */
export function nowSeconds(ctx: AuthContext): number {
  return Math.floor(ctx.clock() / 1000);
}

/** The error of a provider account linked to someone else (a sentence people read). */
export function linkedToAnother(providerName: string): AuthError {
  return new AuthError(
    "access_denied",
    `This ${providerName} account is linked to another user.`,
  );
}
