/**
 * The markup of Seed-OSS completions (ByteDance-Seed/Seed-OSS-36B-Instruct): Qwen3-Coder's function and parameter
 * tags inside Seed's own call wrapper, reasoning in Seed's own think tags:
 *
 *   <seed:think>The user wants the weather.</seed:think>
 *   <seed:tool_call>
 *   <function=get_weather>
 *   <parameter=city>Paris</parameter>
 *   </function>
 *   </seed:tool_call>
 *
 * vLLM's seed_oss parser is its Qwen3 XML parser with these four wrapper strings swapped in (vllm/parser/seed_oss.py,
 * rust/src/parser/src/tool/seed_oss.rs @ 017e9f4448b700e85ee16023287b025693c72b9e); the wrapper and think tags are
 * added tokens of the vocabulary (`special: false`, so they survive skip_special_tokens), the inner tags text. A turn
 * ends with `<seed:eos>`.
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

export const TOOL_CALL_BEGIN = '<seed:tool_call>';
export const TOOL_CALL_END = '</seed:tool_call>';
export const THINK_BEGIN = '<seed:think>';
export const THINK_END = '</seed:think>';
export const FUNCTION_BEGIN = '<function=';
export const FUNCTION_END = '</function>';
export const PARAMETER_BEGIN = '<parameter=';
export const PARAMETER_END = '</parameter>';
export const EOS = '<seed:eos>';

/** Everything the parser recognises, by its role in the key/value kernel. */
export const SEED_OSS_SCAN_TABLE: readonly MarkerDef<KeyValueRole>[] = [
  { text: TOOL_CALL_BEGIN, name: 'call-begin' },
  { text: TOOL_CALL_END, name: 'call-end' },
  { text: FUNCTION_BEGIN, name: 'function-begin' },
  { text: FUNCTION_END, name: 'function-end' },
  { text: PARAMETER_BEGIN, name: 'parameter-begin' },
  { text: PARAMETER_END, name: 'parameter-end' },
  { text: THINK_BEGIN, name: 'think-begin' },
  { text: THINK_END, name: 'think-end' },
  { text: EOS, name: 'end-of-turn' },
];

/** The added tokens among them: the format's markers. */
export const SEED_OSS_TOKEN_MARKERS: readonly string[] = [TOOL_CALL_BEGIN, TOOL_CALL_END, THINK_BEGIN, THINK_END, EOS];
