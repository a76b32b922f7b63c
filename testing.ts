/**
 * Test helpers for applications using `@service-stack/auth`.
 *
 * @module
 */

/** Default id of the mock OAuth provider. */
export const MOCK_PROVIDER_ID = "mock";
