/**
 * The markup of Llama 3.1–3.3 and Llama 4 JSON tool calls: a call is a JSON object `{"name": …, "parameters": {…}}`
 * (some templates say `arguments`), written bare at the start of the answer or after `<|python_tag|>` (Llama 3.x),
 * several separated by `;`. The turn ends with `<|eot_id|>`, or `<|eom_id|>` when the model waits for a tool's
 * result (Llama 4: `<|eot|>`, `<|eom|>`). All of these are single special tokens in the Llama vocabularies; the
 * JSON itself is plain text, so only `<|python_tag|>` marks a call. Llama 4 may wrap its JSON call in
 * `<|python_start|>` … `<|python_end|>` (special tokens 200016 and 200017 of its vocabulary, meta-llama/llama-models
 * models/llama4/tokenizer.py @ 70f7766104338f129bbb84f71c963a5b22011e7c); the same markers around a pythonic list are
 * the pythonic format's (vLLM `llama4_pythonic`).
 */
import type { MarkerDef } from '../kernel/markupParser.ts';

export const PYTHON_TAG = '<|python_tag|>';
export const PYTHON_START = '<|python_start|>';
export const PYTHON_END = '<|python_end|>';
export const EOT_ID = '<|eot_id|>';
export const EOM_ID = '<|eom_id|>';
export const EOT = '<|eot|>';
export const EOM = '<|eom|>';
export const END_OF_TEXT = '<|end_of_text|>';

export type LlamaMarkerName = 'call-begin' | 'call-end' | 'end-of-turn';

export const LLAMA_MARKERS: readonly MarkerDef<LlamaMarkerName>[] = [
  { text: PYTHON_TAG, name: 'call-begin' },
  { text: PYTHON_START, name: 'call-begin' },
  { text: PYTHON_END, name: 'call-end' },
  { text: EOT_ID, name: 'end-of-turn' },
  { text: EOM_ID, name: 'end-of-turn' },
  { text: EOT, name: 'end-of-turn' },
  { text: EOM, name: 'end-of-turn' },
  { text: END_OF_TEXT, name: 'end-of-turn' },
];

/** The keys of the call object that carry the arguments: Meta's templates write `parameters`, vLLM's `arguments` too. */
export const ARGUMENT_KEYS: readonly string[] = ['parameters', 'arguments'];

/** Calls in a row are separated by `;` (Llama 3.x); vLLM's parser also reads them back to back. */
export const CALL_SEPARATOR = ';';
