/**
 * The trace editor never waits for the guided what-if (issue #19): with the grammar engine's answers held open, the
 * list's rows and the record a webview asks for are sent from the synchronous analysis, marked `guidedPending`,
 * and once the engine answers a `guidedFindings` event follows each of them — after the reply it completes —
 * carrying exactly the findings and counts the full analysis gives.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GuidedFindings, HostEvent, RecordView } from '../../src/shared/protocol.ts';
import { fake } from './fakeVscode.ts';
import { done, openInTraceEditor } from './fakePanel.ts';
import { recordWithSchema, traceText } from '../fixtures/hostileSchemas.ts';
import { holdWhatIfs } from '../fixtures/heldWhatIfs.ts';
import { nodeServices } from '../../src/io/nodeServices.ts';

const SCHEMA = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
const isGuided = (kind: string) => kind.startsWith('guided-');

test('trace editor: rows and the record are sent before the what-if answers; its findings follow, none lost', async () => {
  // Loaded after the hook, as the provider is, so both name the same engine.
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await import('../../src/extension/traceEditorProvider.ts');
  const { guidedEngine } = await import('../../src/io/guided/guidedEnginePool.ts');
  const { Analyzer } = await import('../../src/core/analysis.ts');
  const { TraceIndex } = await import('../../src/io/trace/traceIndex.ts');
  const { recordSummary } = await import('../../src/host/view/recordView.ts');
  const dir = await mkdtemp(join(tmpdir(), 'toolscope-guided-follow-up-'));
  const trace = join(dir, 'held.jsonl');
  // The grammar blocks the integer (guided-would-block, an error); it lets the string through (guided-accepts).
  await writeFile(trace, traceText([recordWithSchema('blocked', SCHEMA, '{"a": 1}'), recordWithSchema('accepted', SCHEMA)]));
  const held = holdWhatIfs(guidedEngine());
  fake.settings.clear();
  const { registration, document, view } = await openInTraceEditor({ TraceEditorProvider, TRACE_VIEW_TYPE }, trace);
  try {
    const init = await view.request({ type: 'ready' });
    assert.equal(init.type, 'init');
    // Both rows listed while both what-ifs are held: pending, no guided finding counted, the list still analysing.
    // The ready reply carries the list's first rows; later ones come as events.
    const initRows = init.type === 'init' ? init.summaries : [];
    const listedRows = () => [...initRows, ...view.events().flatMap((e) => (e.type === 'summaries' ? e.summaries : []))];
    if (listedRows().length < 2) await view.waitEvent(0, () => listedRows().length === 2);
    const rows = listedRows();
    assert.deepEqual(
      rows.map((s) => [s.id, s.guidedPending, Object.keys(s.kinds).filter(isGuided)]),
      [
        ['blocked', true, []],
        ['accepted', true, []],
      ],
    );
    assert.equal(init.type === 'init' && init.info.analysing, true);
    const key = (rows[0] as { key: string }).key;

    // The record: its reply comes while its what-if is held, without the what-if's findings.
    const reply = await view.request({ type: 'getRecord', key });
    assert.equal(reply.type, 'record');
    const first = (reply as { view: RecordView }).view;
    assert.equal(first.guidedPending, true);
    assert.deepEqual(
      first.diagnostics.filter((d) => isGuided(d.kind)),
      [],
    );
    // The record's what-if was under way for its row: the view waits for that one (moved first), not a second run.
    assert.equal(held.asked, 2, 'two what-ifs for the list, none more for the record view, all still held');
    assert.ok(!view.events().some((e) => e.type === 'guidedFindings'));

    held.release();
    const at = await view.waitEvent(0, (e) => e.type === 'guidedFindings' && e.findings.some((f) => f.key === key));
    await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    const posted = view.posted();
    const replyAt = posted.findIndex((m) => m.kind === 'reply' && m.body.type === 'record');
    const firstFindingsAt = posted.findIndex((m) => m.kind === 'event' && m.body.type === 'guidedFindings');
    assert.ok(replyAt >= 0 && firstFindingsAt > replyAt, 'the findings come after the record they complete');
    // Findings come alone, or with the rows of the same frame's message.
    const findings = view
      .events()
      .flatMap((e) => (e.type === 'guidedFindings' ? e.findings : e.type === 'summaries' ? (e.findings ?? []) : []));
    const byKey = new Map<string, GuidedFindings>(findings.map((f) => [f.key, f]));
    assert.deepEqual([...byKey.keys()].sort(), rows.map((s) => s.key).sort(), 'every pending row is completed');
    assert.ok((view.events()[at] as Extract<HostEvent, { type: 'guidedFindings' }>).findings.some((f) => f.key === key));

    // Exactly what the full analysis (what-if awaited) gives: findings, ignored counts and the list row.
    const index = await TraceIndex.open(trace);
    try {
      for (const row of rows) {
        const loaded = (await index.read(row.entry)).records[0];
        assert.ok(loaded);
        const full = await new Analyzer({}, nodeServices()).analyzeWithGuided(loaded);
        const f = byKey.get(row.key) as GuidedFindings;
        assert.deepEqual(f.diagnostics, full.diagnostics);
        assert.deepEqual(f.ignored, full.ignored);
        assert.deepEqual(f.summary, recordSummary(row.key, row.entry, full, loaded.record));
      }
    } finally {
      await index.close();
    }
    assert.deepEqual(
      byKey
        .get(key)
        ?.diagnostics.filter((d) => isGuided(d.kind))
        .map((d) => d.kind),
      ['guided-would-block'],
    );
    assert.equal(byKey.get(key)?.summary.worst, 'error');
    assert.equal(byKey.get(key)?.summary.guidedPending, false);

    // Asked for again: the kept view is complete, and nothing more follows.
    const events = view.events().length;
    const again = (await view.request({ type: 'getRecord', key })) as { view: RecordView };
    assert.equal(again.view.guidedPending, false);
    assert.deepEqual(again.view.diagnostics, byKey.get(key)?.diagnostics);
    assert.equal(view.events().length, events);
  } finally {
    held.restore();
    document.dispose();
    registration.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});
