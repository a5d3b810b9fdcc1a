/**
 * The gpt-oss Harmony structural tag, field for field what xgrammar 0.2.3's built-in `harmony` tag builds for function
 * tools (python/xgrammar/builtin_structural_tag.py at tag v0.2.3 of mlc-ai/xgrammar, get_harmony_structural_tag;
 * written out by hand from that source), its several-ends final message compiled with web-xgrammar, and what the
 * tag does with the header the chat template writes (a space before `<|constrain|>`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getFormat } from '../../../src/core/formats/registry.ts';
import { compileStructuralTag, grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { whatIfForRequest } from '../../../src/core/guided/whatIf.ts';
import { guidedCase } from '../../fixtures/guided/harmony.ts';
import type { ChatTool, TraceRecord } from '../../../src/core/trace/record.ts';
import { loadRealCases } from '../../fixtures/real/realCase.ts';

const params = { type: 'object', properties: { q: { type: 'string' } } };
const tools: ChatTool[] = [{ type: 'function', function: { name: 'search', parameters: params } }];
const content = { type: 'json_schema', json_schema: params, style: 'json', any_order: false };
const calls = [
  { type: 'tag', begin: '<|channel|>commentary to=functions.search<|constrain|>json<|message|>', content, end: '<|call|>' },
  { type: 'tag', begin: ' to=functions.search<|channel|>commentary <|constrain|>json<|message|>', content, end: '<|call|>' },
  { type: 'tag', begin: ' to=functions.search<|channel|>commentary json<|message|>', content, end: '<|call|>' },
];
const final = {
  type: 'tag',
  begin: '<|channel|>final<|message|>',
  content: { type: 'any_text', excludes: [] },
  end: ['<|end|>', '<|return|>'],
};
const analysis = {
  type: 'tag',
  begin: '<|channel|>analysis<|message|>',
  content: { type: 'any_text', excludes: [] },
  end: ['<|end|>', '<|return|>'],
};
const joined = (tags: unknown[]) => ({
  type: 'tags_with_separator',
  tags,
  separator: '<|start|>assistant',
  at_least_one: false,
  stop_after_first: false,
});

test('harmony tag = xgrammar 0.2.3 harmony: auto, required, named, reasoning', () => {
  const guided = getFormat('harmony').guided;
  assert.ok(guided && guided.reasoningInTag);
  assert.equal(guided.builtinStyle, 'harmony');
  assert.deepEqual(guided.structuralTag(tools, 'auto'), { type: 'structural_tag', format: joined([...calls, final]) });
  assert.deepEqual(guided.structuralTag(tools, 'required').format, joined(calls));
  assert.deepEqual(guided.structuralTag(tools, { type: 'function', function: { name: 'search' } }).format, joined(calls));
  assert.deepEqual(guided.structuralTag(tools, 'auto', { reasoning: true }).format, joined([...calls, final, analysis]));
  assert.deepEqual(guided.structuralTag([], 'none', { reasoning: true }).format, joined([final, analysis]));
});

test('harmony tag compiles with web-xgrammar: a final answer ends with <|end|> or <|return|>; analysis, then a call', async () => {
  const guided = getFormat('harmony').guided;
  assert.ok(guided);
  const grammar = await compileStructuralTag(guided.structuralTag(tools, 'auto', { reasoning: true }));
  assert.equal(await grammarAccepts(grammar, '<|channel|>final<|message|>Sunny.<|return|>'), true);
  assert.equal(await grammarAccepts(grammar, '<|channel|>final<|message|>Sunny.<|end|>'), true);
  assert.equal(
    await grammarAccepts(
      grammar,
      '<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary to=functions.search<|constrain|>json<|message|>{"q": "x"}<|call|>',
    ),
    true,
  );
  assert.equal(await grammarAccepts(grammar, '<|channel|>commentary to=functions.other<|constrain|>json<|message|>{}<|call|>'), false);
  // A message of free text ends at the first of its ends: the text after an analysis message's <|end|> is held to
  // the tag (lowered one tag per end, the <|return|> variant once ran on through <|end|> and let anything in).
  const afterAnalysis = (name: string) =>
    `<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary to=functions.${name}<|constrain|>json<|message|>{"q": "x"}<|call|>`;
  assert.equal(await grammarAccepts(grammar, afterAnalysis('other')), false);
  assert.equal(await grammarAccepts(grammar, '<|channel|>analysis<|message|>Think.<|end|> more<|return|>'), false);
  assert.equal(await grammarAccepts(grammar, '<|channel|>analysis<|message|>Think.<|return|>'), true);
});

test('after an analysis message, a hallucinated tool is refused at its name', async () => {
  const text = guidedCase.reasoning?.replace('get_weather', 'search_web') ?? '';
  const run = await whatIfForRequest({ tools: guidedCase.tools }, { text, tokens: [] }, { format: 'harmony' });
  assert.ok(run.ran && !run.result.accepted, JSON.stringify(run));
  assert.equal(run.result.charOffset, text.indexOf('search_web'));
});

test('the header the gpt-oss template writes (a space before <|constrain|>) is refused at the space by xgrammar 0.2.3', async () => {
  // Real completions spell it both ways (test/fixtures/real: gpt-oss-imp-1719 with the space, lmstudio-942 without):
  // under this tag guided decoding steps in at the space and the model must drop it.
  const text = guidedCase.clean.replace('get_weather<|constrain|>', 'get_weather <|constrain|>');
  const run = await whatIfForRequest({ tools: guidedCase.tools }, { text, tokens: [] }, { format: 'harmony' });
  assert.ok(run.ran && !run.result.accepted, JSON.stringify(run));
  assert.equal(run.result.charOffset, text.indexOf(' <|constrain|>'));
  assert.match(run.result.allowed, /constrain/);
});

test('a completion whose final <|return|> or <|call|> the server stripped may end there; a cut-off call may not', async () => {
  const request = { tools: guidedCase.tools };
  const final = '<|channel|>final<|message|>It will be sunny in Paris.';
  const stripped = [final, guidedCase.clean.replace(/<\|call\|>$/u, '')];
  for (const text of stripped) {
    const run = await whatIfForRequest(request, { text, tokens: [], finishReason: 'stop' }, { format: 'harmony' });
    assert.ok(run.ran && run.result.accepted, `${text}: ${JSON.stringify(run)}`);
  }
  const cut = guidedCase.clean.slice(0, guidedCase.clean.indexOf('"days"'));
  const run = await whatIfForRequest(request, { text: cut, tokens: [], finishReason: 'stop' }, { format: 'harmony' });
  assert.ok(run.ran && !run.result.accepted && run.result.reason === 'cannot-end', JSON.stringify(run));
});

test('a real gpt-oss completion (https://github.com/kekzl/imp/pull/1719): what follows its analysis message is held to the tag', async () => {
  // The PR shows the model's output (an analysis message, then the call on a new line) but not the request's tool
  // schema: the one tool it names is declared with the argument it passes.
  const real = loadRealCases().find((c) => c.id === 'gpt-oss-imp-1719-call-dropped');
  assert.ok(real, 'the case is in test/fixtures/real');
  const text = (real.trace[0] as TraceRecord).completion?.text ?? '';
  const weather: ChatTool[] = [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ];
  const run = await whatIfForRequest({ tools: weather }, { text, tokens: [] }, { format: 'harmony' });
  // Lowered one tag per end, the analysis text ran on through <|end|> and this was accepted whole. The message ends at
  // its <|end|>: the line break the output has there is refused; the next message's <|start|> (or the end) is allowed.
  const afterEnd = text.indexOf('<|end|>') + '<|end|>'.length;
  assert.ok(run.ran && !run.result.accepted, JSON.stringify(run));
  assert.equal(run.result.charOffset, afterEnd);
  assert.match(run.result.allowed, /"<".*end of output/u);
});
