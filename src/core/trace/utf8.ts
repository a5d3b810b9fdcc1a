/**
 * Strict UTF-8 decoding of one line: invalid bytes are an error for that line (with where they are), never
 * replacement characters silently changing what the trace says.
 */

// A BOM is handled once, at the start of the file, by the reader; elsewhere it is content.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Index of the first byte that is not part of a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      // Only the first continuation byte has a narrowed range (overlongs, surrogates, > U+10FFFF).
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (c === undefined || c < min || c > max) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** The line's text, or a message locating the first invalid byte (`fileOffset` is where `bytes` starts). */
export function decodeUtf8Line(bytes: Uint8Array, line: number, fileOffset: number): { text: string } | { error: string } {
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    const where =
      at < 0 ? '' : ` (byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at column byte ${at + 1}, file offset ${fileOffset + at})`;
    return { error: `line ${line}: invalid UTF-8${where}; the line was skipped` };
  }
}
