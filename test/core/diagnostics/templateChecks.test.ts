import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, ofKind, record } from './analyze.helpers.ts';
import { renderPrompt } from '../../../src/core/template/renderPrompt.ts';

test('template-generation-prompt-missing: a prompt rendered without add_generation_prompt', () => {
  const r = record({ completion: { text: 'hi' } });
  r.prompt = renderPrompt(r.request ?? {}, undefined, false);
  assert.equal(ofKind(analyze(r), 'template-generation-prompt-missing').length, 1);
  r.prompt = renderPrompt(r.request ?? {}, undefined, true);
  assert.deepEqual(ofKind(analyze(r), 'template-generation-prompt-missing'), []);
  r.prompt += '<think>';
  assert.deepEqual(ofKind(analyze(r), 'template-generation-prompt-missing'), [], 'K2.6 opens <think> after the generation prompt');
});

test('template-empty-content-list: Python and JSON forms, with a hint that says which', () => {
  const r = record({});
  r.prompt = "<|im_assistant|>assistant<|im_middle|>[{'type': 'text', 'text': ''}]<|im_end|><|im_assistant|>assistant<|im_middle|>";
  const d = ofKind(analyze(r), 'template-empty-content-list');
  assert.equal(d.length, 1);
  assert.match(d[0]?.hint ?? '', /Python object/);
  r.prompt = '<|im_assistant|>assistant<|im_middle|>[{"type": "text", "text": ""}]<|im_end|><|im_assistant|>assistant<|im_middle|>';
  assert.match(ofKind(analyze(r), 'template-empty-content-list')[0]?.hint ?? '', /JavaScript/);
});

test('template-bad-history-id: old-style ids in the history, once per record', () => {
  const r = record({});
  r.request = {
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'search:0', function: { name: 'search', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'search:0', content: 'r' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'functions.search:1', function: { name: 'search', arguments: '{}' } }] },
    ],
  };
  const d = ofKind(analyze(r), 'template-bad-history-id');
  assert.equal(d.length, 1);
  assert.match(d[0]?.message ?? '', /"search:0"/);
  assert.equal(d[0]?.where, 'request');
});
