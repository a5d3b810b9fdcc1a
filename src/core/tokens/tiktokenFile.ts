/**
 * A model's `tiktoken.model` (Kimi K2's tokenizer: one `base64-token rank` per line) and the special tokens its
 * `tokenizer_config.json` names (`added_tokens_decoder`). The file holds ranks, not the pre-tokenizer pattern: the
 * format supplies that. Both files come from the user's disk and may be anything: errors say file and line.
 */
import { BytePairEncoder, byteEscapes, tiktokenModel, type PieceSplitter } from './bytePairEncoder.ts';

/** Ranks of a tiktoken file, byte strings as Latin-1 keys. */
export function parseTiktokenRanks(text: string, label: string): Map<string, number> {
  const ranks = new Map<string, number>();
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    const entry = raw.trim();
    if (entry === '') continue;
    const m = /^([A-Za-z0-9+/]+={0,2}) (\d+)$/u.exec(entry);
    if (!m) throw new Error(`${label} line ${line}: expected "<base64 token> <rank>", got ${JSON.stringify(entry.slice(0, 40))}`);
    const bytes = Buffer.from(m[1] as string, 'base64').toString('latin1');
    const rank = Number(m[2]);
    if (bytes === '' || !Number.isSafeInteger(rank)) throw new Error(`${label} line ${line}: not a token and a rank`);
    ranks.set(bytes, rank);
  }
  if (ranks.size === 0) throw new Error(`${label} holds no ranks`);
  assertByteLevel(label, (b) => ranks.has(b));
  return ranks;
}

/** Every single byte must be a token, or some text could not be encoded at all. */
export function assertByteLevel(label: string, has: (bytes: string) => boolean): void {
  for (let b = 0; b < 256; b++) {
    const byte = String.fromCharCode(b);
    if (!has(byte)) throw new Error(`${label} is not a byte-level vocabulary: byte ${byteEscapes(byte)} has no token`);
  }
}

/** How many ids past its ranks a vocabulary's special tokens may take (Kimi K2 has 256; 65,536 is far past any real one). */
export const MAX_SPECIAL_IDS = 65_536;

/**
 * The special tokens of a tokenizer_config.json: its `added_tokens_decoder` ({"163584": {"content": "[BOS]", …}}).
 * Ids past the ranks that it leaves unnamed are `<|reserved_token_N|>`, as Kimi's tokenization_kimi.py names them.
 */
export function specialsFromConfig(config: unknown, label: string, firstSpecialId: number): Map<string, number> {
  const specials = new Map<string, number>();
  const decoder = (config as { added_tokens_decoder?: unknown } | null)?.added_tokens_decoder;
  if (decoder === undefined) return specials;
  if (typeof decoder !== 'object' || decoder === null || Array.isArray(decoder))
    throw new Error(`${label}: added_tokens_decoder is not an object of id → token`);
  let last = firstSpecialId - 1;
  for (const [key, entry] of Object.entries(decoder)) {
    const id = Number(key);
    const content = (entry as { content?: unknown } | null)?.content;
    if (!Number.isSafeInteger(id) || id < 0 || typeof content !== 'string' || content === '')
      throw new Error(`${label}: added_tokens_decoder entry "${key}" is not an id with a content string`);
    // Unnamed ids up to the last are filled in below: an id far past the ranks would fill millions.
    if (id >= firstSpecialId + MAX_SPECIAL_IDS)
      throw new Error(
        `${label}: added_tokens_decoder id ${id} is past the vocabulary (the ranks end at ${firstSpecialId - 1}; special tokens follow them within ${MAX_SPECIAL_IDS} ids)`,
      );
    specials.set(content, id);
    last = Math.max(last, id);
  }
  const named = new Set(specials.values());
  for (let id = firstSpecialId; id <= last; id++) if (!named.has(id)) specials.set(`<|reserved_token_${id}|>`, id);
  return specials;
}

/** A tiktoken BPE from the two files' contents. */
export function tiktokenTokenizer(
  name: string,
  model: { text: string; label: string },
  config: { json: unknown; label: string } | null,
  split: PieceSplitter,
): BytePairEncoder {
  const ranks = parseTiktokenRanks(model.text, model.label);
  let next = 0;
  for (const rank of ranks.values()) next = Math.max(next, rank + 1);
  const specials = config ? specialsFromConfig(config.json, config.label, next) : new Map<string, number>();
  return new BytePairEncoder(name, tiktokenModel(ranks), split, specials);
}
