/**
 * `email`: sign-in links and codes, verification, change of address and
 * password reset. The library seals the tokens and builds the links; the
 * app's `send` delivers each message with its own wording and transport.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import type { User } from "../types.ts";
import { fail, knownKeys, optionalFunction, pageAppName } from "./_check.ts";
import type { FeatureInputs } from "./feature.ts";

/** What a message is for. */
export type EmailMessageKind =
  | "sign-in"
  | "no-account"
  | "verify-email"
  | "change-email"
  | "email-changed"
  | "reset-password";

/** One message for `email.send` to deliver. */
export interface EmailMessage {
  /**
   * What the message is for: `"sign-in"` (link and code), `"no-account"`
   * (someone asked for a sign-in or a reset for an address with no
   * account: send a notice or nothing), `"verify-email"`, `"change-email"`
   * (to the new address), `"email-changed"` (to the old address, after the
   * change), `"reset-password"`.
   */
  kind: EmailMessageKind;
  /** The recipient address. */
  to: string;
  /**
   * The link to put in the message (for `"no-account"` and
   * `"email-changed"`: the site's home page). Built from `baseURL`, never
   * from untrusted request headers.
   */
  url: string;
  /** The 6-digit code of a `"sign-in"` message (typed in the browser that asked). */
  code?: string;
  /** When the link and code stop working. */
  expiresAt: Date;
}

/** The `email` option of `createAuth`; `U` is what the hooks return as a user (default `User`). */
export interface EmailConfig<U = User> {
  /**
   * Delivers one message (SMTP, an email API...). Awaited for known and
   * unknown addresses alike, so both answers take the same time; a throw
   * answers 503 `temporarily_unavailable` and is logged.
   */
  send: (message: EmailMessage, request: Request) => void | Promise<void>;
  /** The user with this address, or `null`. Compare addresses as your records do (usually case-insensitively). */
  findUser: (email: string, request: Request) => U | null | Promise<U | null>;
  /**
   * Creates the user for an address that has none, once the address is
   * proven (the link or code was used); without it, unknown addresses get a
   * `"no-account"` message and cannot sign in by email.
   */
  createUser?: (email: string, request: Request) => U | Promise<U>;
  /** Called when a verification link is used: record the address as verified. */
  onVerified?: (event: { sub: string; email: string }, request: Request) => void | Promise<void>;
  /** Called when a change of address is confirmed: store the new address. */
  onChanged?: (
    event: { sub: string; from: string; to: string },
    request: Request,
  ) => void | Promise<void>;
  /** Lifetime of sign-in, verification and change links and codes, in seconds; default 600 (10 minutes), at most 3600. */
  maxAge?: number;
}

/** The resolved `email` option. */
export interface EmailSettings {
  readonly email?: {
    readonly send: (message: EmailMessage, request: Request) => unknown;
    readonly findUser: (email: string, request: Request) => unknown;
    readonly createUser?: (email: string, request: Request) => unknown;
    readonly onVerified?: (event: { sub: string; email: string }, request: Request) => unknown;
    readonly onChanged?: (
      event: { sub: string; from: string; to: string },
      request: Request,
    ) => unknown;
    /** Lifetime of links and codes, in seconds. */
    readonly maxAge: number;
    /** The app's name on the confirmation and reset pages (`logger.appName`, else `twoFactor.issuer`). */
    readonly appName?: string;
  };
}

/** Default lifetime of email links and codes: 10 minutes. */
const EMAIL_MAX_AGE = 600;
/** Lifetime of a password reset link: 1 hour. */
export const RESET_MAX_AGE = 3600;

const KEYS = ["send", "findUser", "createUser", "onVerified", "onChanged", "maxAge"];

/** Resolves `email` (given); the email routes answer 404 without it. */
export function resolveEmail(value: unknown, inputs: FeatureInputs): EmailSettings {
  if (!isRecord(value)) {
    fail("email is not an object; expected { send(message, request), findUser(email, request) }.");
  }
  knownKeys(value, "email", KEYS);
  if (typeof value.send !== "function" || typeof value.findUser !== "function") {
    fail(
      "email is invalid; expected send(message, request) and findUser(email, request) functions.",
    );
  }
  for (const name of ["createUser", "onVerified", "onChanged"]) {
    optionalFunction(value[name], `email.${name}`);
  }
  const maxAge = value.maxAge ?? EMAIL_MAX_AGE;
  if (typeof maxAge !== "number" || !Number.isInteger(maxAge) || maxAge < 60 || maxAge > 3600) {
    fail("email.maxAge is invalid; expected whole seconds from 60 to 3600.");
  }
  if (inputs.readableFlowTokens) {
    fail(
      "email needs tokens nobody can read, and a lone signing key cannot encrypt; expected a string secret, { sign, encrypt } or an encryption key.",
    );
  }
  return Object.freeze({
    email: Object.freeze({
      send: value.send as NonNullable<EmailSettings["email"]>["send"],
      findUser: value.findUser as NonNullable<EmailSettings["email"]>["findUser"],
      createUser: value.createUser as NonNullable<EmailSettings["email"]>["createUser"],
      onVerified: value.onVerified as NonNullable<EmailSettings["email"]>["onVerified"],
      onChanged: value.onChanged as NonNullable<EmailSettings["email"]>["onChanged"],
      maxAge,
      appName: pageAppName(inputs.config),
    }),
  });
}
