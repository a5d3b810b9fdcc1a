import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ARGUMENT_BEGIN as ARG, CALL_BEGIN as CB, SECTION_BEGIN as SB } from '../../../../../src/core/formats/kimiK2/kimiK2Markers.ts';
import { GenCEngine, argPieces, type EngineEvent } from '../../../../../src/core/formats/kimiK2/vllm/vllmGenCEngine.ts';

/** The engine's argument events for `chunks` fed one after another into a call's arguments (no token ids). */
function argEvents(chunks: string[]): EngineEvent[] {
  const engine = new GenCEngine(() => undefined);
  engine.feed(`${SB}${CB}functions.f:0${ARG}`, []);
  return chunks.flatMap((c) => engine.feed(c, [])).filter((e) => e.kind === 'arg');
}

test('generation C: the characters of a delta go out as one argument event, a top-level closing bracket held', () => {
  const events = argEvents(['{"a": [1, 2]}', ', "b": "}"}', ' ']);
  assert.deepEqual(
    events.map((e) => e.value),
    ['{"a": [1, 2]', '}, "b": "}"', '} '],
  );
});

test('generation C: argPieces cuts an argument event back into one piece per character sent', () => {
  const events = argEvents(['{"a": "\\\\"}', '} x😀']);
  assert.deepEqual(events.map(argPieces), [
    ['{', '"', 'a', '"', ':', ' ', '"', '\\', '\\', '"'],
    // The held closing braces go out with the next character; a code point is one piece.
    ['}} ', 'x', '😀'],
  ]);
  // An event without a run (the held characters flushed at the end) is one piece.
  assert.deepEqual(argPieces({ kind: 'arg', value: '}', tool: 0 }), ['}']);
});
