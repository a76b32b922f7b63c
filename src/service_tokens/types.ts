/**
 * What the API key routes, the server API and the browser client show of
 * API keys: never the hash, never the key except once at creation.
 *
 * @module
 */

/** An API key as `GET /apiKeys` and `api.listApiKeys` show it. */
export interface ApiKey {
  /** The key's id (also inside the key): pass it to `DELETE /apiKeys/:id`. */
  id: string;
  /** The name its user gave it. */
  name: string;
  /** The scopes it carries. */
  scopes: string[];
  /** When it was made, ISO 8601 UTC. */
  createdAt: string;
  /** When it stops working, ISO 8601 UTC; `null` for a key that does not expire. */
  expiresAt: string | null;
  /** When it was last used (recorded at most once a minute), ISO 8601 UTC, or `null`. */
  lastUsedAt: string | null;
}

/** What creating a key answers: the key's text, shown this once, and its record. */
export interface CreatedApiKey {
  /** The whole key, `<prefix>_<id>_<secret><crc>`: show it once, it is never stored. */
  key: string;
  /** The key as listed. */
  apiKey: ApiKey;
}

/** The options of creating a key (`POST /apiKeys`, `api.createApiKey`). */
export interface CreateApiKeyOptions {
  /** A name for the user's list, 1 to 100 characters. */
  name: string;
  /** Scopes for the app to check, up to 64 strings of 1 to 128 characters. */
  scopes?: string[];
  /** Lifetime in seconds, an integer from 60 to 5 years; default none (no expiry). */
  expiresIn?: number;
}

/** A key `api.verifyApiKey` accepted. */
export interface VerifiedApiKey {
  /** The user the key acts for. */
  sub: string;
  /** The key's id. */
  keyId: string;
  /** The scopes it carries. */
  scopes: string[];
}
