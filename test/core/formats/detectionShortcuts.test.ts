/**
 * The detectors that answer most texts with one search first (`DSML`, `<tool_` / `:opensource>`, `<function=`,
 * `<|`): every tag they look for holds what that search looks for, so each tag alone in prose is still detected,
 * in every place of the text, and prose without it is not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { DSML_TOOL_TAGS } from '../../../src/core/formats/deepseekDsml/dsmlMarkers.ts';
import {
  ARG_KEY_BEGIN,
  ARG_VALUE_BEGIN,
  HY3_SUFFIX,
  HY3_TAGS,
  suffixed,
  TOOL_CALL_END,
  TOOL_CALLS_BEGIN,
  TOOL_SEP,
} from '../../../src/core/formats/hy3/hy3Markers.ts';
import { EOM, EOM_ID, EOT, EOT_ID, PYTHON_START, PYTHON_TAG } from '../../../src/core/formats/llama/llamaMarkers.ts';

const PROSE = 'I will look that up for you, then answer: the weather in Paris < 20 degrees | mild.';

function detectedAlone(format: string, tags: readonly string[]): void {
  const f = getFormat(format);
  assert.equal(f.detect(PROSE), false, `${format}: prose`);
  for (const tag of tags) {
    for (const text of [tag, `${PROSE} ${tag}`, `${tag} ${PROSE}`, `${PROSE}${tag}${PROSE}`]) {
      assert.equal(f.detect(text), true, `${format}: ${JSON.stringify(text)}`);
    }
  }
}

test('DSML: every tag holds `DSML`, and each alone is detected', () => {
  assert.ok(DSML_TOOL_TAGS.length > 0);
  for (const tag of DSML_TOOL_TAGS) assert.ok(tag.includes('DSML'), tag);
  detectedAlone('deepseek_dsml', DSML_TOOL_TAGS);
  assert.equal(getFormat('deepseek_dsml').detect(`${PROSE} DSML`), false, 'the word alone is no tag');
});

test('Hy3: every tag it looks for holds `<tool_` or `:opensource>`, and each alone is detected', () => {
  const tags = [
    TOOL_CALLS_BEGIN,
    HY3_TAGS.callsBegin,
    TOOL_SEP,
    HY3_TAGS.sep,
    suffixed(ARG_KEY_BEGIN, HY3_SUFFIX),
    suffixed(ARG_VALUE_BEGIN, HY3_SUFFIX),
    suffixed(TOOL_CALL_END, HY3_SUFFIX),
  ];
  for (const tag of tags) assert.ok(tag.includes('<tool_') || tag.includes(`${HY3_SUFFIX}>`), tag);
  detectedAlone('hy_v3', tags);
});

test('Qwen3-Coder: both shapes hold `<function=`, and each is detected', () => {
  detectedAlone('qwen3_coder', ['<tool_call>\n<function=get>', '<function=get>\n<parameter=city>', '<function=get></function>']);
  assert.equal(getFormat('qwen3_coder').detect(`${PROSE} <tool_call>`), false);
});

test('Harmony and Llama: every tag opens with `<|`, and each alone is detected', () => {
  detectedAlone('harmony', ['<|channel|>', '<|message|>', '<|constrain|>', '<|call|>', '<|start|>assistant']);
  for (const tag of [PYTHON_START, PYTHON_TAG, EOT_ID, EOM_ID, EOT, EOM]) assert.ok(tag.startsWith('<|'), tag);
  detectedAlone('llama', [PYTHON_TAG, EOT_ID, EOM_ID, EOT, EOM, `${PYTHON_START}{"name": "get"}`]);
  assert.equal(getFormat('llama').detect(`${PYTHON_START} no call`), false, 'python_start needs a call after it');
});
