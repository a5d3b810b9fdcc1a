/** `toolscope eval compare BASELINE CANDIDATE`: figures side by side with deltas, and the samples that changed. */
import { basename } from 'node:path';
import { DIAGNOSTIC_KINDS, type DiagnosticKind } from '../core/diagnostics/registry.ts';
import { compareRuns, simulationMismatch, type RunSide, type SampleSide } from '../host/eval/compareRuns.ts';
import { InputError } from './inputError.ts';
import { RATE_FIGURES } from '../host/eval/evalFigures.ts';
import { formatFigure, textTable } from './evalReportText.ts';
import { loadResultsOrFail } from './evalRescoreCommand.ts';
import { escapedJson, terminalText } from '../host/report/terminalText.ts';

function delta(name: string, d: number | null): string {
  if (d === null) return 'n/a';
  if (d === 0) return '0';
  const sign = d > 0 ? '+' : '−';
  const v = Math.abs(d);
  return RATE_FIGURES.has(name) ? `${sign}${(v * 100).toFixed(2)} pp` : `${sign}${formatFigure(name, v)}`;
}

function sideText(s: SampleSide | null): string {
  if (!s) return 'absent';
  if (s.status !== 'success') return 'failed';
  return s.trigger ? (s.schemaValid ? 'call ok' : 'call rejected') : 'no call';
}

function findingsText(s: SampleSide | null): string {
  const entries = Object.entries(s?.findings ?? {}) as Array<[DiagnosticKind, number]>;
  return entries.length ? entries.map(([k, n]) => `${DIAGNOSTIC_KINDS[k]?.code ?? '?'} ${k}${n > 1 ? ` ×${n}` : ''}`).join(', ') : '—';
}

function sideHeader(s: RunSide): string {
  return `${s.runs} run(s), ${s.requests} requests${s.answers === 'simulated' ? ", simulated answers: Toolscope's embedded endpoint, not a model" : ''}`;
}

export async function evalCompareCommand(
  baselinePath: string,
  candidatePath: string,
  options: { json?: boolean; reference?: string; withSimulated?: boolean },
  out: NodeJS.WritableStream,
): Promise<number> {
  const baseline = await loadResultsOrFail(baselinePath);
  const candidate = await loadResultsOrFail(candidatePath);
  const reference = options.reference ? await loadResultsOrFail(options.reference) : null;
  const c = compareRuns(
    { label: basename(baselinePath), results: baseline },
    { label: basename(candidatePath), results: candidate },
    reference,
  );
  // Kept apart: a simulator's broken-answer rate beside a model's figures would read as the model's change.
  // --with-simulated: a loopback check of the join itself (a verifier's real run beside Toolscope's simulator).
  const mismatch = simulationMismatch(c.baseline, c.candidate);
  if (mismatch && !options.withSimulated)
    throw new InputError(`eval compare: ${mismatch}; compare simulated runs only with simulated runs (or pass --with-simulated)`);
  if (options.json) {
    out.write(escapedJson(c) + '\n');
    return 0;
  }
  out.write(
    `baseline  ${terminalText(baselinePath)} (${sideHeader(c.baseline)})\ncandidate ${terminalText(candidatePath)} (${sideHeader(c.candidate)})\n\n`,
  );
  out.write(
    textTable(
      ['figure', 'baseline', 'candidate', 'delta'],
      c.figures.map((f) => [f.figure, formatFigure(f.figure, f.baseline), formatFigure(f.figure, f.candidate), delta(f.figure, f.delta)]),
    ),
  );
  out.write(
    `\n${c.samples.length} of ${c.joined} joined samples changed${c.baseline.runs > 1 || c.candidate.runs > 1 ? ' (first run of each)' : ''}\n`,
  );
  if (c.samples.length) {
    out.write(
      textTable(
        ['sample', 'changed', 'baseline', 'candidate', 'findings before', 'findings after'],
        c.samples.map((s) => [
          String(s.dataIndex),
          s.changed.join(','),
          sideText(s.baseline),
          sideText(s.candidate),
          findingsText(s.baseline),
          findingsText(s.candidate),
        ]),
      ),
    );
  }
  return 0;
}
