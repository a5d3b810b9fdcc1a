/**
 * The markup of DeepSeek-V3.1 completions. The bars are FULLWIDTH VERTICAL LINE (U+FF5C) and the spaces
 * LOWER ONE EIGHTH BLOCK (U+2581); every marker is one special token of the DeepSeek-V3 vocabulary.
 *
 *   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
 *
 * V3.1 writes the bare function name before `<｜tool▁sep｜>` (V3 wrote `function<｜tool▁sep｜>name` and a ```json
 * block). In thinking mode the chat template opens `<think>` in the prompt, so the completion holds only `</think>`.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';
import type { SectionedMarkerName } from '../kernel/sectionedCallParser.ts';

export const CALLS_BEGIN = '<｜tool▁calls▁begin｜>';
export const CALLS_END = '<｜tool▁calls▁end｜>';
export const CALL_BEGIN = '<｜tool▁call▁begin｜>';
export const TOOL_SEP = '<｜tool▁sep｜>';
export const CALL_END = '<｜tool▁call▁end｜>';
export const END_OF_SENTENCE = '<｜end▁of▁sentence｜>';
export const THINK_BEGIN = '<think>';
export const THINK_END = '</think>';

/** DeepSeek's markers, by the role each plays in the sectioned-call family. */
export const DEEPSEEK_V31_MARKERS: readonly MarkerDef<SectionedMarkerName>[] = [
  { text: CALLS_BEGIN, name: 'section-begin' },
  { text: CALLS_END, name: 'section-end' },
  { text: CALL_BEGIN, name: 'call-begin' },
  { text: TOOL_SEP, name: 'argument-begin' },
  { text: CALL_END, name: 'call-end' },
  { text: THINK_BEGIN, name: 'think-begin' },
  { text: THINK_END, name: 'think-end' },
  { text: END_OF_SENTENCE, name: 'end-of-turn' },
];

/** The five tool-call markers: what must never reach a client as content. */
export const DEEPSEEK_TOOL_MARKER_TEXTS: readonly string[] = [CALLS_BEGIN, CALLS_END, CALL_BEGIN, TOOL_SEP, CALL_END];
