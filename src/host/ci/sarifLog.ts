/**
 * SARIF 2.1.0 for `analyze --sarif`: one result per finding, the rule being the finding's kind (its TS code as
 * id, its title, the docs link), the level from its severity, the location the trace file and the record's
 * lines — so GitHub code scanning and VS Code's SARIF viewer put each finding on its line of the trace.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Severity } from '../../core/diagnostics/diagnostic.ts';
import { DIAGNOSTIC_KINDS, diagnosticKindInfo, type DiagnosticKind } from '../../core/diagnostics/registry.ts';
import type { CiRecord } from './findingExcerpt.ts';

/** Where the catalogue lives, relative to the repository root (rules link to it). */
export const DIAGNOSTICS_DOC = 'docs/diagnostics.md';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

export interface SarifInput {
  /** The trace file as given on the command line. */
  file: string;
  records: CiRecord[];
  /** Lines that could not be read. */
  errors: Array<{ line: number; message: string }>;
}

/**
 * A trace's location: relative to the working directory (the repository root in CI) as a URI reference under
 * %SRCROOT% when it lies inside it, else an absolute file: URI.
 */
export function artifactLocation(path: string, cwd = process.cwd()): { uri: string; uriBaseId?: string } {
  const rel = relative(cwd, resolve(cwd, path));
  if (rel.startsWith('..') || isAbsolute(rel)) return { uri: pathToFileURL(resolve(cwd, path)).href };
  return {
    uri: rel
      .split(sep)
      .map((seg) => encodeURIComponent(seg))
      .join('/'),
    uriBaseId: '%SRCROOT%',
  };
}

export function sarifLog(inputs: readonly SarifInput[], toolVersion: string, docsBase?: string): Record<string, unknown> {
  const kinds = Object.keys(DIAGNOSTIC_KINDS) as DiagnosticKind[];
  const ruleIndex = new Map(kinds.map((k, i) => [k, i]));
  const docs = docsBase ? `${docsBase.replace(/\/$/, '')}/${DIAGNOSTICS_DOC}` : undefined;
  const rules: Array<Record<string, unknown>> = kinds.map((k) => {
    const info = DIAGNOSTIC_KINDS[k];
    return {
      id: info.code,
      name: k,
      shortDescription: { text: info.title },
      fullDescription: { text: `${info.code} ${k}: ${info.title}. See ${DIAGNOSTICS_DOC} (${info.code}).` },
      ...(docs ? { helpUri: docs } : {}),
      help: {
        text: `${info.code} ${k} — ${info.title}. Documented in ${DIAGNOSTICS_DOC}.`,
        markdown: `**${info.code} \`${k}\`** — ${info.title}. See [${DIAGNOSTICS_DOC}](${docs ?? DIAGNOSTICS_DOC}).`,
      },
      defaultConfiguration: { level: LEVEL[info.severity as Severity] },
      properties: { kind: k, docs: DIAGNOSTICS_DOC },
    };
  });
  const results: unknown[] = [];
  const artifacts: unknown[] = [];
  inputs.forEach((input, artifactIndex) => {
    const where = artifactLocation(input.file);
    artifacts.push({ location: where });
    const location = (startLine: number, endLine: number) => ({
      physicalLocation: { artifactLocation: { ...where, index: artifactIndex }, region: { startLine, endLine } },
    });
    for (const a of input.records) {
      for (const { diagnostic: d, excerpt } of a.findings) {
        results.push({
          ruleId: diagnosticKindInfo(d.kind)?.code ?? d.code,
          ruleIndex: ruleIndex.get(d.kind as DiagnosticKind) ?? 0,
          level: LEVEL[d.severity],
          message: { text: `${d.message} (record ${a.id})${d.hint ? ` — ${d.hint}` : ''}` },
          locations: [location(a.line, Math.max(a.line, a.lastLine))],
          partialFingerprints: { toolscopeFinding: `${d.code}:${a.id}:${d.tokenStart ?? ''}:${d.charStart ?? ''}:${d.callIndex ?? ''}` },
          properties: {
            kind: d.kind,
            recordId: a.id,
            where: d.where,
            tokenStart: d.tokenStart,
            tokenEnd: d.tokenEnd,
            charStart: d.charStart,
            charEnd: d.charEnd,
            ...(d.path ? { path: d.path } : {}),
            ...(excerpt ? { excerpt } : {}),
          },
        });
      }
    }
    for (const e of input.errors) {
      results.push({
        ruleId: 'TS000',
        ruleIndex: kinds.length,
        level: 'error',
        message: { text: `unreadable line: ${e.message}` },
        locations: [location(e.line, e.line)],
      });
    }
  });
  const hasLineErrors = inputs.some((i) => i.errors.length > 0);
  if (hasLineErrors)
    rules.push({
      id: 'TS000',
      name: 'unreadable-line',
      shortDescription: { text: 'A trace line that could not be read' },
      fullDescription: { text: 'The line is not JSON or not a record Toolscope knows; the rest of the file was still read.' },
      help: { text: 'See docs/trace-format.md.', markdown: 'See [docs/trace-format.md](docs/trace-format.md).' },
      defaultConfiguration: { level: 'error' },
      properties: { kind: 'unreadable-line', docs: 'docs/trace-format.md' },
    });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Toolscope', version: toolVersion, semanticVersion: toolVersion, rules } },
        artifacts,
        results,
        columnKind: 'unicodeCodePoints',
      },
    ],
  };
}
