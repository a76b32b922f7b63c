/**
 * CRC-32 (IEEE 802.3, the polynomial of zip and PNG) over ASCII text: the
 * checksum at the end of an API key, so that a mistyped or truncated key,
 * or a string that merely looks like one, is refused before any store call.
 * It is no security measure: anyone can compute it.
 *
 * @module
 */

let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table !== undefined) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/**
 * The CRC-32 of a string's UTF-16 code units taken as bytes (API keys are
 * ASCII, so this is the CRC-32 of their bytes), as an unsigned integer.
 *
 * @example
 * ```ts ignore
 * crc32("123456789"); // 0xcbf43926
 * ```
 */
export function crc32(text: string): number {
  const t = crcTable();
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = t[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
