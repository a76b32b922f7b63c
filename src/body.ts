/**
 * The one size-limited body reader, for request bodies and provider
 * responses alike: it stops at a byte limit and, when asked, at a deadline of
 * its own (so a stalled body is cut off even when the stream ignores aborts).
 *
 * @module
 */

/** Why a body could not be read. */
export type BodyFailure = "too_large" | "timeout" | "unreadable";

/** A read body, or why it could not be read. */
export type BodyResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: BodyFailure };

/** Options of {@link readLimitedBody}. */
export interface ReadLimitedOptions {
  /** Most bytes accepted; one more and the read stops with `too_large`. */
  maxBytes: number;
  /** A deadline for the whole read, in milliseconds; none by default. */
  timeoutMs?: number;
}

const EMPTY = new Uint8Array();

/**
 * Reads a stream up to `maxBytes`, cancelling it on any failure. Never throws.
 *
 * @example
 * ```ts
 * import { readLimitedBody } from "./body.ts";
 * const result = await readLimitedBody(new Response("hi").body, { maxBytes: 1024 });
 * if (result.ok) console.log(result.bytes.length); // 2
 * ```
 */
export async function readLimitedBody(
  stream: ReadableStream<Uint8Array> | null,
  options: ReadLimitedOptions,
): Promise<BodyResult> {
  if (stream === null) return { ok: true, bytes: EMPTY };
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = stream.getReader();
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = options.timeoutMs === undefined ? undefined : new Promise<"timeout">(
    (resolve) => timer = setTimeout(() => resolve("timeout"), options.timeoutMs),
  );
  try {
    while (true) {
      const next = deadline === undefined
        ? await reader.read()
        : await Promise.race([reader.read(), deadline]);
      if (next === "timeout") return fail(reader, "timeout");
      if (next.done) break;
      size += next.value.byteLength;
      if (size > options.maxBytes) return fail(reader, "too_large");
      chunks.push(next.value);
    }
  } catch {
    return fail(reader, "unreadable");
  } finally {
    clearTimeout(timer);
  }
  return { ok: true, bytes: join(chunks, size) };
}

function fail(reader: ReadableStreamDefaultReader<Uint8Array>, reason: BodyFailure): BodyResult {
  reader.cancel().catch(() => {});
  return { ok: false, reason };
}

function join(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Decodes strict UTF-8; `undefined` for malformed bytes. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
