/**
 * The Standard Schema v1 interface (the `~standard` property that Zod,
 * Valibot and ArkType implement), declared here so that no schema library is
 * a dependency.
 *
 * @module
 */

/** One validation issue. */
export interface StandardSchemaIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where, as a path of keys. */
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
}

/** The result of a Standard Schema validation. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** Any schema implementing Standard Schema v1. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The standard interface. */
  readonly "~standard": {
    /** Always 1. */
    readonly version: 1;
    /** The library that made the schema. */
    readonly vendor: string;
    /** Validates an unknown value. */
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    /** Type-level input and output, when the library declares them. */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** Whether a value looks like a Standard Schema v1 object. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const standard = (value as { "~standard"?: unknown })["~standard"];
  return typeof standard === "object" && standard !== null &&
    (standard as { version?: unknown }).version === 1 &&
    typeof (standard as { validate?: unknown }).validate === "function";
}

/** A failed validation: the failing field paths that are safe to repeat. */
export interface SchemaFailure {
  readonly ok: false;
  /**
   * Dotted paths of the failing fields (e.g. `address.city`), only those
   * whose every segment is at most 64 letters, digits, `_`, `-` or `.`;
   * others are left out, so that no request-supplied key is echoed.
   * Issue messages are never kept: libraries quote received values in them.
   */
  readonly paths: readonly string[];
}

/** Validates with a schema, returning the output or the safe paths of the failing fields. */
export async function validateWith<O>(
  schema: StandardSchemaV1<unknown, O>,
  value: unknown,
): Promise<{ ok: true; value: O } | SchemaFailure> {
  const result = await schema["~standard"].validate(value);
  if (result.issues) {
    const paths = new Set<string>();
    for (const issue of result.issues) {
      const path = safePath(issue);
      if (path !== undefined) paths.add(path);
    }
    return { ok: false, paths: [...paths].slice(0, 16) };
  }
  return { ok: true, value: result.value };
}

const SAFE_SEGMENT = /^[A-Za-z0-9_.-]{1,64}$/;

function safePath(issue: StandardSchemaIssue): string | undefined {
  const segments: string[] = [];
  for (const part of issue.path ?? []) {
    const key = typeof part === "object" && part !== null ? part.key : part;
    const text = typeof key === "number" ? String(key) : key;
    if (typeof text !== "string" || !SAFE_SEGMENT.test(text)) return undefined;
    segments.push(text);
  }
  return segments.length === 0 ? undefined : segments.join(".");
}

/**
 * Ends a description with the failing fields, when any is safe to name:
 * `"; check email, password"`.
 */
export function failingFields(failure: SchemaFailure): string {
  return failure.paths.length === 0 ? "" : `; check ${failure.paths.join(", ")}`;
}
