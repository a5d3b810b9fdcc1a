/**
 * The Harmony response format of gpt-oss. A completion is a run of messages:
 *
 *   <|start|>assistant<|channel|>analysis<|message|>…reasoning…<|end|>
 *   <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>
 *   <|start|>assistant<|channel|>final<|message|>…answer…<|return|>
 *
 * The prompt ends with `<|start|>assistant`, so a completion usually starts at `<|channel|>`. The recipient
 * (`to=functions.NAME`) may also sit in the role part (`<|start|>assistant to=functions.NAME<|channel|>commentary json`).
 * Every marker is one special token of o200k_harmony.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';

export const START = '<|start|>';
export const END = '<|end|>';
export const MESSAGE = '<|message|>';
export const CHANNEL = '<|channel|>';
export const CONSTRAIN = '<|constrain|>';
export const RETURN = '<|return|>';
export const CALL = '<|call|>';

export type HarmonyMarkerName = 'start' | 'end' | 'message' | 'channel' | 'constrain' | 'return' | 'call';

export const HARMONY_MARKERS: readonly MarkerDef<HarmonyMarkerName>[] = [
  { text: START, name: 'start' },
  { text: END, name: 'end' },
  { text: MESSAGE, name: 'message' },
  { text: CHANNEL, name: 'channel' },
  { text: CONSTRAIN, name: 'constrain' },
  { text: RETURN, name: 'return' },
  { text: CALL, name: 'call' },
];

/** The recipient prefix of function tools; other recipients (`browser.search`, `python`) are built-in tools. */
export const FUNCTIONS_PREFIX = 'functions.';
