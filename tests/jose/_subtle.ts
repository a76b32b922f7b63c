// Counting crypto.subtle calls: proves how many a JOSE operation makes.

const SUBTLE_METHODS = [
  "encrypt",
  "decrypt",
  "sign",
  "verify",
  "digest",
  "generateKey",
  "deriveKey",
  "deriveBits",
  "importKey",
  "exportKey",
  "wrapKey",
  "unwrapKey",
] as const;

/** Counts crypto.subtle calls made while `fn` runs. */
export async function countSubtle(fn: () => Promise<unknown>): Promise<Record<string, number>> {
  const subtle = crypto.subtle as unknown as Record<string, unknown>;
  const counts: Record<string, number> = {};
  for (const name of SUBTLE_METHODS) {
    const original = subtle[name] as (...args: unknown[]) => unknown;
    subtle[name] = (...args: unknown[]) => {
      counts[name] = (counts[name] ?? 0) + 1;
      return original.apply(crypto.subtle, args);
    };
  }
  try {
    await fn();
  } finally {
    for (const name of SUBTLE_METHODS) delete subtle[name];
  }
  return counts;
}
