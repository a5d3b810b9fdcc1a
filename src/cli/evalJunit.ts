/**
 * JUnit for `eval run` / `eval rescore`: one test case per sample and run. A request that failed is an error;
 * a tool call K2VV rejects is a failure carrying the error class, Toolscope's findings and their token excerpts.
 */
import { Analyzer } from '../core/analysis.ts';
import { findingText } from '../host/ci/findingExcerpt.ts';
import type { JunitCase, JunitSuite } from '../host/ci/junitXml.ts';
import { classifyCall, completionCalls } from '../host/eval/errorClasses.ts';
import { latestPerSample } from '../host/eval/evalFigures.ts';
import { toolCallsValid, type K2vvResult } from '../host/eval/k2vvMetrics.ts';
import { ToolSchemas } from '../core/schema/toolSchemas.ts';
import { nodeServices } from '../io/nodeServices.ts';

export function evalJunitSuite(label: string, results: readonly K2vvResult[], properties: Record<string, string> = {}): JunitSuite {
  const analyzer = new Analyzer({}, nodeServices());
  const schemas = new ToolSchemas();
  const classname = `toolscope.eval.${label.replace(/[^A-Za-z0-9_.-]+/g, '-')}`;
  const cases: JunitCase[] = latestPerSample(results)
    .sort((a, b) => a.run - b.run || a.dataIndex - b.dataIndex)
    .map((r) => {
      const name = `sample ${r.dataIndex} run ${r.run}`;
      const duration = r.record.meta?.duration_ms;
      const timeS = typeof duration === 'number' ? duration / 1000 : undefined;
      if (r.status !== 'success') {
        const error = r.record.error ?? `status ${r.status}`;
        return { name, classname, timeS, failure: { kind: 'error', type: 'request-failed', message: error.slice(0, 500), body: error } };
      }
      if (r.finishReason !== 'tool_calls' || toolCallsValid(r.record, schemas)) return { name, classname, timeS };
      const classes = [
        ...new Set(
          completionCalls(r.record)
            .map((c) => classifyCall(c, r.record.request?.tools, schemas))
            .filter((c) => c !== 'valid'),
        ),
      ];
      const analysed = analyzer.analyze({ record: r.record, line: r.dataIndex, lastLine: r.dataIndex, source: 'k2vv-result' });
      const errors = analysed.diagnostics.filter((d) => d.severity === 'error');
      const first = errors[0];
      const message = `${classes.join(', ') || 'no tool calls'}${first ? `: ${first.code} ${first.kind}: ${first.message}` : ''}`;
      const body = errors.length
        ? errors.map((d) => findingText(analysed, d)).join('\n\n')
        : 'K2VV rejects the tool calls (no Toolscope finding explains it).';
      return { name, classname, timeS, failure: { kind: 'failure', type: classes[0] ?? 'schema', message: message.slice(0, 500), body } };
    });
  return { name: label, cases, properties };
}
