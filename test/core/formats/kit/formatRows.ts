/**
 * One row per registered format for the table-driven suite (formatSuite.test.ts): its fixtures (the split property
 * runs over each, once as written and once per variant of the options merged in) and a state sequence (each piece
 * pushed, the parser's state after it). A new format adds its row here; the suite fails for a format without one.
 */
import type { ParserOptions, ParserState } from '../../../../src/core/formats/toolCallFormat.ts';
import { DEEPSEEK_V31_FIXTURES } from '../../../fixtures/deepseekV31Completions.ts';
import { GLM_FIXTURES } from '../../../fixtures/glm/glmCompletions.ts';
import { HARMONY_FIXTURES } from '../../../fixtures/harmonyCompletions.ts';
import { HERMES_FIXTURES } from '../../../fixtures/hermesCompletions.ts';
import { KIMI_FIXTURES } from '../../../fixtures/kimiK2Completions.ts';
import { KIMI_K3_FIXTURES, KIMI_K3_TOOLS } from '../../../fixtures/kimiK3/kimiK3Completions.ts';
import { LLAMA_FIXTURES } from '../../../fixtures/llamaCompletions.ts';
import { QWEN3_CODER_FIXTURES, QWEN3_CODER_TOOLS } from '../../../fixtures/qwen3CoderCompletions.ts';
import { SEED_OSS_FIXTURES, SEED_OSS_TOOLS } from '../../../fixtures/seedOss/seedOssCompletions.ts';

export interface FormatRow {
  readonly fixtures: ReadonlyArray<{ readonly name: string; readonly text: string; readonly options?: ParserOptions }>;
  /** Options merged into every fixture's for a second run each (starting in reasoning, no tools…). */
  readonly variants: readonly ParserOptions[];
  readonly stateOptions: ParserOptions | undefined;
  readonly states: ReadonlyArray<readonly [string, ParserState]>;
}

