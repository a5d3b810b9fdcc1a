/**
 * gpt-oss's calls as the model writes them: what it says first goes to the analysis channel (gpt-oss reasons before
 * it calls), then each call is a commentary message addressed `to=functions.NAME`, constrained to JSON, ending in
 * `<|call|>`; messages are joined by `<|start|>assistant`. The header has no space before `<|constrain|>`: the one
 * header spelling xgrammar's `harmony` tag and the chat template agree on (docs/guided-decoding.md).
 */
import type { FormatCallWriter } from '../callWriter.ts';
import { CALL, CHANNEL, CONSTRAIN, END, MESSAGE, START } from './harmonyMarkers.ts';

const NEXT_MESSAGE = `${START}assistant`;

export const harmonyCallWriter: FormatCallWriter = {
  lead: (content) => `${CHANNEL}analysis${MESSAGE}${content}${END}${NEXT_MESSAGE}`,
  open: '',
  separator: NEXT_MESSAGE,
  close: '',
  head: (name) => `${CHANNEL}commentary to=functions.${name}${CONSTRAIN}json${MESSAGE}`,
  tail: CALL,
};
