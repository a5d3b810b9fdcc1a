/**
 * A tokenizer from a GGUF header's `tokenizer.ggml.*` metadata: the byte-level BPE (`tokenizer.ggml.model` "gpt2")
 * that Kimi K2, gpt-oss, Qwen and DeepSeek builds use: its tokens, merges and control tokens. GGUF names the
 * pre-tokenizer (`tokenizer.ggml.pre`) but does not hold its pattern: the format supplies the ones it knows, and any
 * other name is an error that says so (the caller then falls back to the approximate splitter).
 */
import { BytePairEncoder, type BpeModel, type PieceSplitter } from './bytePairEncoder.ts';
import { byteLevelBytes } from './byteLevel.ts';
import { assertByteLevel } from './tiktokenFile.ts';

// llama.cpp's token types: 3 control (`<|im_end|>`), 4 user-defined (added tokens such as `<tool_call>`).
const CONTROL = 3;
const USER_DEFINED = 4;

/** A value of a GGUF header's metadata (src/io/tokens/ggufHeader.ts reads them from the file). */
export type GgufValue = number | bigint | boolean | string | GgufValue[];

export function tokenizerFromMetadata(
  metadata: ReadonlyMap<string, GgufValue>,
  label: string,
  name: string,
  splitters: Readonly<Record<string, PieceSplitter>> | undefined,
): BytePairEncoder {
  const model = metadata.get('tokenizer.ggml.model');
  if (model === undefined) throw new Error(`${label} holds no tokenizer (no tokenizer.ggml.model in its header)`);
  if (model !== 'gpt2')
    throw new Error(`${label}: tokenizer.ggml.model "${String(model)}" is not read by Toolscope (byte-level BPE, "gpt2", is)`);
  const pre = metadata.get('tokenizer.ggml.pre');
  const known = Object.keys(splitters ?? {});
  const split = typeof pre === 'string' ? splitters?.[pre] : undefined;
  if (!split) {
    throw new Error(
      `${label}: its pre-tokenizer "${String(pre ?? 'none')}" is not one Toolscope knows for this format${known.length ? ` (it knows ${known.map((k) => `"${k}"`).join(', ')})` : ''}`,
    );
  }
  const tokens = stringArray(metadata.get('tokenizer.ggml.tokens'), 'tokenizer.ggml.tokens', label);
  const merges = stringArray(metadata.get('tokenizer.ggml.merges'), 'tokenizer.ggml.merges', label);
  const types = metadata.get('tokenizer.ggml.token_type');
  const typeOf = (id: number): number => (Array.isArray(types) && typeof types[id] === 'number' ? (types[id] as number) : 1);

  const ids = new Map<string, number>();
  const specials = new Map<string, number>();
  tokens.forEach((token, id) => {
    const type = typeOf(id);
    if (type === CONTROL || type === USER_DEFINED) {
      specials.set(token, id);
      return;
    }
    const bytes = byteLevelBytes(token);
    if (bytes !== null && !ids.has(bytes)) ids.set(bytes, id);
  });
  assertByteLevel(label, (b) => ids.has(b));
  const ranks = new Map<string, number>();
  merges.forEach((merge, rank) => {
    const space = merge.indexOf(' ');
    const left = space > 0 ? byteLevelBytes(merge.slice(0, space)) : null;
    const right = space > 0 ? byteLevelBytes(merge.slice(space + 1)) : null;
    if (left === null || right === null)
      throw new Error(`${label}: merge ${rank} ${JSON.stringify(merge.slice(0, 40))} is not two byte-level tokens`);
    // What a merge makes must be a token, or a piece would merge into bytes without an id (the record was lost).
    if (!ids.has(left + right))
      throw new Error(`${label}: merge ${rank} ${JSON.stringify(merge.slice(0, 40))} makes a string that is not in its vocabulary`);
    // The first rank wins, as in a merges list read top down.
    const key = `${left}\u0000${right}`;
    if (!ranks.has(key)) ranks.set(key, rank);
  });
  const bpe: BpeModel = { mergeRank: (l, r) => ranks.get(`${l}\u0000${r}`), idOf: (b) => ids.get(b), wholePieceFirst: false };
  return new BytePairEncoder(name, bpe, split, specials);
}

function stringArray(value: GgufValue | undefined, key: string, label: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new Error(`${label}: ${key} is missing or not a list of strings`);
  return value as string[];
}
