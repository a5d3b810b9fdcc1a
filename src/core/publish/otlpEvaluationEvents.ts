/**
 * OpenTelemetry `gen_ai.evaluation.result` events, one per finding kind, as OTLP/HTTP JSON log records
 * (`POST /v1/logs`, an ExportLogsServiceRequest). The event is the one semantic conventions v1.41.0 define
 * (docs/gen-ai/gen-ai-events.md at open-telemetry/semantic-conventions e018fe6f91862f5ed63c082f87697cddac596784; the
 * GenAI conventions left that repository after 1.41): `gen_ai.evaluation.name` required, `score.label`, `score.value`,
 * `explanation`, and `gen_ai.response.id`. It "SHOULD be parented to the GenAI operation span being evaluated when
 * possible or set gen_ai.response.id when span id is not available": a record with a valid trace and span id gets
 * them on its log record, one with only a response id gets that, one with neither is skipped. The JSON follows
 * opentelemetry-proto's JSON mapping (docs/specification.md, logs.proto at c60eeacb…): lowerCamelCase field names,
 * trace and span ids as hex, 64-bit integers as decimal strings, enums as numbers.
 */
import { NAME_PREFIX, type PublishTarget } from './publishTarget.ts';
import type { PublishRecord } from './verdicts.ts';
import type { Severity } from '../../shared/diagnostic.ts';

/** The semantic-conventions version the events follow (its schema URL goes on every scope). */
export const SEMCONV_VERSION = '1.41.0';
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;
export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

type AnyValue = { stringValue: string } | { doubleValue: number } | { intValue: string };
export interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface OtlpLogRecord {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  severityNumber: number;
  severityText: string;
  eventName: string;
  attributes: KeyValue[];
  traceId?: string;
  spanId?: string;
}

/** SeverityNumber of logs.proto: INFO 9, WARN 13, ERROR 17. */
const SEVERITY_NUMBER: Record<Severity, number> = { info: 9, warning: 13, error: 17 };
const SEVERITY_TEXT: Record<Severity, string> = { info: 'INFO', warning: 'WARN', error: 'ERROR' };

const TRACE_ID = /^[0-9a-f]{32}$/u;
const SPAN_ID = /^[0-9a-f]{16}$/u;
const ZERO = /^0+$/u;

/** The record's trace and span ids as OTLP JSON takes them (lower-case hex, not all zero), or null. */
function spanContext(record: PublishRecord): { traceId: string; spanId: string } | null {
  const traceId = record.traceId?.toLowerCase();
  const spanId = record.spanId?.toLowerCase();
  if (!traceId || !spanId || !TRACE_ID.test(traceId) || !SPAN_ID.test(spanId) || ZERO.test(traceId) || ZERO.test(spanId)) return null;
  return { traceId, spanId };
}

const str = (key: string, value: string): KeyValue => ({ key, value: { stringValue: value } });

export function otlpLogRecords(record: PublishRecord, timeUnixNano: string): OtlpLogRecord[] | null {
  const context = spanContext(record);
  if (!context && !record.responseId) return null;
  return record.verdicts.map((v) => {
    const attributes: KeyValue[] = [
      str('gen_ai.evaluation.name', NAME_PREFIX + v.kind),
      str('gen_ai.evaluation.score.label', v.severity),
      { key: 'gen_ai.evaluation.score.value', value: { doubleValue: v.count } },
      str('gen_ai.evaluation.explanation', v.explanation),
    ];
    if (record.responseId) attributes.push(str('gen_ai.response.id', record.responseId));
    attributes.push(str('toolscope.code', v.code), str('toolscope.record_id', record.recordId));
    return {
      timeUnixNano,
      observedTimeUnixNano: timeUnixNano,
      severityNumber: SEVERITY_NUMBER[v.severity],
      severityText: SEVERITY_TEXT[v.severity],
      eventName: EVALUATION_EVENT,
      attributes,
      ...(context ?? {}),
    };
  });
}

/** The OTLP target: `timeUnixNano` is when the run evaluated (one time for the run), `version` Toolscope's. */
export function otlpTarget(timeUnixNano: string, version: string): PublishTarget<OtlpLogRecord> {
  return {
    name: 'otlp',
    needs: 'a trace id and span id in OpenTelemetry hex (meta.trace_id, meta.span_id), or the response id',
    items: (record) => otlpLogRecords(record, timeUnixNano),
    batchSize: 512,
    body: (logRecords) => ({
      resourceLogs: [
        {
          resource: { attributes: [str('service.name', 'toolscope')] },
          scopeLogs: [{ scope: { name: 'toolscope', version }, schemaUrl: SEMCONV_SCHEMA_URL, logRecords }],
        },
      ],
    }),
    // ExportLogsServiceResponse.partial_success: rejected_log_records (int64, a string in JSON) and error_message.
    partialRefusal: (answer) => {
      const partial = (answer as { partialSuccess?: { rejectedLogRecords?: unknown; errorMessage?: unknown } } | null)?.partialSuccess;
      const refused = Number(partial?.rejectedLogRecords ?? 0);
      if (!partial || !Number.isFinite(refused) || refused <= 0) return null;
      return { refused, message: typeof partial.errorMessage === 'string' ? partial.errorMessage : 'rejected by the collector' };
    },
  };
}
