/** The readable `toolscope analyze` summary: per record its calls, content and findings; totals per kind. */
import type { AnalyzedRecord } from '../../core/analysis.ts';
import type { Diagnostic, Severity } from '../../core/diagnostics/diagnostic.ts';
import { worstSeverity } from '../../core/diagnostics/diagnostic.ts';
import type { LineError } from '../../core/trace/record.ts';
import type { Style } from './terminalStyle.ts';
import { groupingLabel } from '../../core/formats/engineRun.ts';
import { terminalLine, terminalText } from './terminalText.ts';
import { tokenSpanText } from '../../shared/tokenNumbers.ts';

function preview(text: string, max = 100): string {
  const flat = JSON.stringify(text);
  return flat.length > max ? flat.slice(0, max - 4) + '..."' : flat;
}

function position(d: Diagnostic): string {
  if (d.tokenStart !== null && d.tokenEnd !== null) {
    return tokenSpanText(d.tokenStart, d.tokenEnd);
  }
  if (d.charStart !== null) return `${d.where} char ${d.charStart}`;
  return d.where;
}

/** A report's totals, plain data (it crosses threads). */
export interface HumanReportState {
  totals: [string, { severity: Severity; count: number }][];
  records: number;
  unreadable: number;
  bySeverity: Record<Severity, number>;
  ignored: [string, number][];
}

export class HumanReport {
  private readonly totals = new Map<string, { severity: Severity; count: number }>();
  private records = 0;
  private unreadable = 0;
  private readonly bySeverity: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  private readonly ignored = new Map<string, number>();

  /** The totals so far, to be merged into another report (a worker thread's report of its files: parallelAnalyze.ts). */
  state(): HumanReportState {
    return {
      totals: [...this.totals],
      records: this.records,
      unreadable: this.unreadable,
      bySeverity: { ...this.bySeverity },
      ignored: [...this.ignored],
    };
  }

  /** Adds another report's totals, as if its records had been reported here (in the same order). */
  merge(other: HumanReportState): void {
    for (const [kind, t] of other.totals) {
      const mine = this.totals.get(kind) ?? { severity: t.severity, count: 0 };
      mine.count += t.count;
      this.totals.set(kind, mine);
    }
    this.records += other.records;
    this.unreadable += other.unreadable;
    for (const sev of Object.keys(this.bySeverity) as Severity[]) this.bySeverity[sev] += other.bySeverity[sev];
    for (const [kind, n] of other.ignored) this.ignored.set(kind, (this.ignored.get(kind) ?? 0) + n);
  }

  /** `write` is given a line, or a record's lines joined by newlines. */
  constructor(
    private readonly write: (line: string) => void,
    private readonly style: Style,
    private readonly verbose: boolean,
  ) {}

  file(path: string): void {
    this.write(terminalLine(this.style.bold(terminalText(path))));
  }

