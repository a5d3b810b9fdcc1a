/**
 * The reference streaming parser for DeepSeek-V3.1 completions (`deepseek_v31`): the sectioned-call parser of the
 * kernel with DeepSeek's markers.
 *
 * Edges:
 * - the function name is the header between `<｜tool▁call▁begin｜>` and `<｜tool▁sep｜>`, trimmed; whitespace around
 *   it and the arguments is noted (vLLM keeps it in the name, so `"\nget_weather"` is an unknown tool there).
 * - arguments are kept as written (trimmed), invalid JSON included; multi-line JSON is fine here.
 * - calls without `<｜tool▁calls▁begin｜>` still parse (noted); a section never closed is noted; the end of the
 *   sentence inside a call ends it.
 * - text inside the section outside any call stays content (noted); text after the section stays content
 *   (vLLM's non-streaming parser drops it).
 * - `</think>` with no `<think>`: the template opened the think block; parse with `startInReasoning`.
 */
import { SectionedCallParser, type SectionedCallConfig } from '../kernel/sectionedCallParser.ts';
import type { ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { DEEPSEEK_V31_MARKERS } from './deepseekV31Markers.ts';

const DEEPSEEK_V31: SectionedCallConfig = {
  label: 'DeepSeekV31Parser',
  markers: DEEPSEEK_V31_MARKERS,
  // V3.1 writes the bare function name; the server invents the id.
  header: (text) => ({ id: '', name: text }),
  turnEndClosesCall: true,
  sectionBeginEndsThink: false,
  wording: {
    sectionNeverClosed: 'the tool-call section is never closed (no <｜tool▁calls▁end｜>)',
    textResumes: 'tool calls without <｜tool▁calls▁end｜>; text resumes here',
    callWithoutSectionBegin: 'a tool call without <｜tool▁calls▁begin｜>',
    sectionEndWithoutBegin: 'a section end without <｜tool▁calls▁begin｜>',
    secondSeparator: 'a second <｜tool▁sep｜> inside one call',
    newlineAfterCallBegin: 'a newline after <｜tool▁call▁begin｜>',
    whitespaceBeforeHeader: 'whitespace before the function name',
    whitespaceAfterHeader: 'whitespace after the function name',
    whitespaceAfterSeparator: 'whitespace after <｜tool▁sep｜>',
    whitespaceBeforeCallEnd: 'whitespace before <｜tool▁call▁end｜>',
    strayThinkEnd: '</think> without <think>',
  },
};

export class DeepSeekV31Parser extends SectionedCallParser {
  constructor(options: ParserOptions = {}) {
    super(DEEPSEEK_V31, options);
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseDeepSeekV31(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new DeepSeekV31Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
