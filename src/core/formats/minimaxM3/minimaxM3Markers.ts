/**
 * The markup of MiniMax-M3 completions (MiniMaxAI). Every tag is prefixed by the namespace token `]<]minimax[>[` (one
 * token of the vocabulary, id 200058: llama.cpp PR 24523's review); a block holds one or more invokes, each parameter
 * a tag named after its key, objects and arrays as child tags (vLLM rust/src/parser/src/tool/minimax_m3.rs @
 * 017e9f4448b700e85ee16023287b025693c72b9e):
 *
 *   ]<]minimax[>[<tool_call>
 *   ]<]minimax[>[<invoke name="get_weather">
 *   ]<]minimax[>[<city>Paris]<]minimax[>[</city>
 *   ]<]minimax[>[</invoke>
 *   ]<]minimax[>[</tool_call>
 *
 * Reasoning is `<mm:think>` … `</mm:think>` (vLLM vllm/reasoning/minimax_m3_reasoning_parser.py: both complete
 * vocabulary entries; the template may open it in the prompt).
 *
 * With the namespace token skipped by the decoder (or M3 run under an M2-style template, ik_llama.cpp PR 1963) the
 * block reads `<tool_call>` … `<invoke name="N">` … `</tool_call>`: the parser reads that spelling of the block and
 * invoke tags and M2's `<parameter name="K">V</parameter>` inside it; bare key tags (`<city>`) are text without their
 * token and are not read.
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

export const NAMESPACE = ']<]minimax[>[';
export const TOOL_CALL_BEGIN = `${NAMESPACE}<tool_call>`;
export const TOOL_CALL_END = `${NAMESPACE}</tool_call>`;
export const INVOKE_BEGIN = `${NAMESPACE}<invoke name=`;
export const INVOKE_END = `${NAMESPACE}</invoke>`;
/** A parameter's (or a child element's) opening tag: the key and `>` follow. */
export const ELEMENT_BEGIN = `${NAMESPACE}<`;
/** A closing tag: the name it closes and `>` follow. */
export const ELEMENT_END = `${NAMESPACE}</`;
export const THINK_BEGIN = '<mm:think>';
export const THINK_END = '</mm:think>';

/** The block and invoke tags with the namespace token skipped, and M2's parameter tags inside them. */
export const BARE = {
  toolCallBegin: '<tool_call>',
  toolCallEnd: '</tool_call>',
  invokeBegin: '<invoke name=',
  invokeEnd: '</invoke>',
  parameterBegin: '<parameter name=',
  parameterEnd: '</parameter>',
} as const;

/** Everything the parser recognises, by its role in the key/value kernel; a longer tag before its prefix. */
export const MINIMAX_M3_SCAN_TABLE: readonly MarkerDef<KeyValueRole>[] = [
  { text: TOOL_CALL_BEGIN, name: 'call-begin' },
  { text: TOOL_CALL_END, name: 'call-end' },
  { text: INVOKE_BEGIN, name: 'function-begin' },
  { text: INVOKE_END, name: 'function-end' },
  { text: ELEMENT_END, name: 'parameter-end' },
  { text: ELEMENT_BEGIN, name: 'parameter-begin' },
  { text: BARE.toolCallBegin, name: 'call-begin' },
  { text: BARE.toolCallEnd, name: 'call-end' },
  { text: BARE.invokeBegin, name: 'function-begin' },
  { text: BARE.invokeEnd, name: 'function-end' },
  { text: BARE.parameterBegin, name: 'parameter-begin' },
  { text: BARE.parameterEnd, name: 'parameter-end' },
  { text: THINK_BEGIN, name: 'think-begin' },
  { text: THINK_END, name: 'think-end' },
];

/** The tags that are tokens of the vocabulary the parse lists (the namespace token sits inside the tool tags). */
export const MINIMAX_M3_TOKEN_MARKERS: readonly string[] = [THINK_BEGIN, THINK_END];
