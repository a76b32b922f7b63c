/**
 * `callbacks` and `events`: the sign-in hook that decides which user a
 * sign-in stores (or refuses it), and the audit events called after the fact.
 *
 * @module
 */

import type { OAuthTokens } from "../oauth/types.ts";
import type { Session, User } from "../types.ts";
import { isRecord } from "../is_record.ts";
import { fail, knownKeys, optionalFunction } from "./_check.ts";

/** What the sign-in hook is told about a sign-in that succeeded so far. */
export interface SignInParams<U extends User = User> {
  /** The user as validated from the provider profile or `credentials.authorize`. */
  user: U;
  /** The provider id, or `"credentials"` for username and password. */
  provider: string;
  /** The provider's user-info object (ID-token claims merged in for OpenID Connect); absent for credentials. */
  profile?: Readonly<Record<string, unknown>>;
  /** The provider's tokens; absent for credentials. */
  tokens?: Readonly<OAuthTokens>;
  /** The incoming request. */
  request: Request;
  /**
   * With `accounts`: `true` on the callback of `POST /link/:provider`, where
   * `user.sub` is the signed-in user the provider account joins; the hook may
   * refuse (`null`) but not name another user.
   */
  link?: boolean;
}

/**
 * A type no value has (it needs a `"~never"` field of type `never`), unioned
 * into what hooks return only for its index signature: that signature
 * depends on `U`, so while `createAuth` still infers `U` from
 * `identity.schema`, a literal a hook returns (`role: "admin"`) keeps its
 * literal type instead of widening to `string`, and is then checked against
 * the schema's type.
 *
 * @example
 * ```ts
 * import type { HookLiterals, User } from "@service-stack/auth";
 *
 * type Returned = User | HookLiterals<User>; // what a hook may return: a User
 * ```
 */
export interface HookLiterals<U> {
  /** Any value, spelled as a type that depends on `U`. */
  [field: string]: U extends never ? never
    : string | number | bigint | boolean | symbol | object | null | undefined;
  /** Makes the type uninhabited. */
  "~never": never;
}

/**
 * What `callbacks.signIn` returns: a `U` (see {@link HookLiterals} for why
 * the union).
 *
 * @example
 * ```ts
 * import type { SignInResult, User } from "@service-stack/auth";
 *
 * const user: SignInResult<User & { role: "admin" | "member" }> = { sub: "1", role: "admin" };
 * ```
 */
export type SignInResult<U extends User> = U | HookLiterals<U>;

/** `callbacks`: hooks that change what the library does. */
export interface AuthCallbacks<U extends User = User> {
  /**
   * Runs after every successful OAuth callback and credentials sign-in,
   * before the session is made. Return the user to store (e.g. your own
   * account id after linking the provider identity), or `null` to refuse
   * (the callback lands with `error=access_denied`; credentials answer 401),
   * or throw an `AuthError` to choose the error.
   */
  signIn?: (params: SignInParams<U>) => SignInResult<U> | null | Promise<SignInResult<U> | null>;
}

/**
 * `events`: called after the fact, for audit logs. Errors are logged and
 * never change the response; the response waits for a handler at most 1.5 s,
 * then goes out and the late handler is logged (by the event's name).
 */
export interface AuthEvents<U extends User = User> {
  /** A user signed in (OAuth or credentials). */
  signIn?: (event: { user: U; provider: string; request: Request }) => void | Promise<void>;
  /** A user signed up. */
  signUp?: (event: { user: U; request: Request }) => void | Promise<void>;
  /** A session ended through sign-out (`session` is null when there was none). */
  signOut?: (event: { session: Session<U> | null; request: Request }) => void | Promise<void>;
  /** A session's user fields or expiry were updated. */
  sessionUpdate?: (event: { session: Session<U>; request: Request }) => void | Promise<void>;
  /** Sessions were revoked through the store (`sessionId` for one, or every session of `sub`). */
  sessionRevoked?: (event: { sub?: string; sessionId?: string }) => void | Promise<void>;
  /** With `accounts`: a provider account was linked to a user (a first sign-in included). */
  linkAccount?: (event: { sub: string; provider: string }) => void | Promise<void>;
}

/** Names of the events. */
export type AuthEventName = keyof AuthEvents;

const EVENT_NAMES: readonly AuthEventName[] = [
  "signIn",
  "signUp",
  "signOut",
  "sessionUpdate",
  "sessionRevoked",
  "linkAccount",
];

/**
 * How long a response waits for an event handler, in milliseconds: events
 * never change the response, so a handler that hangs is logged and left
 * behind instead of holding the response.
 */
export const EVENT_TIMEOUT_MS = 1500;

/** The resolved hooks. */
export interface HookSettings {
  /** `callbacks.signIn`. */
  readonly signInHook?: (params: SignInParams) => unknown;
  /** The event handlers given. */
  readonly events: Readonly<AuthEvents>;
  /** How long a response waits for an event handler ({@link EVENT_TIMEOUT_MS}; shorter in tests). */
  readonly eventTimeoutMs: number;
}

/** Resolves `callbacks` and `events`. */
export function resolveHooks(options: { callbacks?: unknown; events?: unknown }): HookSettings {
  const { callbacks, events } = options;
  if (callbacks !== undefined && !isRecord(callbacks)) {
    fail("callbacks is not an object; expected { signIn }.");
  }
  knownKeys(callbacks, "callbacks", ["signIn"]);
  optionalFunction(isRecord(callbacks) ? callbacks.signIn : undefined, "callbacks.signIn");
  if (events !== undefined && !isRecord(events)) {
    fail(`events is not an object; expected handlers named ${EVENT_NAMES.join(", ")}.`);
  }
  knownKeys(events, "events", EVENT_NAMES);
  for (const name of EVENT_NAMES) {
    optionalFunction(isRecord(events) ? events[name] : undefined, `events.${name}`);
  }
  return Object.freeze({
    signInHook: isRecord(callbacks) ? callbacks.signIn as HookSettings["signInHook"] : undefined,
    events: Object.freeze({ ...(isRecord(events) ? events as AuthEvents : {}) }),
    eventTimeoutMs: EVENT_TIMEOUT_MS,
  });
}
