/**
 * The markup of Mistral completions (Mistral Small/Large, Devstral, Magistral, Ministral; mistral-common tokenizers).
 * Every marker is a control token of the Tekken vocabulary (mistral-common src/mistral_common/tokens/tokenizers/base.py,
 * `SpecialTokens`):
 *
 *   v11+ (Mistral Small 3.2, Devstral, Magistral): one `[TOOL_CALLS]` per call, the name, optionally `[CALL_ID]` and a
 *   9-character id, `[ARGS]` and the arguments' JSON object; calls follow each other with no closer:
 *   [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}
 *
 *   pre-v11 (Mistral 7B v0.3, Nemo, Small 3.1): `[TOOL_CALLS]` and a JSON list of `{"name", "arguments"}` objects:
 *   [TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]
 *
 * Reasoning (v13+, Magistral 2509+) is `[THINK]`…`[/THINK]`; the turn ends with `</s>`.
 */
import type { MarkerDef } from '../kernel/markupParser.ts';

export type MistralRole = 'call-begin' | 'call-id' | 'args' | 'think-begin' | 'think-end' | 'end-of-turn';

export const TOOL_CALLS = '[TOOL_CALLS]';
export const ARGS = '[ARGS]';
export const CALL_ID = '[CALL_ID]';
export const THINK_BEGIN = '[THINK]';
export const THINK_END = '[/THINK]';
export const EOS = '</s>';

export const MISTRAL_SCAN_TABLE: readonly MarkerDef<MistralRole>[] = [
  { text: TOOL_CALLS, name: 'call-begin' },
  { text: CALL_ID, name: 'call-id' },
  { text: ARGS, name: 'args' },
  { text: THINK_BEGIN, name: 'think-begin' },
  { text: THINK_END, name: 'think-end' },
  { text: EOS, name: 'end-of-turn' },
];

export const MISTRAL_TOKEN_MARKERS: readonly string[] = MISTRAL_SCAN_TABLE.map((m) => m.text);
