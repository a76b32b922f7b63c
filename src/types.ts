/**
 * Public types shared across the module.
 *
 * @module
 */

/** A signed-in user, as carried in the session. */
export interface User {
  /** Stable subject identifier from the provider or `authorize`. */
  sub: string;
  /** Display name. */
  name?: string;
  /** Email address. */
  email?: string;
  /** Avatar URL. */
  image?: string;
}

/** The session returned to callers: the user and when the session ends. */
export interface Session<U extends User = User> {
  /** The signed-in user. */
  user: U;
  /** When the session expires, as an ISO 8601 UTC string. */
  expires: string;
}
