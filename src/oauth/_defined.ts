/**
 * Copying only the keys that are set, so that a frozen provider has no
 * `undefined` fields (`"userInfo" in provider` means it has one).
 *
 * @module
 */

/** Copies the keys whose value is not `undefined`. */
export function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) out[key as keyof T] = value as T[keyof T];
  }
  return out;
}
