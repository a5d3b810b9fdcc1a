/**
 * The markup of DeepSeek's DSML tool calls (DeepSeek-V3.2, V4, V4.1). The bars are FULLWIDTH VERTICAL LINE (U+FF5C).
 * A block of calls holds one `invoke` per call and one `parameter` per argument, each value written raw when its
 * `string` attribute is `true` and as JSON when it is `false`:
 *
 *   <｜DSML｜tool_calls>
 *   <｜DSML｜invoke name="get_weather">
 *   <｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
 *   <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
 *   </｜DSML｜invoke>
 *   </｜DSML｜tool_calls>
 *
 * The block is `function_calls` in V3.2 and `tool_calls` in V4; V4.1 spells every tag with a space after the second
 * bar and names the block ` calls` (`<｜DSML｜ calls>`, `<｜DSML｜ invoke name="…">`, `<｜DSML｜ parameter …>`: SGLang's
 * deepseekv41_detector.py and the release's encoding). Reasoning is `<think>` … `</think>` (the template opens the
 * block in the prompt, so a completion holds only `</think>`); the turn ends with `<｜end▁of▁sentence｜>`.
 */
import type { KeyValueRole } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';

const DSML = '｜DSML｜';
/** V4.1's spelling: a space after the second bar. */
const DSML_SPACED = '｜DSML｜ ';

export const V32_CALLS_BEGIN = `<${DSML}function_calls>`;
export const V32_CALLS_END = `</${DSML}function_calls>`;
export const V4_CALLS_BEGIN = `<${DSML}tool_calls>`;
export const V4_CALLS_END = `</${DSML}tool_calls>`;
export const V41_CALLS_BEGIN = `<${DSML_SPACED}calls>`;
export const V41_CALLS_END = `</${DSML_SPACED}calls>`;

/** The tags of one generation's spelling. */
export interface DsmlSpelling {
  readonly callsBegin: string;
  readonly callsEnd: string;
  /** The invoke tag up to its name (`<｜DSML｜invoke name="`). */
  readonly invokeBegin: string;
  readonly invokeEnd: string;
  /** The parameter tag up to its key (`<｜DSML｜parameter name="`). */
  readonly parameterBegin: string;
  readonly parameterEnd: string;
}

const unspaced = { invokeBegin: `<${DSML}invoke name="`, invokeEnd: `</${DSML}invoke>` };
const unspacedParameter = { parameterBegin: `<${DSML}parameter name="`, parameterEnd: `</${DSML}parameter>` };

export const V32_SPELLING: DsmlSpelling = { callsBegin: V32_CALLS_BEGIN, callsEnd: V32_CALLS_END, ...unspaced, ...unspacedParameter };
export const V4_SPELLING: DsmlSpelling = { callsBegin: V4_CALLS_BEGIN, callsEnd: V4_CALLS_END, ...unspaced, ...unspacedParameter };
export const V41_SPELLING: DsmlSpelling = {
  callsBegin: V41_CALLS_BEGIN,
  callsEnd: V41_CALLS_END,
  invokeBegin: `<${DSML_SPACED}invoke name="`,
  invokeEnd: `</${DSML_SPACED}invoke>`,
  parameterBegin: `<${DSML_SPACED}parameter name="`,
  parameterEnd: `</${DSML_SPACED}parameter>`,
};

export const END_OF_SENTENCE = '<｜end▁of▁sentence｜>';

/** Everything the parser recognises, by its role in the key/value kernel: every generation's spelling at once. */
export const DSML_SCAN_TABLE: readonly MarkerDef<KeyValueRole>[] = [
  ...[V32_SPELLING, V4_SPELLING, V41_SPELLING].flatMap((s): MarkerDef<KeyValueRole>[] => [
    { text: s.callsBegin, name: 'call-begin' },
    { text: s.callsEnd, name: 'call-end' },
  ]),
  ...[V4_SPELLING, V41_SPELLING].flatMap((s): MarkerDef<KeyValueRole>[] => [
    { text: s.invokeBegin, name: 'function-begin' },
    { text: s.invokeEnd, name: 'function-end' },
    { text: s.parameterBegin, name: 'parameter-begin' },
    { text: s.parameterEnd, name: 'parameter-end' },
  ]),
  { text: '<think>', name: 'think-begin' },
  { text: '</think>', name: 'think-end' },
  { text: END_OF_SENTENCE, name: 'end-of-turn' },
];

/** The tool-call tags: what must never reach a client as content (every generation's). */
export const DSML_TOOL_TAGS: readonly string[] = DSML_SCAN_TABLE.filter(
  (m) => m.name !== 'think-begin' && m.name !== 'think-end' && m.name !== 'end-of-turn',
).map((m) => m.text);

/** The format's markers: the tags above, shown as marker chips (the approximate splitter keeps each whole). */
export const DSML_MARKERS: readonly string[] = DSML_SCAN_TABLE.map((m) => m.text);
