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

test('requests recorded without a prompt are rendered with the user template and checked; the view shows the prompt', async () => {
  const { Analyzer } = await import('../../../src/core/analysis.ts');
  const { recordView } = await import('../../../src/host/view/recordView.ts');
  const record = {
    toolscope: 1 as const,
    id: 'req-only',
    request: {
      model: 'kimi-k2',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }],
    },
  };
  const loaded = { record, line: 1, lastLine: 1, source: 'native' as const };
  // A template that forgets add_generation_prompt: the prompt ends after the user turn.
  const forgetful = '{% for m in messages %}<|im_user|>user<|im_middle|>{{ m.content }}<|im_end|>{% endfor %}';
  const bad = new Analyzer({ template: { source: forgetful, label: 'forgetful.jinja' } }).analyze(loaded);
  assert.ok(
    bad.diagnostics.some((d) => d.kind === 'template-generation-prompt-missing'),
    JSON.stringify(bad.diagnostics),
  );
  assert.deepEqual(bad.prompt, {
    text: '<|im_user|>user<|im_middle|>Weather in Oslo?<|im_end|>',
    origin: 'rendered',
    template: 'forgetful.jinja',
  });
  const good = new Analyzer({
    template: {
      source: `${forgetful}{% if add_generation_prompt %}<|im_assistant|>assistant<|im_middle|>{% endif %}`,
      label: 'good.jinja',
    },
  }).analyze(loaded);
  assert.ok(!good.diagnostics.some((d) => d.kind.startsWith('template-')));
  // A template that fails is said, not thrown.
  const broken = new Analyzer({ template: { source: '{{ messages[0].content.nope() }}', label: 'broken.jinja' } }).analyze(loaded);
  assert.equal(broken.prompt?.text, null);
  assert.match(recordView('0:0', broken, record).prompt?.error ?? '', /failed to render/);
  // Without a template of the user's: no checks on a rendering, but the view shows the request rendered with ours.
  const plain = new Analyzer().analyze(loaded);
  assert.equal(plain.prompt, null);
  const view = recordView('0:0', plain, record);
  assert.equal(view.prompt?.origin, 'rendered');
  assert.match(view.prompt?.template ?? '', /Toolscope's Kimi K2 template/);
  assert.ok(view.prompt?.text?.endsWith('<|im_assistant|>assistant<|im_middle|>'));
});
