/**
 * Pythonic tool calls — `[get_weather(city="Paris"), get_time()]` — as a `ToolCallFormat`: vLLM's `pythonic`
 * (Llama 3.2, ToolACE), `llama4_pythonic` (Llama 4 with `<|python_start|>`) and `olmo3` (Olmo 3's
 * `<function_calls>`) parsers, SGLang's `pythonic` detector. Arguments are Python literals, turned into JSON by the
 * one pythonic reader (kernel/pythonCallReader.ts); what cannot be turned is reported, never guessed.
 *
 * No guided what-if: neither xgrammar's built-in structural tags nor vLLM's own registry
 * (vllm/tool_parsers/structural_tag_registry.py @ 017e9f4448b700e85ee16023287b025693c72b9e) has one for pythonic
 * calls. SGLang's detector still builds an EBNF (pythonic_detector.py `build_ebnf` @ bb49b03), but SGLang no longer
 * applies it: `get_structure_constraint` (function_call_parser.py @ ce2b312 and @ 00828e5) gives required and named
 * tool_choice a JSON-array schema instead (PR 10550 replaced PR 6550's EBNF), and the detector has no structural tag.
 * A grammar no engine applies is not the what-if's (docs/formats/pythonic.md).
 */
import { MarkerSplitter } from '../../tokens/markerSplitter.ts';
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { pythonicCallWriter } from './pythonicCallWriter.ts';
import { FUNCTION_CALLS, FUNCTION_CALLS_END, PYTHON_END, PYTHON_START, PYTHONIC_MARKERS } from './pythonicMarkers.ts';
import { PythonicParser } from './pythonicParser.ts';

/** A call's name then `(`: how the body of a pythonic block begins (a list's `[` first for the list forms). */
const CALL_START = /^\s*[A-Za-z_][\w.]*\s*\(/u;
const LIST_START = /^\s*\[\s*[A-Za-z_][\w.]*\s*\(/u;

export const pythonicFormat: ToolCallFormat = {
  name: 'pythonic',
  displayName: 'Pythonic (Llama 3.2 / 4, Olmo 3)',
  markupSketch:
    '[get_weather(city="Paris"), get_time()] (Llama 4: inside <|python_start|>…<|python_end|>; Olmo 3: <function_calls>, one call a line)',
  markers: PYTHONIC_MARKERS,
  leakFragments: [PYTHON_START, PYTHON_END, FUNCTION_CALLS, FUNCTION_CALLS_END],
  // `<|python_start|>` Llama 4 also writes before its JSON calls (the llama format): a pythonic block holds a list.
  leakSignature: {
    openers: [PYTHON_START, FUNCTION_CALLS],
    closers: [PYTHON_END, FUNCTION_CALLS_END],
    body: /^\s*\[?\s*[A-Za-z_][\w.]*\s*\(/u,
  },
  unmarkedShape: 'pythonic',
  // No callIds: the model writes no ids; the server invents them.
  // Olmo 3 (its instruct and think models), ToolACE; not Llama 4, which writes JSON too (the markup decides).
  models: /olmo-?3|toolace/iu,
  // vLLM `pythonic`, `llama4_pythonic`, `olmo3`; SGLang `pythonic`.
  parserNames: ['pythonic', 'llama4_pythonic', 'olmo3'],
  engineNotes: {
    callInThink:
      "vLLM's and SGLang's reasoning parsers keep everything before </think> as reasoning; the pythonic tool parser never sees a call written there",
  },
  callWriter: pythonicCallWriter,
  noEngineGrammar:
    "no structural tag for pythonic calls among xgrammar's built-ins or in vLLM's registry, structural_tag_registry.py @ 017e9f44; SGLang's pythonic build_ebnf is no longer applied (function_call_parser.py @ 00828e5 constrains required/named tool_choice with a JSON-array schema): docs/formats/pythonic.md",
  // No special-token table: the family spans vocabularies (Llama 3.2, Llama 4, Olmo 3); Llama 4's ids of its two
  // markers are named in pythonicMarkers.ts, but one table cannot serve the other models' records.
  tokenizer: { approximate: () => new MarkerSplitter(pythonicFormat) },
  // A list of calls opening the text, or one inside Llama 4's or Olmo 3's block.
  detect(text: string): boolean {
    const at = text.search(/\S/u);
    // A list opening with a call (read or cut off: `[name(` is no prose's way to start an answer).
    if (at >= 0 && text[at] === '[' && LIST_START.test(text.slice(at, at + 200))) return true;
    const py = text.indexOf(PYTHON_START);
    if (py >= 0 && LIST_START.test(text.slice(py + PYTHON_START.length, py + PYTHON_START.length + 200))) return true;
    const fc = text.indexOf(FUNCTION_CALLS);
    return fc >= 0 && CALL_START.test(text.slice(fc + FUNCTION_CALLS.length, fc + FUNCTION_CALLS.length + 200));
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new PythonicParser(options);
  },
};
