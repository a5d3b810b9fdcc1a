import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import { TraceSession } from '../../../src/host/view/traceSession.ts';
import { embeddedTraces } from '../../../src/host/view/embeddedTrace.ts';
import { reportPageHtml, scriptSafeJson } from '../../../src/host/view/pageHtml.ts';
import { redact } from '../../../src/core/util/redact.ts';
import { Analyzer } from '../../../src/core/analysis.ts';
import { TraceIndex } from '../../../src/io/trace/traceIndex.ts';
import { guidedEngine } from '../../../src/io/guided/guidedEnginePool.ts';
import { holdWhatIfs } from '../../fixtures/heldWhatIfs.ts';
import { nodeServices } from '../../../src/io/nodeServices.ts';
import { withFile } from './withTraceFile.ts';

const S = '<|tool_calls_section_begin|>';
const E = '<|tool_calls_section_end|>';
const call = (id: string, args: string) => `<|tool_call_begin|>${id}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;
const tools = [
  {
    type: 'function',
    function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  },
];

function line(id: string, text: string, extra: Record<string, unknown> = {}): string {
  return (
    JSON.stringify({
      toolscope: 1,
      id,
      request: { model: 'kimi-k2', messages: [{ role: 'user', content: 'q' }], tools },
      completion: { text },
      ...extra,
    }) + '\n'
  );
}

test('summaries in batches, record views with tokens, roles, calls and fragments', async () => {
  const content =
    line('a', `Hi ${S}${call('functions.search:0', '{"query":"x"}')}${E}`) +
    'not json\n' +
    line('b', `${S}${call('functions.search:1', '{}')}${E}`);
  await withFile(content, async (path) => {
    const session = await TraceSession.open(path, 't.jsonl');
    try {
      assert.equal(session.info('harness').analysing, true);
      const { summaries, lineErrors } = await session.analyseAll();
      assert.deepEqual(
        summaries.map((s) => [s.key, s.id, s.line, s.calls]),
        [
          ['0:0', 'a', 1, 1],
          ['2:0', 'b', 3, 1],
        ],
      );
      assert.deepEqual(
        lineErrors.map((e) => e.line),
        [2],
      );
      assert.equal(summaries[1]?.worst, 'error');
      assert.equal(summaries[1]?.kinds['schema-violation'], 1);
      assert.equal(session.info('harness').analysing, false);

      const { view } = await session.record('0:0');
      assert.equal(view.tokenOrigin, 'splitter');
      assert.equal(view.approximate, true);
      const markers = view.tokens.filter((t) => t.role === 'marker').map((t) => t.text);
      assert.deepEqual(markers, [S, '<|tool_call_begin|>', '<|tool_call_argument_begin|>', '<|tool_call_end|>', E]);
      assert.ok(view.tokens.some((t) => t.role === 'call-id'));
      assert.ok(view.tokens.some((t) => t.role === 'arguments'));
      const c = view.calls[0];
      assert.ok(c);
      assert.equal(view.tokens[c.tokenStart]?.text, '<|tool_call_begin|>');
      assert.equal(view.tokens[c.tokenEnd - 1]?.text, '<|tool_call_end|>');
      assert.equal(c.fragments.map((f) => f.text).join(''), '{"query":"x"}');
      assert.equal(c.tool?.function.name, 'search');
      await assert.rejects(session.record('1:0'), /line 2/);
      await assert.rejects(session.record('9:0'), /not in the file/);
    } finally {
      await session.close();
    }
  });
});

test('appended records are analysed after refresh; nothing already listed is redone', async () => {
  await withFile(line('a', 'hello'), async (path) => {
    const session = await TraceSession.open(path, 't.jsonl');
    try {
      await session.analyseAll();
      await appendFile(path, line('b', 'world'));
      assert.deepEqual(await session.refresh(), { reset: false });
      const batch = await session.nextBatch();
      assert.deepEqual(
        batch?.summaries.map((s) => s.id),
        ['b'],
      );
      assert.deepEqual(
        session.snapshot().summaries.map((s) => s.id),
        ['a', 'b'],
      );
      assert.equal(await session.nextBatch(), null);
    } finally {
      await session.close();
    }
  });
});

test('the format chosen by the user (toolscope.format) reads every record in it; changing it starts the list over', async () => {
  const hermes = '<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>';
  const content =
    line('k', `${S}${call('functions.search:0', '{"query":"x"}')}${E}`) +
    line('h', hermes, { request: { model: 'Qwen/Qwen2.5-7B-Instruct', messages: [{ role: 'user', content: 'q' }], tools } });
  await withFile(content, async (path) => {
    const session = await TraceSession.open(path, 't.jsonl');
    try {
      assert.equal(session.info('vscode').format, null);
      assert.deepEqual(
        (await session.analyseAll()).summaries.map((s) => [s.id, s.format, s.calls]),
        [
          ['k', 'kimi_k2', 1],
          ['h', 'hermes', 1],
        ],
      );
      const auto = (await session.record('1:0')).view;
      assert.deepEqual([auto.format, auto.formatBasis], ['hermes', 'markup']);
      assert.ok(auto.tokens.some((t) => t.role === 'marker' && t.text === '<tool_call>'));

      assert.equal(session.setOptions({ format: 'hermes' }), true);
      assert.equal(session.info('vscode').format, 'hermes');
      assert.equal(session.info('vscode').analysing, true);
      assert.deepEqual(session.snapshot().summaries, [], 'the list starts over');
      assert.deepEqual(
        (await session.analyseAll()).summaries.map((s) => [s.id, s.format, s.calls]),
        [
          ['k', 'hermes', 0],
          ['h', 'hermes', 1],
        ],
      );
      // No cached view survives: the Kimi record is now plain text with its markup leaking as hermes content.
      const forced = (await session.record('0:0')).view;
      assert.deepEqual([forced.format, forced.formatBasis], ['hermes', 'forced']);
      assert.ok(!forced.tokens.some((t) => t.role === 'marker'));

      assert.equal(session.setOptions({ format: 'hermes' }), false, 'same options: nothing to redo');
      assert.equal(session.snapshot().summaries.length, 2);
      assert.equal(session.setOptions({ format: undefined }), true, 'back to auto');
      assert.equal(session.info('vscode').format, null);
      assert.deepEqual(
        (await session.analyseAll()).summaries.map((s) => s.format),
        ['kimi_k2', 'hermes'],
      );
      assert.equal((await session.record('0:0')).view.formatBasis, 'markup');
    } finally {
      await session.close();
    }
  });
});

test("a report runs each record's what-if once (its view takes the list's findings) and embeds what the full analysis finds", async () => {
  const text = `${S}${call('functions.search:0', '{"query": 1}')}${E}`;
  await withFile(line('blocked', text) + line('clean', `${S}${call('functions.search:0', '{"query": "x"}')}${E}`), async (path) => {
    // Held only to count what is asked of the engine; let through at once.
    const counted = holdWhatIfs(guidedEngine());
    counted.release();
    try {
      const data = await embeddedTraces([{ path, label: 't.jsonl' }], 't.jsonl', 'report');
      assert.equal(counted.asked, 2, 'one what-if per record, none again for the views');
      const index = await TraceIndex.open(path);
      try {
        for (const [entry, key] of ['0:0', '1:0'].entries()) {
          const loaded = (await index.read(entry)).records[0];
          assert.ok(loaded);
          const full = await new Analyzer({}, nodeServices()).analyzeWithGuided(loaded);
          const view = data.records[key];
          assert.equal(view?.guidedPending, false);
          assert.deepEqual(view?.diagnostics, full.diagnostics);
          assert.ok(full.diagnostics.some((d) => d.kind.startsWith('guided-')));
        }
      } finally {
        await index.close();
      }
    } finally {
      counted.restore();
    }
  });
});

test('a report embeds hostile text inertly and redacts credentials', async () => {
  const hostile = '</script><script>window.__pwned=1</script><img src=x onerror=alert(1)>';
  await withFile(
    line('x', hostile, {
      meta: { headers: { Authorization: 'Bearer sk-abcdefghijklmnopqrstuv' }, endpoint: 'https://h/v1?api_key=SECRET123' },
    }),
    async (path) => {
      const data = await embeddedTraces([{ path, label: 't.jsonl' }], 't.jsonl', 'report');
      const html = reportPageHtml({ script: 'console.log(1)', style: 'body{}', data, title: 't' });
      assert.equal((html.match(/<\/script>/g) ?? []).length, 2, 'only the two real script elements close');
      assert.ok(!html.includes('<img src=x'));
      assert.ok(!html.includes('SECRET123'));
      assert.ok(!html.includes('sk-abcdefghijklmnopqrstuv'));
      assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    },
  );
});

test('scriptSafeJson round-trips and escapes what could end a script', () => {
  const value = { s: '</script>&\u2028<!--' };
  const json = scriptSafeJson(value);
  assert.ok(!/[<>&\u2028]/.test(json));
  assert.deepEqual(JSON.parse(json), value);
});

test('redact: header keys, query keys and bearer tokens; the input is untouched', () => {
  const input = {
    headers: { 'x-api-key': 'abc', 'Content-Type': 'json' },
    url: 'https://x/v1?key=123&a=b',
    note: 'Authorization: Bearer abcdefghijkl',
  };
  const out = redact(input);
  assert.deepEqual(out, {
    headers: { 'x-api-key': '[redacted]', 'Content-Type': 'json' },
    url: 'https://x/v1?key=[redacted]&a=b',
    note: 'Authorization: Bearer [redacted]',
  });
  assert.equal(input.headers['x-api-key'], 'abc');
});

test('a file past the first index step opens on its first bytes: the rest is indexed as the list reaches it, every entry once, in order', async () => {
  // About 9 MB: lines of 90 kB (a long answer), one bad line beyond the first 8 MB, the last line without a newline.
  const pad = 'x'.repeat(90_000);
  const lines: string[] = [];
  for (let i = 0; i < 100; i++) lines.push(line(`r${i}`, `${pad} ${S}${call(`functions.search:${i}`, '{"query":"x"}')}${E}`));
  lines.splice(95, 0, 'not json\n');
  const content = lines.join('').replace(/\n$/, '');
  await withFile(content, async (path) => {
    const session = await TraceSession.open(path, 't.jsonl', { guided: false });
    try {
      const opened = session.info('harness');
      assert.ok(opened.entries < 101, `${opened.entries} entries indexed at the open, not the whole file`);
      assert.equal(opened.analysing, true);
      const { summaries, lineErrors } = await session.analyseAll();
      assert.deepEqual(
        summaries.map((s) => s.id),
        Array.from({ length: 100 }, (_, i) => `r${i}`),
      );
      assert.deepEqual(
        lineErrors.map((e) => e.line),
        [96],
      );
      const done = session.info('harness');
      assert.deepEqual([done.entries, done.analysing], [101, false]);
      // The same rows as an index of the whole file gives.
      const whole = await TraceIndex.open(path);
      try {
        assert.equal(whole.count, 101);
        const last = (await session.record(summaries[99]?.key as string)).view;
        assert.equal(last.id, 'r99');
      } finally {
        await whole.close();
      }
    } finally {
      await session.close();
    }
  });
});
