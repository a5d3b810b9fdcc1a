/**
 * Seed-OSS's calls as its chat template writes them: `<seed:tool_call>`, `<function=NAME>`, one
 * `<parameter=KEY>VALUE</parameter>` line per argument (a string value bare, any other its JSON), `</function>`,
 * `</seed:tool_call>`, each on its own line.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { FUNCTION_BEGIN, FUNCTION_END, PARAMETER_BEGIN, PARAMETER_END, TOOL_CALL_BEGIN, TOOL_CALL_END } from './seedOssMarkers.ts';

/** One parameter as the model writes it. */
export function parameterText(key: string, value: unknown): string {
  return `${PARAMETER_BEGIN}${key}>${typeof value === 'string' ? value : JSON.stringify(value)}${PARAMETER_END}\n`;
}

export const seedOssCallWriter: FormatCallWriter = {
  lead: (content) => `${content}\n`,
  open: '',
  separator: '\n',
  close: '',
  head: (name) => `${TOOL_CALL_BEGIN}\n${FUNCTION_BEGIN}${name}>\n`,
  member: parameterText,
  tail: `${FUNCTION_END}\n${TOOL_CALL_END}`,
};
