/**
 * A small CBOR encoder for tests (the library only decodes): preferred
 * serialization, map keys in insertion order, and `Raw` for bytes written as
 * given (to build malformed input).
 *
 * @module
 */

/** Bytes written into the output as they are. */
export class Raw {
  constructor(readonly bytes: Uint8Array) {}
}

/** A value the encoder writes. */
export type Encodable =
  | number
  | string
  | Uint8Array
  | boolean
  | null
  | Raw
  | Encodable[]
  | Map<Encodable, Encodable>;

function head(major: number, n: number): number[] {
  const m = major << 5;
  if (n < 24) return [m | n];
  if (n < 0x100) return [m | 24, n];
  if (n < 0x10000) return [m | 25, n >> 8, n & 255];
  if (n < 0x100000000) return [m | 26, (n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
  const hi = Math.floor(n / 0x100000000);
  const lo = n >>> 0;
  return [
    m | 27,
    (hi >>> 24) & 255,
    (hi >> 16) & 255,
    (hi >> 8) & 255,
    hi & 255,
    (lo >>> 24) & 255,
    (lo >> 16) & 255,
    (lo >> 8) & 255,
    lo & 255,
  ];
}

/** Encodes `value`. */
export function encodeCbor(value: Encodable): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  write(value, out);
  return new Uint8Array(out);
}

function write(value: Encodable, out: number[]): void {
  if (value instanceof Raw) out.push(...value.bytes);
  else if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error("integers only");
    out.push(...(value >= 0 ? head(0, value) : head(1, -1 - value)));
  } else if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value);
    out.push(...head(3, bytes.length), ...bytes);
  } else if (value instanceof Uint8Array) {
    out.push(...head(2, value.length));
    for (const b of value) out.push(b);
  } else if (value === false) out.push(0xf4);
  else if (value === true) out.push(0xf5);
  else if (value === null) out.push(0xf6);
  else if (Array.isArray(value)) {
    out.push(...head(4, value.length));
    for (const item of value) write(item, out);
  } else {
    out.push(...head(5, value.size));
    for (const [k, v] of value) {
      write(k, out);
      write(v, out);
    }
  }
}

/** Bytes from hex. */
export function hex(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/\s+/g, "");
  return new Uint8Array(clean.match(/../g)?.map((h) => parseInt(h, 16)) ?? []);
}
