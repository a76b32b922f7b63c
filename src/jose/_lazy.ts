/**
 * A value made once, on first use: the keys and contexts of `createJose`.
 *
 * @module
 */

/** A value made on first use; `value` lets a warm caller skip the await. */
export interface Lazy<T> {
  /** The value once it is made; undefined before. */
  value: T | undefined;
  /** The value, made now if need be; concurrent first calls share one attempt. */
  get(): Promise<T>;
}

/**
 * Wraps `make` so that it runs once. A failed attempt is forgotten, so the
 * next call retries instead of failing forever.
 */
export function lazy<T>(make: () => Promise<T>): Lazy<T> {
  let pending: Promise<T> | undefined;
  const once: Lazy<T> = {
    value: undefined,
    get(): Promise<T> {
      return pending ??= Promise.resolve().then(make).then(
        (value) => once.value = value,
        (error) => {
          pending = undefined;
          throw error;
        },
      );
    },
  };
  return once;
}