export const FORMAT_ROWS: Readonly<Record<string, FormatRow>> = {
  deepseek_v31: {
    fixtures: DEEPSEEK_V31_FIXTURES,
    variants: [{ startInReasoning: true }],
    stateOptions: { startInReasoning: true },
    states: [
      ['hm', 'reasoning'],
      ['</think>', 'content'],
      ['Hi ', 'content'],
      ['<｜tool▁calls▁begin｜>', 'section'],
      ['<｜tool▁call▁begin｜>', 'call-id'],
      ['f', 'call-id'],
      ['<｜tool▁sep｜>', 'call-arguments'],
      ['{}', 'call-arguments'],
      ['<｜tool▁call▁end｜>', 'section'],
      ['<｜tool▁calls▁end｜>', 'content'],
    ],
  },
  harmony: {
    fixtures: HARMONY_FIXTURES,
    variants: [],
    stateOptions: undefined,
    states: [
      ['<|channel|>', 'section'],
      ['analysis', 'section'],
      ['<|message|>', 'reasoning'],
      ['Hmm.', 'reasoning'],
      ['<|end|>', 'section'],
      ['<|start|>', 'section'],
      ['assistant', 'section'],
      ['<|channel|>', 'section'],
      ['commentary', 'section'],
      [' to', 'section'],
      ['=functions', 'call-id'],
      ['.f', 'call-id'],
      [' ', 'call-id'],
      ['<|constrain|>', 'call-id'],
      ['json', 'call-id'],
      ['<|message|>', 'call-arguments'],
      ['{}', 'call-arguments'],
      ['<|call|>', 'section'],
    ],
  },
  hermes: {
    fixtures: HERMES_FIXTURES,
    variants: [{ startInReasoning: true }],
    stateOptions: undefined,
    states: [
      ['Hi ', 'content'],
      ['<think>', 'reasoning'],
      ['x', 'reasoning'],
      ['</think>', 'content'],
      ['<tool_call>', 'call-id'],
      ['{"name": "f", ', 'call-id'],
      ['"arguments": {', 'call-arguments'],
      ['"a": 1}', 'call-id'],
      ['}', 'section'],
      ['\n', 'section'],
      ['</tool_call>', 'content'],
      ['bye', 'content'],
    ],
  },
  llama: {
    fixtures: LLAMA_FIXTURES,
    variants: [],
    stateOptions: undefined,
    states: [
      ['Hi ', 'content'],
      ['<|python_tag|>', 'section'],
      ['{"name": "f", ', 'call-id'],
      ['"parameters": {', 'call-arguments'],
      ['"a": 1}', 'call-id'],
      ['}', 'section'],
      ['; ', 'section'],
      ['{"name": "g"', 'call-id'],
      [', "parameters": {}}', 'section'],
      [' bye', 'content'],
      ['<|eom_id|>', 'content'],
    ],
  },
  kimi_k2: {
    fixtures: KIMI_FIXTURES,
    variants: [{ recoverRawFallback: true }],
    stateOptions: undefined,
    states: [
      ['Hi ', 'content'],
      ['<|tool_calls_section_begin|>', 'section'],
      ['<|tool_call_begin|>', 'call-id'],
      ['functions.f:0', 'call-id'],
      ['<|tool_call_argument_begin|>', 'call-arguments'],
      ['{}', 'call-arguments'],
      ['<|tool_call_end|>', 'section'],
      ['<|tool_calls_section_end|>', 'content'],
      ['<think>', 'reasoning'],
      ['x', 'reasoning'],
      ['</think>', 'content'],
    ],
  },
  qwen3_coder: {
    fixtures: QWEN3_CODER_FIXTURES,
    variants: [{ tools: [] }, { startInReasoning: true }],
    stateOptions: { tools: QWEN3_CODER_TOOLS },
    states: [
      ['Hi ', 'content'],
      ['<tool_call>', 'section'],
      ['\n', 'section'],
      ['<function=', 'call-id'],
      ['get_weather', 'call-id'],
      ['>', 'call-arguments'],
      ['\n<parameter=city>', 'call-arguments'],
      ['\nParis\n', 'call-arguments'],
      ['</parameter>', 'call-arguments'],
      ['\n', 'call-arguments'],
      ['</function>', 'section'],
      ['\n', 'section'],
      ['</tool_call>', 'content'],
      ['bye', 'content'],
    ],
  },
  glm: {
    fixtures: GLM_FIXTURES,
    variants: [{ tools: [] }, { startInReasoning: true }],
    stateOptions: undefined,
    states: [
      ['Hi ', 'content'],
      ['<think>', 'reasoning'],
      ['x', 'reasoning'],
      ['</think>', 'content'],
      ['<tool_call>', 'call-id'],
      ['get_weather', 'call-id'],
      ['\n', 'call-arguments'],
      ['<arg_key>', 'call-arguments'],
      ['city</arg_key>\n<arg_value>', 'call-arguments'],
      ['Paris', 'call-arguments'],
      ['</arg_value>\n', 'call-arguments'],
      ['</tool_call>', 'content'],
      ['<tool_call>get_current_date', 'call-id'],
      ['</tool_call>', 'content'],
      ['bye', 'content'],
    ],
  },
  seed_oss: {
    fixtures: SEED_OSS_FIXTURES,
    variants: [{ tools: [] }, { startInReasoning: true }],
    stateOptions: { tools: SEED_OSS_TOOLS },
    states: [
      ['Hi ', 'content'],
      ['<seed:think>', 'reasoning'],
      ['x', 'reasoning'],
      ['</seed:think>', 'content'],
      ['<seed:tool_call>', 'section'],
      ['\n', 'section'],
      ['<function=', 'call-id'],
      ['get_weather', 'call-id'],
      ['>', 'call-arguments'],
      ['\n<parameter=city>', 'call-arguments'],
      ['Paris', 'call-arguments'],
      ['</parameter>', 'call-arguments'],
      ['\n', 'call-arguments'],
      ['</function>', 'section'],
      ['\n', 'section'],
      ['</seed:tool_call>', 'content'],
      ['bye', 'content'],
    ],
  },
  kimi_k3: {
    fixtures: KIMI_K3_FIXTURES,
    variants: [{ tools: [] }, { startInReasoning: true }],
    stateOptions: { tools: KIMI_K3_TOOLS, startInReasoning: true },
    states: [
      ['hm', 'reasoning'],
      ['<|close|>think<|sep|>', 'content'],
      ['<|open|>response<|sep|>', 'content'],
      ['Hi', 'content'],
      ['<|close|>response<|sep|>', 'content'],
      ['<|open|>tools<|sep|>', 'section'],
      ['<|open|>call', 'call-id'],
      [' tool="calc" index="1"', 'call-id'],
      ['<|sep|>', 'call-arguments'],
      ['<|open|>argument key="x" type="number"', 'call-arguments'],
      ['<|sep|>1', 'call-arguments'],
      ['<|close|>argument<|sep|>', 'call-arguments'],
      ['<|close|>call<|sep|>', 'section'],
      ['<|close|>tools<|sep|>', 'content'],
      ['<|close|>message<|sep|>', 'content'],
    ],
  },
};
