/**
 * A bounded cache of verified session tokens. A hit is re-checked against the
 * clock, so the cache never grants what the token itself no longer grants.
 *
 * @module
 */

import type { JWTPayload } from "../jose.ts";

/** Most tokens kept; the oldest is evicted first. */
export const SESSION_CACHE_ENTRIES = 1024;

/** Verified session payloads keyed by the exact token string. */
export class SessionCache {
  #entries = new Map<string, Readonly<JWTPayload>>();

  /** The verified payload for a token when cached and still within `exp`/`nbf` at `now` (seconds). */
  get(token: string, now: number): Readonly<JWTPayload> | undefined {
    const payload = this.#entries.get(token);
    if (payload === undefined) return undefined;
    if (typeof payload.exp !== "number" || payload.exp <= now) {
      this.#entries.delete(token);
      return undefined;
    }
    if (typeof payload.nbf === "number" && payload.nbf > now) return undefined;
    return payload;
  }

  /** Remembers a verified payload; returns the frozen copy kept (what later hits return). */
  set<T extends JWTPayload>(token: string, payload: Readonly<T>): Readonly<T> {
    if (this.#entries.size >= SESSION_CACHE_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    const kept = Object.freeze({ ...payload });
    this.#entries.set(token, kept);
    return kept;
  }

  /** Forgets a token (signed out or replaced). */
  delete(token: string): void {
    this.#entries.delete(token);
  }

  /** How many tokens are cached. */
  get size(): number {
    return this.#entries.size;
  }
}
