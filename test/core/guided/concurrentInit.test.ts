/**
 * web-xgrammar initialises its WASM module lazily in every factory call; concurrent first calls used to create
 * two modules and fail with "Expected null or instance of Grammar, got an instance of Grammar". This file runs
 * in a fresh process, so its first xgrammar calls are the concurrent ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grammarAccepts } from '../../../src/core/guided/xgrammar.ts';
import { compileKimiGrammar } from './kimiGrammar.ts';
import type { ChatTool } from '../../../src/core/trace/record.ts';

const tool = (name: string): ChatTool => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
});

test('first compiles in parallel all succeed and each grammar works', async () => {
  const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const grammars = await Promise.all(names.map((n) => compileKimiGrammar([tool(n)], 'auto')));
  for (const [i, g] of grammars.entries()) {
    const call = `<|tool_calls_section_begin|><|tool_call_begin|>functions.${names[i]}:0<|tool_call_argument_begin|>{"q": "x"}<|tool_call_end|><|tool_calls_section_end|>`;
    assert.equal(await grammarAccepts(g, call), true, names[i]);
  }
});
