/**
 * How one key becomes its contexts and kids for each use: the plan that a
 * key source of `keys.ts` carries and `_key_ring.ts` runs, in a module below
 * both, so that neither imports the other.
 *
 * @module
 */

import type { EncryptionContext, KeySides, SigningContext, SigningHeader } from "./_contexts.ts";
import type { Lazy } from "./_lazy.ts";

/** What a key is used for. */
export type SigningOrEncryption = "signing" | "encryption";

/** How the sides of one key become its contexts. */
export interface ContextBuilders {
  /** The signing context of its signing sides. */
  signing(sides: KeySides, header: SigningHeader): SigningContext;
  /** The encryption context of its encryption sides. */
  encryption(sides: KeySides, kid: string | null): EncryptionContext;
}

/** How one key gets its sides, its contexts and its kid for each use. */
export interface KeyPlan {
  /** Its sides for a use (derived, or as given); rejects when it has none for that use. */
  sides(use: SigningOrEncryption): Promise<KeySides>;
  /** Its kid for a use, computed on first use. */
  kid(use: SigningOrEncryption): Lazy<string | null>;
  /** Its contexts, from its sides. */
  contexts: ContextBuilders;
}
