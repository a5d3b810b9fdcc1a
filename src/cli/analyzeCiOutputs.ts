/**
 * `analyze --junit FILE` and `--sarif FILE`: what CI tools read. JUnit: one test case per record (a failure
 * when it has a finding at the `--fail-on` severity or worse, error by default; unreadable lines are errors).
 * SARIF 2.1.0: one result per finding (sarifLog.ts).
 */
import { junitXml, type JunitCase } from '../host/ci/junitXml.ts';
import { ciRecord, type CiRecord } from '../host/ci/findingExcerpt.ts';
import { sarifLog } from '../host/ci/sarifLog.ts';
import type { AnalyzedRecord } from '../core/analysis.ts';
import { SEVERITY_RANK, type Severity } from '../core/diagnostics/diagnostic.ts';
import type { LineError } from '../core/trace/record.ts';

export class AnalyzeCiOutputs {
  private readonly files: Array<{ file: string; records: CiRecord[]; errors: LineError[] }> = [];

  constructor(private readonly failOn: Severity = 'error') {}

  file(file: string): void {
    this.files.push({ file, records: [], errors: [] });
  }

  record(a: AnalyzedRecord): void {
    this.files.at(-1)?.records.push(ciRecord(a));
  }

  error(e: LineError): void {
    this.files.at(-1)?.errors.push(e);
  }

  junit(): string {
    const bar = SEVERITY_RANK[this.failOn];
    return junitXml(
      this.files.map(({ file, records, errors }) => ({
        name: file,
        cases: [
          ...records.map((r): JunitCase => {
            const failing = r.findings.filter((f) => SEVERITY_RANK[f.diagnostic.severity] >= bar);
            const name = `record ${r.id} (line ${r.line})`;
            const first = failing[0]?.diagnostic;
            if (!first) return { name, classname: file };
            return {
              name,
              classname: file,
              failure: {
                kind: 'failure',
                type: first.kind,
                message: `${failing.length} finding(s): ${failing.map((f) => f.diagnostic.code).join(', ')} — ${first.message}`,
                body: failing.map((f) => f.text).join('\n\n'),
              },
            };
          }),
          ...errors.map((e): JunitCase => ({
            name: `line ${e.line}`,
            classname: file,
            failure: { kind: 'error', type: 'unreadable-line', message: e.message, body: e.message },
          })),
        ],
      })),
      'toolscope analyze',
    );
  }

  sarif(toolVersion: string): string {
    return JSON.stringify(sarifLog(this.files, toolVersion), null, 1) + '\n';
  }
}
