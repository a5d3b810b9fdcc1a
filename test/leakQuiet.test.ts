/**
 * Right and quiet, over every sample and the whole real-failure corpus: no span of the content carries two
 * content-leak findings (overlapping char ranges, same `where`), and no content-leak says a call the client received
 * as tool_calls was never received.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Analyzer, type AnalyzedRecord } from '../src/core/analysis.ts';
import { importText } from '../src/core/trace/importText.ts';
import { responseMessage } from '../src/core/trace/responseMessage.ts';
import { loadRealCases, traceText } from './fixtures/real/realCase.ts';

const ROOT = resolve(import.meta.dirname, '..');

interface Analysed {
  label: string;
  analysed: AnalyzedRecord;
  delivered: string[];
}

function corpus(): Analysed[] {
  const out: Analysed[] = [];
  const add = (label: string, text: string, options: ConstructorParameters<typeof Analyzer>[0] = {}) => {
    const loaded = importText(text, label);
    const analyzer = new Analyzer(options);
    for (const r of loaded.records) {
      const response = r.record.response ? responseMessage(r.record.response) : null;
      out.push({ label: `${label}:${r.line}`, analysed: analyzer.analyze(r), delivered: (response?.calls ?? []).map((c) => c.name ?? '') });
    }
  };
  for (const dir of ['samples', 'test/webview/fixtures'])
    for (const f of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith('.jsonl')))
      add(`${dir}/${f}`, readFileSync(join(ROOT, dir, f), 'utf8'));
  for (const c of loadRealCases()) add(c.id, traceText(c), { startInReasoning: c.options?.startInReasoning, format: c.options?.format });
  return out;
}

const records = corpus();

test('the corpus is there: samples, fixtures and every real case', () => {
  assert.ok(records.length > 100, `${records.length} records`);
  assert.ok(records.some((r) => r.analysed.diagnostics.some((d) => d.kind === 'content-leak')));
});

test('no span of content carries two content-leak findings', () => {
  const doubled: string[] = [];
  for (const { label, analysed } of records) {
    const leaks = analysed.diagnostics.filter((d) => d.kind === 'content-leak' && d.charStart !== null && d.charEnd !== null);
    for (const [i, a] of leaks.entries())
      for (const b of leaks.slice(i + 1))
        if (a.where === b.where && a.charStart! < b.charEnd! && b.charStart! < a.charEnd!)
          doubled.push(`${label}: ${a.detail ?? '-'} ${a.charStart}–${a.charEnd} and ${b.detail ?? '-'} ${b.charStart}–${b.charEnd}`);
  }
  assert.deepEqual(doubled, []);
});

test('no content-leak claims a delivered call as never received, nor a call without a name', () => {
  const wrong: string[] = [];
  for (const { label, analysed, delivered } of records) {
    for (const d of analysed.diagnostics.filter((x) => x.kind === 'content-leak')) {
      if (/\(no name\)/u.test(d.message)) wrong.push(`${label}: ${d.message}`);
      const claimed = /\(([^()]*)\) the client never received/u.exec(d.message)?.[1]?.split(', ') ?? [];
      const named = /the client never received (.+?) as tool_calls and received/u.exec(d.message)?.[1]?.split(', ') ?? [];
      for (const name of [...claimed, ...named]) if (delivered.includes(name)) wrong.push(`${label}: ${name} was delivered — ${d.message}`);
    }
  }
  assert.deepEqual(wrong, []);
});
