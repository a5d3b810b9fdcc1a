/**
 * Hy3's calls as the public checkpoints write them, suffixed tags (`:opensource`), one tag pair a line: the
 * `<tool_calls>` section, per call `<tool_call>NAME<tool_sep>` and an `<arg_key>`/`<arg_value>` pair per argument,
 * calls a line apart. A string value is the bare text, any other value its JSON.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { HY3_TAGS } from './hy3Markers.ts';

/** One argument as the model writes it. */
export function argumentText(key: string, value: unknown): string {
  const v = typeof value === 'string' ? value : JSON.stringify(value);
  return `${HY3_TAGS.keyBegin}${key}${HY3_TAGS.keyEnd}\n${HY3_TAGS.valueBegin}${v}${HY3_TAGS.valueEnd}\n`;
}

export const hy3CallWriter: FormatCallWriter = {
  lead: (content) => content,
  open: `${HY3_TAGS.callsBegin}\n`,
  separator: '\n',
  close: `\n${HY3_TAGS.callsEnd}`,
  head: (name) => `${HY3_TAGS.callBegin}${name}${HY3_TAGS.sep}\n`,
  member: argumentText,
  tail: HY3_TAGS.callEnd,
};
