/**
 * `@service-stack/auth`: a framework-agnostic authentication core on Web
 * `Request`/`Response` and Web Crypto.
 *
 * @module
 */

export type { Session, User } from "./src/types.ts";
