/**
 * `identity`, `credentials` and `signUp`: the application's user shape and
 * the hooks that create or authorize users.
 *
 * @module
 */

import type { StandardSchemaV1 } from "../standard_schema.ts";
import type { User } from "../types.ts";
import { isRecord } from "../is_record.ts";
import { fail, knownKeys, optionalFunction, optionalObject, optionalSchema } from "./_check.ts";

/** Username and password submitted to `POST /signIn/credentials`. */
export interface Credentials {
  /** The username (or email) as typed. */
  username: string;
  /** The password as typed. */
  password: string;
}

/** The resolved application hooks. */
export interface FeatureSettings {
  /** `identity.schema`. */
  readonly identitySchema?: StandardSchemaV1<unknown, User>;
  /** `credentials.authorize`: enables `POST /signIn/credentials`. */
  readonly authorize?: (credentials: Credentials, request: Request) => unknown;
  /** `signUp.schema`. */
  readonly signUpSchema?: StandardSchemaV1<unknown, Record<string, unknown>>;
  /** `signUp.onCreateUser`: enables `POST /signUp`. */
  readonly onCreateUser?: (payload: Record<string, unknown>, request: Request) => unknown;
  /** `credentials.throttle`: at most `maxAttempts` sign-in attempts per username per `window` seconds. */
  readonly throttle?: ThrottleSettings;
  /** `credentials.resetPassword`: enables `POST /password/forgot` and `/password/reset` (with `email`). */
  readonly resetPassword?: (input: PasswordReset, request: Request) => unknown;
  /** `signUp.verifyEmail`: sign-up sends a verification message to the new user's address. */
  readonly verifyEmailOnSignUp: boolean;
}

/** What `credentials.resetPassword` receives once a reset link was used. */
export interface PasswordReset {
  /** The user whose password changes. */
  sub: string;
  /** The address the reset link was sent to. */
  email: string;
  /** The new password, as typed: hash it before storing. */
  password: string;
}

/**
 * How credentials sign-ins are throttled: attempts are counted before
 * `authorize` runs, per folded username (NFKC, outer whitespace trimmed,
 * lower case), and a right password gives them back.
 */
export interface ThrottleSettings {
  /** Attempts allowed per username in one window (at once or one after another); default 5. */
  readonly maxAttempts: number;
  /** The window, in seconds; default 900 (15 minutes). */
  readonly window: number;
}

const DEFAULT_THROTTLE: ThrottleSettings = Object.freeze({ maxAttempts: 5, window: 15 * 60 });

function resolveThrottle(value: unknown): ThrottleSettings | undefined {
  if (value === false) return undefined;
  if (value === undefined) return DEFAULT_THROTTLE;
  if (!isRecord(value)) {
    fail("credentials.throttle is invalid; expected false or { maxAttempts, window }.");
  }
  knownKeys(value, "credentials.throttle", ["maxAttempts", "window"]);
  const { maxAttempts = DEFAULT_THROTTLE.maxAttempts, window = DEFAULT_THROTTLE.window } = value;
  for (const [name, number] of [["maxAttempts", maxAttempts], ["window", window]] as const) {
    if (typeof number !== "number" || !Number.isInteger(number) || number < 1) {
      fail(`credentials.throttle.${name} is invalid; expected a positive whole number.`);
    }
  }
  return Object.freeze({ maxAttempts: maxAttempts as number, window: window as number });
}

/** What the feature resolver reads from the config. */
export interface FeatureOptions {
  identity?: unknown;
  credentials?: unknown;
  signUp?: unknown;
}

/** Resolves `identity`, `credentials` and `signUp`. */
export function resolveFeatures(options: FeatureOptions): FeatureSettings {
  const { identity, credentials, signUp } = options;
  optionalObject(identity, "identity", "{ schema }");
  knownKeys(identity, "identity", ["schema"]);
  knownKeys(credentials, "credentials", ["authorize", "throttle", "resetPassword"]);
  knownKeys(signUp, "signUp", ["schema", "onCreateUser", "verifyEmail"]);
  const identitySchema = isRecord(identity) ? identity.schema : undefined;
  optionalSchema(identitySchema, "identity.schema");
  if (credentials !== undefined) {
    if (!isRecord(credentials) || typeof credentials.authorize !== "function") {
      fail(
        "credentials is invalid; expected an object with an authorize(credentials, request) function.",
      );
    }
  }
  if (signUp !== undefined) {
    if (!isRecord(signUp) || typeof signUp.onCreateUser !== "function") {
      fail(
        "signUp is invalid; expected an object with an onCreateUser(payload, request) function.",
      );
    }
    optionalSchema(signUp.schema, "signUp.schema");
    if (signUp.verifyEmail !== undefined && typeof signUp.verifyEmail !== "boolean") {
      fail("signUp.verifyEmail is invalid; expected true or false.");
    }
  }
  if (isRecord(credentials)) {
    optionalFunction(credentials.resetPassword, "credentials.resetPassword");
  }
  return Object.freeze({
    identitySchema: identitySchema as FeatureSettings["identitySchema"],
    authorize: isRecord(credentials)
      ? credentials.authorize as FeatureSettings["authorize"]
      : undefined,
    signUpSchema: isRecord(signUp) ? signUp.schema as FeatureSettings["signUpSchema"] : undefined,
    throttle: resolveThrottle(isRecord(credentials) ? credentials.throttle : undefined),
    onCreateUser: isRecord(signUp)
      ? signUp.onCreateUser as FeatureSettings["onCreateUser"]
      : undefined,
    resetPassword: isRecord(credentials)
      ? credentials.resetPassword as FeatureSettings["resetPassword"]
      : undefined,
    verifyEmailOnSignUp: isRecord(signUp) && signUp.verifyEmail === true,
  });
}
