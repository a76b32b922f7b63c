/**
 * The keys of one JOSE object, in list order: for each, a lazily built
 * signing and encryption context and the `kid` that names it. The first key
 * issues tokens; a token is read with the key its `kid` names.
 *
 * @module
 */

import { fail } from "./_common.ts";
import {
  type EncryptionContext,
  encryptionContext,
  type SigningContext,
  signingContext,
} from "./_contexts.ts";
import { keyKid, secretKid } from "./_kid.ts";
import { type Lazy, lazy } from "./_lazy.ts";
import { JoseError } from "./errors.ts";
import {
  deriveKey,
  deriveKeyFromHmac,
  importHkdfBase,
  type KeySides,
  type KeySource,
} from "./keys.ts";

/** One use (signing or encryption) of every key, in list order. */
export interface KeyUse<C> {
  /** The context of each key, built on first use. */
  contexts: Lazy<C>[];
  /** The kid of each key (null: the key has none), computed on first use. */
  kids: Lazy<string | null>[];
}

/** The signing and encryption keys of a JOSE object. */
export interface KeyRing {
  signing: KeyUse<SigningContext>;
  encryption: KeyUse<EncryptionContext>;
}

type Use = "signing" | "encryption";

function noKey(use: Use): Error {
  return new JoseError(
    "ERR_JOSE_KEY_INVALID",
    `This JOSE object has no ${use} key; pass { sign, encrypt } or a string secret to use it.`,
  );
}

/** How one key gets its sides and its kid for each use. */
interface KeyPlan {
  sides(use: Use): Promise<KeySides>;
  kid(use: Use): Lazy<string | null>;
}

function planFor(source: KeySource, purpose: string): KeyPlan {
  switch (source.kind) {
    case "secret": {
      const base = lazy(() => importHkdfBase(source.secret, source.salt));
      const kid = lazy(async () => secretKid(base.value ?? await base.get(), purpose));
      return {
        async sides(use) {
          const derived = await deriveKey(base.value ?? await base.get(), purpose, use);
          return { private: derived, public: derived };
        },
        kid: () => kid,
      };
    }
    case "hmac": {
      // The encryption key is derived from the signing key, so one kid names both.
      const kid = lazy(() => keyKid(source.sign));
      return {
        async sides(use) {
          if (use === "signing") return source.sign;
          const derived = await deriveKeyFromHmac(source.sign.private!, purpose);
          return { private: derived, public: derived };
        },
        kid: () => kid,
      };
    }
    case "keys": {
      const { sign, encrypt } = source;
      const signKid = lazy(async () => sign ? await keyKid(sign) : null);
      const encryptKid = lazy(async () => encrypt ? await keyKid(encrypt) : null);
      return {
        sides(use) {
          const sides = use === "signing" ? sign : encrypt;
          return sides ? Promise.resolve(sides) : Promise.reject(noKey(use));
        },
        kid: (use) => use === "signing" ? signKid : encryptKid,
      };
    }
  }
}

/** One use of every key: its kids, then its contexts, each built on first use. */
function layOut<C>(
  plans: readonly KeyPlan[],
  use: Use,
  build: (sides: KeySides, kid: string | null) => C,
): KeyUse<C> {
  const kids = plans.map((plan) => plan.kid(use));
  // Every kid is known once any key is in use, so a lookup never costs a crypto call later.
  const allKids = lazy(() => Promise.all(kids.map((kid) => kid.get())));
  const contexts = plans.map((plan, index) =>
    lazy(async () => {
      const [sides, known] = await Promise.all([plan.sides(use), allKids.get()]);
      return build(sides, known[index]);
    })
  );
  return { contexts, kids };
}

/** Lays out the keys; nothing is derived or exported until first use. */
export function createKeyRing(
  sources: readonly KeySource[],
  options: { purpose: string; typ: string },
): KeyRing {
  const { purpose, typ } = options;
  const plans = sources.map((source) => planFor(source, purpose));
  return {
    signing: layOut(plans, "signing", (sides, kid) => signingContext(sides, { typ, kid })),
    encryption: layOut(plans, "encryption", encryptionContext),
  };
}

/**
 * The context of the key a token's `kid` names: the first key when the token
 * has no `kid` (tokens of 0.1.0 and of other libraries); an error, before any
 * crypto on the token, when no key has that `kid`. Keys are never tried one by one.
 */
export async function contextForKid<C>(keys: KeyUse<C>, kid: unknown): Promise<C> {
  let index = 0;
  if (kid !== undefined) {
    if (typeof kid !== "string") {
      fail("ERR_JOSE_INVALID", "The header kid is not a string; expected a key id.");
    }
    index = -1;
    for (let i = 0; i < keys.kids.length; i++) {
      const once = keys.kids[i];
      if ((once.value !== undefined ? once.value : await once.get()) === kid) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      fail(
        "ERR_JOSE_KID_UNKNOWN",
        "The header kid names none of this JOSE object's keys; expected a token made with one of them.",
      );
    }
  }
  const context = keys.contexts[index];
  return context.value ?? await context.get();
}
