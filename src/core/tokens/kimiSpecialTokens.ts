/**
 * The named special tokens of the Kimi K2 vocabulary with their real ids (from the model's tokenizer config).
 * `<think>`/`</think>` are single tokens in the K2-Thinking/K2.5 vocabularies and reserved slots in K2-Instruct:
 * treated as special either way. Reserved `<|reserved_token_N|>` slots are recognised by pattern.
 */
export const KIMI_SPECIAL_TOKENS: ReadonlyArray<readonly [string, number]> = [
  ['[BOS]', 163584],
  ['[EOS]', 163585],
  ['<|im_end|>', 163586],
  ['<|im_user|>', 163587],
  ['<|im_assistant|>', 163588],
  ['<|start_header_id|>', 163590],
  ['<|end_header_id|>', 163591],
  ['[EOT]', 163593],
  ['<|im_system|>', 163594],
  ['<|tool_calls_section_begin|>', 163595],
  ['<|tool_calls_section_end|>', 163596],
  ['<|tool_call_begin|>', 163597],
  ['<|tool_call_argument_begin|>', 163598],
  ['<|tool_call_end|>', 163599],
  ['<|im_middle|>', 163601],
  ['<think>', 163606],
  ['</think>', 163607],
];

/** Marker spellings models emit that are NOT single tokens (they arrive as several text tokens). */
export const KIMI_NON_TOKEN_MARKERS: readonly string[] = ['<|tool_call_section_begin|>', '<|tool_call_section_end|>'];

export const FIRST_SPECIAL_ID = 163584;
export const LAST_SPECIAL_ID = 163839;

const byText = new Map<string, number>(KIMI_SPECIAL_TOKENS);
const byId = new Map<number, string>(KIMI_SPECIAL_TOKENS.map(([t, id]) => [id, t]));
const RESERVED = /^<\|reserved_token_(\d+)\|>$/u;

export function specialTokenId(text: string): number | undefined {
  const id = byText.get(text);
  if (id !== undefined) return id;
  const m = RESERVED.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n >= FIRST_SPECIAL_ID && n <= LAST_SPECIAL_ID && !byId.has(n) ? n : undefined;
}

export function specialTokenText(id: number): string | undefined {
  const text = byId.get(id);
  if (text !== undefined) return text;
  return id >= FIRST_SPECIAL_ID && id <= LAST_SPECIAL_ID ? `<|reserved_token_${id}|>` : undefined;
}

export function isSpecialTokenId(id: number): boolean {
  return id >= FIRST_SPECIAL_ID && id <= LAST_SPECIAL_ID;
}

/** Longest special token text, to bound look-ahead when scanning text. */
export const MAX_SPECIAL_LENGTH = Math.max(...KIMI_SPECIAL_TOKENS.map(([t]) => t.length), '<|reserved_token_163839|>'.length);
