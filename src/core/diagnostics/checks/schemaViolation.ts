/** schema-violation: arguments break the tool's JSON schema (ajv, with the JSON path). */
import { defineCheck, diagnosticKind } from '../check.ts';
import { makeDiagnostic } from '../context.ts';
import { argumentsAnchor, parseArguments } from './invalidArgumentsJson.ts';

const SCHEMA_VIOLATION = diagnosticKind({
  kind: 'schema-violation',
  code: 'TS005',
  severity: 'error',
  title: "Arguments break the tool's JSON schema",
});

export const schemaViolation = defineCheck({
  stage: 'sync',
  kinds: [SCHEMA_VIOLATION],
  run: (ctx) =>
    ctx.calls.flatMap((c) => {
      const tool = c.name ? ctx.tools?.get(c.name) : undefined;
      if (!tool) return [];
      const parsed = parseArguments(c.arguments);
      if (!parsed.ok) return [];
      const result = ctx.schemas.check(tool, parsed.value, c.arguments);
      if (result.kind === 'bad-schema') {
        return [
          makeDiagnostic(ctx, SCHEMA_VIOLATION, {
            severity: 'warning',
            where: 'request',
            callIndex: c.index,
            message: `the schema of tool "${tool.function.name}" cannot be used (ajv): ${result.message}`,
            hint: 'Fix the tool definition in the request; until then its arguments cannot be checked.',
          }),
        ];
      }
      if (result.kind !== 'findings') return [];
      return result.findings.map((f) =>
        makeDiagnostic(ctx, SCHEMA_VIOLATION, {
          severity: f.severity,
          where: c.where,
          ...argumentsAnchor(c),
          callIndex: c.index,
          path: f.path,
          message: `${c.name}(${f.path}): ${f.message}`,
          hint:
            f.severity === 'warning'
              ? 'A "format" mismatch: K2-Vendor-Verifier does not assert formats, but the tool may reject the value.'
              : 'The model produced arguments the tool will reject. Guided decoding with the schema (strict tools / structural tag) prevents this.',
        }),
      );
    }),
});