  record(r: AnalyzedRecord): void {
    this.records++;
    // A record's lines go out in one write (one system call for a completion's thousand calls, not a thousand).
    const lines: string[] = [];
    const line = (text: string) => lines.push(text);
    const s = this.style;
    // A record of a failed exchange is never marked ✔, whatever its findings.
    const worst = r.error ? 'error' : worstSeverity(r.diagnostics);
    const mark = worst === 'error' ? s.red('✖') : worst === 'warning' ? s.yellow('▲') : s.green('✔');
    const calls = `${r.calls.length} call${r.calls.length === 1 ? '' : 's'}`;
    const tokens = r.completion
      ? `, ${r.completion.tokens.length} tokens${r.completion.source === 'approximate' ? ' (approx.)' : r.completion.source === 're-encoded' ? ` (${r.completion.tokenizer}, re-encoded)` : ''}`
      : '';
    line(
      `  ${mark} ${s.bold(`#${r.id}`)} ${s.dim(`line ${r.line} · ${r.format}${r.formatBasis === 'default' ? ' (assumed)' : ''} · ${r.source}`)} · ${calls}${tokens}`,
    );
    if (r.error) line(`      ${s.red('failed')}    ${preview(r.error, 120)}`);
    if (r.unchecked) line(`      ${s.dim('unchecked')} ${preview(r.unchecked, 400)}`);
    if (r.reasoning) line(`      ${s.dim('reasoning')} ${preview(r.reasoning, 80)}`);
    if (r.content) line(`      ${s.dim('content')}   ${preview(r.content)}`);
    for (const c of r.calls)
      line(`      ${s.blue('call')}      ${c.id || '(no id)'} → ${c.name || '(no name)'} ${preview(c.arguments, 80)}`);
    if (r.vllm) {
      // What the chosen vLLM generation would have streamed; its differences follow as vllm-divergence findings.
      const v = r.vllm;
      const same = !r.diagnostics.some((d) => d.kind === 'vllm-divergence');
      const calls = v.calls.map((c) => `${c.id || '(no id)'} → ${c.name || '(no name)'}`).join(', ') || 'no calls';
      line(
        `      ${s.blue(`vllm ${v.profile}`)}    ${v.spans.length} deltas, ${groupingLabel(v.grouping)}: ${v.content !== null ? `content ${preview(v.content, 60)}, ` : ''}${calls}${same ? s.green(' (same as the reference parse)') : ''}`,
      );
    }
    const infos: Diagnostic[] = [];
    for (const d of r.diagnostics) {
      const t = this.totals.get(d.kind) ?? { severity: d.severity, count: 0 };
      t.count++;
      this.totals.set(d.kind, t);
      this.bySeverity[d.severity]++;
      if (d.severity === 'info' && !this.verbose) {
        infos.push(d);
        continue;
      }
      const sev = d.severity === 'error' ? s.red('error  ') : d.severity === 'warning' ? s.yellow('warning') : s.dim('info   ');
      line(`      ${sev} ${s.bold(d.code)} ${d.kind}${d.detail ? `/${d.detail}` : ''} ${s.dim(`(${position(d)})`)}: ${d.message}`);
      line(`              ${s.dim(`hint: ${d.hint}`)}`);
    }
    const silenced = Object.entries(r.ignored);
    if (silenced.length) {
      for (const [kind, n] of silenced) this.ignored.set(kind, (this.ignored.get(kind) ?? 0) + (n ?? 0));
      line(`      ${s.dim(`ignored ${silenced.map(([kind, n]) => `${n} ${kind}`).join(', ')} (--ignore)`)}`);
    }
    if (infos.length) {
      const kinds = [...new Set(infos.map((d) => d.kind))].join(', ');
      line(`      ${s.dim(`info    ${infos.length} note${infos.length === 1 ? '' : 's'} (${kinds}); --verbose shows them`)}`);
    }
    // Each line escaped: ids, names, text and messages come from the trace (terminalText.ts).
    this.write(lines.map(terminalLine).join('\n'));
  }

  error(e: LineError): void {
    this.unreadable++;
    // Messages name their line already ("line 7: invalid JSON …").
    const message = e.message.startsWith(`line ${e.line}`) ? e.message : `line ${e.line}: ${e.message}`;
    this.write(terminalLine(`  ${this.style.red('✖')} unreadable ${terminalText(message)}`));
  }

  summary(): void {
    const s = this.style;
    this.write('');
    this.write(
      s.bold(`${this.records} record${this.records === 1 ? '' : 's'}`) +
        `, ${this.unreadable} unreadable line${this.unreadable === 1 ? '' : 's'}; ` +
        `${s.red(`${this.bySeverity.error} errors`)}, ${s.yellow(`${this.bySeverity.warning} warnings`)}, ${this.bySeverity.info} info`,
    );
    const rows = [...this.totals.entries()].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]));
    for (const [kind, t] of rows) this.write(`  ${String(t.count).padStart(5)}  ${kind} ${s.dim(`(${t.severity})`)}`);
    for (const [kind, n] of [...this.ignored.entries()].sort((a, b) => b[1] - a[1]))
      this.write(`  ${String(n).padStart(5)}  ${kind} ${s.dim('(ignored: --ignore)')}`);
  }
}
