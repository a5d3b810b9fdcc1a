/**
 * GPT-2's byte-level alphabet: byte-level BPE vocabularies (tokenizer.json's ByteLevel, GGUF's `gpt2` model) spell
 * each byte as one printable character (space is `Ġ`, newline `Ċ`). These turn such a token string back into its
 * bytes (a Latin-1 string), or say it is not one.
 */
let table: Map<string, number> | null = null;

function byteOfChar(): Map<string, number> {
  if (table) return table;
  const map = new Map<string, number>();
  const printable = (b: number): boolean => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    if (printable(b)) map.set(String.fromCharCode(b), b);
    else map.set(String.fromCharCode(256 + extra++), b);
  }
  table = map;
  return map;
}

/** The bytes a byte-level token string stands for, or null when a character is outside the alphabet. */
export function byteLevelBytes(token: string): string | null {
  const map = byteOfChar();
  let out = '';
  for (const ch of token) {
    const b = map.get(ch);
    if (b === undefined) return null;
    out += String.fromCharCode(b);
  }
  return out;
}
