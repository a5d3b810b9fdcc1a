/**
 * Small tokenizer files the loader tests build in a temporary folder: a tiktoken.model with its
 * tokenizer_config.json (Kimi K2's layout), a byte-level tokenizer.json, and a GGUF header. One vocabulary of 256
 * bytes plus a handful of merges, so expected ids can be worked out by hand.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `toolscope-${name}-`));
}

// ---- tiktoken.model -------------------------------------------------------------------------------------------

/** Ranks after the 256 bytes (a rank is the token's id). */
export const TIKTOKEN_MERGES = ['he', 'll', 'hell', 'hello', ' w', 'or', ' wor', 'ld', ' world', '{"', '":'];
export const FIRST_SPECIAL = 256 + TIKTOKEN_MERGES.length;

/** A Kimi-style model folder: tiktoken.model and tokenizer_config.json naming the markers (one id left unnamed). */
export function writeKimiFolder(dir: string, options: { corruptLine?: number } = {}): string {
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (let b = 0; b < 256; b++) lines.push(`${Buffer.from([b]).toString('base64')} ${b}`);
  TIKTOKEN_MERGES.forEach((m, i) => lines.push(`${Buffer.from(m, 'latin1').toString('base64')} ${256 + i}`));
  if (options.corruptLine !== undefined) lines[options.corruptLine - 1] = 'this is not a rank';
  writeFileSync(join(dir, 'tiktoken.model'), lines.join('\n') + '\n');
  const names = [
    '[BOS]',
    '<|tool_calls_section_begin|>',
    '<|tool_call_begin|>',
    '<|tool_call_argument_begin|>',
    '<|tool_call_end|>',
    '<|tool_calls_section_end|>',
  ];
  const decoder: Record<string, { content: string; special: boolean }> = {};
  names.forEach((content, i) => (decoder[String(FIRST_SPECIAL + i)] = { content, special: true }));
  // FIRST_SPECIAL + 6 stays unnamed: it is <|reserved_token_N|>.
  decoder[String(FIRST_SPECIAL + 7)] = { content: '[EOS]', special: true };
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({ added_tokens_decoder: decoder, tokenizer_class: 'TikTokenTokenizer' }),
  );
  return dir;
}

// ---- byte-level BPE (tokenizer.json and GGUF) ----------------------------------------------------------------

/** GPT-2's byte-level alphabet: the character each byte is spelled with. */
export function byteAlphabet(): string[] {
  const printable = (b: number): boolean => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const out: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) out.push(printable(b) ? String.fromCharCode(b) : String.fromCharCode(256 + extra++));
  return out;
}

export const BPE_MERGES: Array<[string, string]> = [
  ['Ġ', 't'],
  ['h', 'e'],
  ['Ġt', 'he'],
  ['Ġ', 'a'],
  ['o', 'k'],
];
/** Ids: 0–255 the bytes (in alphabet order), then one per merge, then the added tokens. */
export const ADDED = { imEnd: 256 + BPE_MERGES.length, toolCall: 256 + BPE_MERGES.length + 1, toolCallEnd: 256 + BPE_MERGES.length + 2 };
const QWEN2_REGEX =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** A Qwen-style tokenizer.json; `markersAdded: false` leaves `<tool_call>` out of the added tokens. */
export function writeTokenizerJson(dir: string, options: { markersAdded?: boolean } = {}): string {
  mkdirSync(dir, { recursive: true });
  const vocab: Record<string, number> = {};
  byteAlphabet().forEach((c, i) => (vocab[c] = i));
  BPE_MERGES.forEach(([a, b], i) => (vocab[a + b] = 256 + i));
  const added = (id: number, content: string, special: boolean) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special,
  });
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      added(ADDED.imEnd, '<|im_end|>', true),
      ...(options.markersAdded === false
        ? []
        : [added(ADDED.toolCall, '<tool_call>', false), added(ADDED.toolCallEnd, '</tool_call>', false)]),
    ],
    normalizer: null,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: QWEN2_REGEX }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
      ],
    },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: BPE_MERGES.map(([a, b]) => `${a} ${b}`),
    },
  };
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 32768 }));
  return dir;
}

// ---- GGUF -----------------------------------------------------------------------------------------------------

type KV = [key: string, value: string | number | string[] | number[]];

/** A GGUF file holding only metadata (no tensors): the same vocabulary as the tokenizer.json, llama.cpp's way. */
export function writeGguf(
  path: string,
  options: { pre?: string; truncateAt?: number; model?: string; extraMerges?: string[] } = {},
): string {
  const tokens = [...byteAlphabet(), ...BPE_MERGES.map(([a, b]) => a + b), '<|im_end|>', '<tool_call>', '</tool_call>'];
  const types = tokens.map((_, id) => (id === ADDED.imEnd ? 3 : id > ADDED.imEnd ? 4 : 1));
  const kvs: KV[] = [
    ['general.architecture', 'qwen2'],
    ['general.name', 'Tiny Qwen'],
    ['qwen2.context_length', 32768],
    ['tokenizer.ggml.model', options.model ?? 'gpt2'],
    ['tokenizer.ggml.pre', options.pre ?? 'qwen2'],
    ['tokenizer.ggml.tokens', tokens],
    ['tokenizer.ggml.token_type', types],
    ['tokenizer.ggml.merges', [...BPE_MERGES.map(([a, b]) => `${a} ${b}`), ...(options.extraMerges ?? [])]],
  ];
  const parts: Buffer[] = [Buffer.from('GGUF', 'latin1'), u32(3), u64(0), u64(kvs.length)];
  for (const [key, value] of kvs) {
    parts.push(str(key));
    if (typeof value === 'string') parts.push(u32(8), str(value));
    else if (typeof value === 'number') parts.push(u32(4), u32(value));
    else if (typeof value[0] === 'string') parts.push(u32(9), u32(8), u64(value.length), ...(value as string[]).map(str));
    else parts.push(u32(9), u32(5), u64(value.length), ...(value as number[]).map(i32));
  }
  let bytes = Buffer.concat(parts);
  if (options.truncateAt !== undefined) bytes = bytes.subarray(0, options.truncateAt);
  writeFileSync(path, bytes);
  return path;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
function i32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
}
function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}
function str(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([u64(bytes.length), bytes]);
}
