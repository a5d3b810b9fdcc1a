/**
 * The markup of Tencent Hunyuan Hy3 completions. A section holds one or more calls, each a name ended by
 * `<tool_sep>`, then an `<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>` pair per argument:
 *
 *   <tool_calls>
 *   <tool_call>get_weather<tool_sep>
 *   <arg_key>city</arg_key>
 *   <arg_value>Beijing</arg_value>
 *   </tool_call>
 *   </tool_calls>
 *
 * The shipping checkpoints append one suffix to every such tag, the tokenizer_config.json's `token_suffix` (vLLM's
 * hy_v3 parser builds its tags from it): `<tool_calls:opensource>`, `<tool_sep:opensource>`, `<think:opensource>` …;
 * the bare forms are what vLLM's tests write. Both spellings are read (other suffixes are not: the parser has no
 * tokenizer to learn one from). The tags are added tokens of the vocabulary.
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

/** The suffix of the public checkpoints' tags (tencent/Hy3 tokenizer_config.json `token_suffix`). */
export const HY3_SUFFIX = ':opensource';

/** A tag's spelling with `suffix` (`<tool_sep>` → `<tool_sep:opensource>`). */
export const suffixed = (tag: string, suffix: string): string => `${tag.slice(0, -1)}${suffix}>`;

export const TOOL_CALLS_BEGIN = '<tool_calls>';
export const TOOL_CALLS_END = '</tool_calls>';
export const TOOL_CALL_BEGIN = '<tool_call>';
export const TOOL_CALL_END = '</tool_call>';
export const TOOL_SEP = '<tool_sep>';
export const ARG_KEY_BEGIN = '<arg_key>';
export const ARG_KEY_END = '</arg_key>';
export const ARG_VALUE_BEGIN = '<arg_value>';
export const ARG_VALUE_END = '</arg_value>';
export const THINK_BEGIN = '<think>';
export const THINK_END = '</think>';

const BARE: ReadonlyArray<MarkerDef<KeyValueRole>> = [
  { text: TOOL_CALLS_BEGIN, name: 'call-begin' },
  { text: TOOL_CALLS_END, name: 'call-end' },
  { text: TOOL_CALL_BEGIN, name: 'function-begin' },
  { text: TOOL_CALL_END, name: 'function-end' },
  { text: TOOL_SEP, name: 'name-end' },
  { text: ARG_KEY_BEGIN, name: 'parameter-begin' },
  { text: ARG_KEY_END, name: 'key-end' },
  { text: ARG_VALUE_BEGIN, name: 'value-begin' },
  { text: ARG_VALUE_END, name: 'parameter-end' },
  { text: THINK_BEGIN, name: 'think-begin' },
  { text: THINK_END, name: 'think-end' },
];

/** Everything the parser recognises, by its role in the key/value kernel: the suffixed spelling first. */
export const HY3_SCAN_TABLE: readonly MarkerDef<KeyValueRole>[] = [
  ...BARE.map((m) => ({ text: suffixed(m.text, HY3_SUFFIX), name: m.name })),
  ...BARE,
];

/** The tool-call tags in the suffixed spelling (the structural tag, the call writer, the sample). */
export const HY3_TAGS = {
  callsBegin: suffixed(TOOL_CALLS_BEGIN, HY3_SUFFIX),
  callsEnd: suffixed(TOOL_CALLS_END, HY3_SUFFIX),
  callBegin: suffixed(TOOL_CALL_BEGIN, HY3_SUFFIX),
  callEnd: suffixed(TOOL_CALL_END, HY3_SUFFIX),
  sep: suffixed(TOOL_SEP, HY3_SUFFIX),
  keyBegin: suffixed(ARG_KEY_BEGIN, HY3_SUFFIX),
  keyEnd: suffixed(ARG_KEY_END, HY3_SUFFIX),
  valueBegin: suffixed(ARG_VALUE_BEGIN, HY3_SUFFIX),
  valueEnd: suffixed(ARG_VALUE_END, HY3_SUFFIX),
} as const;

/** Every tag above is a single token of the vocabulary. */
export const HY3_TOKEN_MARKERS: readonly string[] = HY3_SCAN_TABLE.map((m) => m.text);
