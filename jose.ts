/**
 * JOSE utilities (JWS, JWE, JWT) on Web Crypto.
 *
 * @module
 */

/** Tokens larger than this many bytes are refused before any parsing. */
export const MAX_TOKEN_BYTES = 16 * 1024;
