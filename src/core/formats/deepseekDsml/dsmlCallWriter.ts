/**
 * DSML calls as DeepSeek-V4 writes them (its encoding's `tool_calls_template` and `encode_arguments_to_dsml`): the
 * content, a blank line, `<｜DSML｜tool_calls>`, one invoke per call with one parameter per line (a string value raw with
 * `string="true"`, any other value its JSON with `string="false"`), `</｜DSML｜tool_calls>`. The layout is the one
 * xgrammar's `deepseek_v4` tag writes, so a call written here goes through that grammar as it stands.
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { V4_SPELLING, type DsmlSpelling } from './dsmlMarkers.ts';

/** One argument as the model writes it. */
export function dsmlArgument(key: string, value: unknown, spelling: DsmlSpelling = V4_SPELLING): string {
  const raw = typeof value === 'string';
  return `${spelling.parameterBegin}${key}" string="${raw}">${raw ? value : JSON.stringify(value)}${spelling.parameterEnd}\n`;
}

/** The writer of one generation's spelling. */
export function dsmlCallWriter(spelling: DsmlSpelling): FormatCallWriter {
  return {
    lead: (content) => `${content}\n\n`,
    open: `${spelling.callsBegin}\n`,
    separator: '',
    close: spelling.callsEnd,
    head: (name) => `${spelling.invokeBegin}${name}">\n`,
    member: (key, value) => dsmlArgument(key, value, spelling),
    tail: `${spelling.invokeEnd}\n`,
  };
}

export const deepseekDsmlCallWriter: FormatCallWriter = dsmlCallWriter(V4_SPELLING);
