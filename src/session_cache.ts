/**
 * A bounded cache of verified session tokens. A hit is re-checked against the
 * clock, so the cache never grants what the token itself no longer grants.
 *
 * @module
 */

import type { JWTPayload } from "../jose.ts";

/** Most tokens kept; the oldest is evicted first. */
export const SESSION_CACHE_ENTRIES = 1024;

interface Entry {
  readonly payload: Readonly<JWTPayload>;
  /** The payload's `Session` as JSON, once a read has asked for it. */
  json?: string;
}

/** Verified session payloads keyed by the exact token string. */
export class SessionCache {
  #entries = new Map<string, Entry>();

  /** The verified payload for a token when cached and still within `exp`/`nbf` at `now` (seconds). */
  get(token: string, now: number): Readonly<JWTPayload> | undefined {
    const payload = this.#entries.get(token)?.payload;
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
    this.#entries.set(token, { payload: kept });
    return kept;
  }

  /**
   * `serialize(payload)`, computed once per cached token: later reads of the
   * same token get the same text. A payload that is not the one cached for
   * the token is serialized every time.
   */
  serialized<T extends JWTPayload>(
    token: string,
    payload: Readonly<T>,
    serialize: (payload: Readonly<T>) => string,
  ): string {
    const entry = this.#entries.get(token);
    if (entry === undefined || entry.payload !== payload) return serialize(payload);
    return entry.json ??= serialize(payload);
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
