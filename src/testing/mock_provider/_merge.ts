/**
 * How the mock's test knobs change a JSON object it is about to send: a
 * patch merged over it, where `undefined` removes a member, or a function
 * that returns the object to send instead.
 *
 * @module
 */

/** A patch merged over an object, or a function giving the replacement. */
export type ObjectOverride<Context> =
  | Record<string, unknown>
  | ((
    value: Record<string, unknown>,
    context: Context,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>);

/** `value` with `override` applied; throws a `TypeError` when a function gives no object. */
export async function applyOverride<Context>(
  value: Record<string, unknown>,
  input: { override: ObjectOverride<Context> | undefined; context: Context; name: string },
): Promise<Record<string, unknown>> {
  const { override, context, name } = input;
  if (override === undefined) return value;
  if (typeof override === "function") {
    const result = await override({ ...value }, context);
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      throw new TypeError(`The ${name} function gave no object: expected an object.`);
    }
    return result;
  }
  const merged = { ...value, ...override };
  for (const [member, patch] of Object.entries(override)) {
    if (patch === undefined) delete merged[member];
  }
  return merged;
}

/** Whether a value can be an override: an object or a function. */
export function isOverride(value: unknown): boolean {
  return typeof value === "function" ||
    (typeof value === "object" && value !== null && !Array.isArray(value));
}
