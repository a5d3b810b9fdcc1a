/**
 * The `toolscope.vllmProfile` setting: its manifest entry, its values, and the trace editor provider (over a fake
 * `vscode`) reading it when a trace opens, starting the trace over when it changes, and answering the webview's
 * requests to run the profile with another delta grouping.
 */
import './vscodeHook.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HostEvent, RecordView } from '../../src/shared/protocol.ts';
import { vllmProfileFromSetting } from '../../src/core/formats/engineGenerations.ts';
import { fake } from './fakeVscode.ts';
import { done, openInTraceEditor } from './fakePanel.ts';

const SAMPLES = fileURLToPath(new URL('../../samples/kimi-k2-raw-completions.jsonl', import.meta.url));

interface SettingSchema {
  type: string;
  scope: string;
  default: string;
  enum: string[];
  enumDescriptions: string[];
  markdownDescription: string;
}

test('package.json contributes toolscope.vllmProfile: off, A, B, C, each described, default off', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, SettingSchema> } };
  };
  const setting = manifest.contributes.configuration.properties['toolscope.vllmProfile'];
  assert.ok(setting);
  assert.equal(setting.type, 'string');
  assert.equal(setting.scope, 'resource');
  assert.equal(setting.default, 'off');
  assert.deepEqual(setting.enum, ['off', 'A', 'B', 'C']);
  assert.equal(setting.enumDescriptions.length, 4);
  assert.match(setting.markdownDescription, /--vllm-profile/);
});

test('vllmProfileFromSetting: off and unset mean none; A, B, C; anything else is reported', () => {
  for (const v of [undefined, null, '', 'off']) assert.deepEqual(vllmProfileFromSetting(v), { profile: undefined, invalid: null });
  for (const g of ['A', 'B', 'C'] as const) assert.deepEqual(vllmProfileFromSetting(g), { profile: g, invalid: null });
  assert.deepEqual(vllmProfileFromSetting('a'), { profile: undefined, invalid: 'a' });
  assert.deepEqual(vllmProfileFromSetting(2), { profile: undefined, invalid: '2' });
});

test('trace editor: toolscope.vllmProfile adds the vLLM view; changing it starts over; vllmRun regroups', async () => {
  const { TraceEditorProvider, TRACE_VIEW_TYPE } = await import('../../src/extension/traceEditorProvider.ts');
  fake.settings.clear();
  fake.settings.set('toolscope.vllmProfile', 'A');
  const { registration, document, view } = await openInTraceEditor({ TraceEditorProvider, TRACE_VIEW_TYPE }, SAMPLES);
  try {
    await view.request({ type: 'ready' });
    let at = await view.waitEvent(0, (e) => e.type === 'summaries' && done(e.info));
    const summaries = (from: number, to: number) =>
      view
        .events()
        .slice(from, to + 1)
        .flatMap((e) => (e.type === 'summaries' ? e.summaries : []));
    const key = summaries(0, at).find((s) => s.id === 'arguments-cut-at-newline')?.key as string;
    assert.ok(summaries(0, at).find((s) => s.key === key)?.kinds['vllm-divergence'], 'the list counts the divergences');
    const record = (await view.request({ type: 'getRecord', key })) as { view: RecordView };
    assert.equal(record.view.vllm?.profile, 'A');
    assert.deepEqual(record.view.vllm?.grouping, { kind: 'tokens', perDelta: 1 });
    assert.deepEqual(
      record.view.vllm?.diagnostics.map((d) => d.detail),
      ['arguments-truncated'],
    );

    // The grouping control: the host runs the profile again.
    const regrouped = await view.request({ type: 'vllmRun', key, grouping: { kind: 'tokens', perDelta: 5 } });
    assert.equal(regrouped.type, 'vllm');
    assert.ok(regrouped.type === 'vllm');
    assert.deepEqual(regrouped.view.grouping, { kind: 'tokens', perDelta: 5 });
    assert.ok(regrouped.view.deltasTotal < (record.view.vllm?.deltasTotal ?? 0));

    // The user switches to C: the trace starts over, and the record shows C.
    const mark = view.events().length;
    fake.configure({ 'toolscope.vllmProfile': 'C' });
    const reset = await view.waitEvent(mark, (e) => e.type === 'reset');
    assert.equal((view.events()[reset] as Extract<HostEvent, { type: 'reset' }>).reason, 'vllmProfile');
    at = await view.waitEvent(reset, (e) => e.type === 'summaries' && done(e.info));
    const c = (await view.request({ type: 'getRecord', key })) as { view: RecordView };
    assert.equal(c.view.vllm?.profile, 'C');
    assert.deepEqual(c.view.vllm?.diagnostics, []);

    // Off: no vLLM view, and a run request says why.
    const mark2 = view.events().length;
    fake.configure({ 'toolscope.vllmProfile': 'off' });
    const reset2 = await view.waitEvent(mark2, (e) => e.type === 'reset');
    await view.waitEvent(reset2, (e) => e.type === 'summaries' && done(e.info));
    const off = (await view.request({ type: 'getRecord', key })) as { view: RecordView };
    assert.equal(off.view.vllm, null);
    const refused = await view.request({ type: 'vllmRun', key, grouping: { kind: 'recorded' } });
    assert.equal(refused.type, 'error');
    assert.match(refused.type === 'error' ? refused.message : '', /no vLLM profile is chosen/);

    // A value that is no profile: said once, read as off.
    fake.configure({ 'toolscope.vllmProfile': 'D' });
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(
      fake.warnings.some((w) => /"D", which is not a vLLM profile/.test(w)),
      fake.warnings.join('\n'),
    );
  } finally {
    document.dispose();
    registration.dispose();
  }
});
