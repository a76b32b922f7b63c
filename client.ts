/**
 * The browser client for `@service-stack/auth`.
 *
 * @module
 */

/** The version of the client protocol this module speaks. */
export const CLIENT_PROTOCOL_VERSION = 1;
