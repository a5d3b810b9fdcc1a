/**
 * vLLM's own Hy3 tag (rust/src/parser/src/tool/hy_v3/structural_tag.rs @ vllm-project/vllm@9b812aa) through real
 * web-xgrammar, in both spellings: the completion's spelling picks the tag's suffix; required keys come first in
 * order, optional ones after in any order; values are free text; required and named choices need the section.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { whatIfForRequest } from '../../../../src/core/guided/whatIf.ts';
import { hy3ShapeOf } from '../../../../src/core/formats/hy3/hy3StructuralTag.ts';
import type { ChatTool, ToolChoice } from '../../../../src/core/trace/record.ts';

const tools: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' }, unit: { type: 'string' } },
        required: ['city'],
      },
    },
  },
];

const write = (s: string, args: Array<[string, string]>, name = 'get_weather') =>
  `<tool_calls${s}>\n<tool_call${s}>${name}<tool_sep${s}>\n${args
    .map(([k, v]) => `<arg_key${s}>${k}</arg_key${s}>\n<arg_value${s}>${v}</arg_value${s}>\n`)
    .join('')}</tool_call${s}>\n</tool_calls${s}>`;

async function run(text: string, toolChoice?: ToolChoice) {
  const out = await whatIfForRequest(
    { tools, tool_choice: toolChoice },
    { text, tokens: [] },
    { format: 'hy_v3', shape: hy3ShapeOf(text) },
  );
  assert.ok(out.ran, JSON.stringify(out));
  return out.result;
}

test('the spelling picks the shape: bare markup alone is the bare tag, anything suffixed the public checkpoints’', () => {
  assert.equal(hy3ShapeOf(write('', [['city', 'Paris']])), 'vllm-hy_v3-bare');
  assert.equal(hy3ShapeOf(write(':opensource', [['city', 'Paris']])), undefined);
  assert.equal(hy3ShapeOf('no calls'), undefined);
});

for (const s of ['', ':opensource']) {
  const spelling = s ? 'suffixed' : 'bare';
  test(`${spelling}: optional keys in any order after the required one, any value, are accepted`, async () => {
    for (const args of [
      [['city', 'Paris']],
      [
        ['city', 'Paris'],
        ['unit', 'c'],
        ['days', '99'],
      ],
      [
        ['city', 'x < y & "z"'],
        ['days', 'not a number'],
      ],
    ] as Array<Array<[string, string]>>) {
      for (const choice of [undefined, 'required', { type: 'function', function: { name: 'get_weather' } }] as ToolChoice[]) {
        const r = await run(write(s, args), choice);
        assert.equal(r.accepted, true, `${JSON.stringify(args)} ${JSON.stringify(choice)}: ${JSON.stringify(r)}`);
      }
    }
  });

  test(`${spelling}: an optional key first, an undeclared key, an undeclared tool are refused where they start`, async () => {
    const cases: Array<[string, string]> = [
      [
        write(s, [
          ['days', '2'],
          ['city', 'Paris'],
        ]),
        'days',
      ],
      [
        write(s, [
          ['city', 'Paris'],
          ['town', 'x'],
        ]),
        'town',
      ],
      [write(s, [['city', 'Paris']], 'search_web'), 'search_web'],
    ];
    for (const [text, word] of cases) {
      const r = await run(text);
      assert.equal(r.accepted, false, text);
      if (!r.accepted) assert.equal(r.charOffset, text.indexOf(word), `${text}: ${JSON.stringify(r)}`);
    }
  });

  test(`${spelling}: required needs the section; auto takes plain text`, async () => {
    assert.equal((await run('Just text.', 'required')).accepted, false);
    assert.equal((await run('Just text.')).accepted, true);
  });
}

// vLLM's hy_v3 reasoning parser ends the reasoning at `</think{token_suffix}>` (vllm/reasoning/hy_v3_reasoning_parser.py
// @ 017e9f4448b700e85ee16023287b025693c72b9e: `end_token` is built from the tokenizer's suffix), and the grammar starts
// after it: a think block in the completion's spelling is never the tag's to refuse, even where only calls may come.
for (const s of ['', ':opensource']) {
  const spelling = s ? 'suffixed' : 'bare';
  test(`${spelling}: reasoning up to </think${s}> is skipped, as vLLM's reasoning parser ends it, under every choice`, async () => {
    const call = write(s, [['city', 'Paris']]);
    // No line break after the end: under required the grammar's first character is the section's.
    for (const reasoning of [`<think${s}>Paris it is.</think${s}>`, `Paris it is (the prompt opened <think${s}>).</think${s}>`]) {
      for (const choice of [undefined, 'required', { type: 'function', function: { name: 'get_weather' } }] as ToolChoice[]) {
        const r = await run(`${reasoning}${call}`, choice);
        assert.equal(r.accepted, true, `${reasoning} ${JSON.stringify(choice)}: ${JSON.stringify(r)}`);
      }
    }
    // The what-if skips up to a bare </think> itself; the suffixed end is the thinking shape's prefix.
    assert.equal(hy3ShapeOf(`x</think${s}>${call}`), s ? 'vllm-hy_v3-thinking' : 'vllm-hy_v3-bare');
    assert.equal(hy3ShapeOf(`x</think${s}>`), s ? 'vllm-hy_v3-thinking' : undefined);
    // A call written inside the reasoning is reasoning: required still needs one after it.
    const r = await run(`<think${s}>${call}</think${s}>\nDone.`, 'required');
    assert.equal(r.accepted, false);
  });
}
