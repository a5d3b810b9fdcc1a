/**
 * Where each publish target is and how it is authorised, from the environment only (keys are never flags, so they
 * stay out of shell history and process lists): Langfuse's LANGFUSE_PUBLIC_KEY / LANGFUSE_SECRET_KEY (HTTP basic)
 * and LANGFUSE_HOST, Phoenix's PHOENIX_API_KEY (bearer) and PHOENIX_ENDPOINT or PHOENIX_COLLECTOR_ENDPOINT, and OpenTelemetry's own
 * exporter variables (OTEL_EXPORTER_OTLP_LOGS_ENDPOINT / _ENDPOINT, OTEL_EXPORTER_OTLP_LOGS_HEADERS / _HEADERS).
 * `--url` takes the place of the host variable. Every key value is returned as a secret, for the client to scrub.
 */
import type { TargetName } from '../core/publish/publishTarget.ts';
import { InputError } from './inputError.ts';

export interface PublishEndpoint {
  url: string;
  headers: Record<string, string>;
  secrets: string[];
}

const trimSlash = (s: string) => s.replace(/\/+$/u, '');
const present = (v: string | undefined): v is string => typeof v === 'string' && v !== '';

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs split by commas, values percent-decoded (the exporter spec's format). */
export function otlpHeaders(spec: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of spec.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq).trim();
    const raw = pair.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded: taken as written.
    }
    if (key) out[key.toLowerCase()] = value;
  }
  return out;
}

/**
 * The target's URL and headers. Without `dryRun`, a target that needs a key and has none is an input error naming
 * the variables (never their values).
 */
export function publishEndpoint(target: TargetName, env: NodeJS.ProcessEnv, url: string | undefined, dryRun: boolean): PublishEndpoint {
  if (target === 'langfuse') {
    const base = trimSlash(url ?? (present(env.LANGFUSE_HOST) ? env.LANGFUSE_HOST : 'https://cloud.langfuse.com'));
    const pk = env.LANGFUSE_PUBLIC_KEY;
    const sk = env.LANGFUSE_SECRET_KEY;
    if (!present(pk) || !present(sk)) {
      if (!dryRun) throw new InputError('--to langfuse needs LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY in the environment');
      return { url: `${base}/api/public/scores`, headers: {}, secrets: [] };
    }
    const basic = Buffer.from(`${pk}:${sk}`).toString('base64');
    return { url: `${base}/api/public/scores`, headers: { authorization: `Basic ${basic}` }, secrets: [pk, sk, basic] };
  }
  if (target === 'phoenix') {
    // As Phoenix's own client reads them (packages/phoenix-client/src/phoenix/client/utils/config.py at 9478f954):
    // PHOENIX_ENDPOINT, then the collector's endpoint with its OTLP path taken off.
    const configured = present(env.PHOENIX_ENDPOINT)
      ? env.PHOENIX_ENDPOINT
      : present(env.PHOENIX_COLLECTOR_ENDPOINT)
        ? env.PHOENIX_COLLECTOR_ENDPOINT.replace(/\/+v1\/traces\/?$/u, '')
        : 'http://localhost:6006';
    const base = trimSlash(url ?? configured);
    const key = env.PHOENIX_API_KEY;
    // A local Phoenix runs without authentication: no key is no header.
    return present(key)
      ? { url: `${base}/v1/span_annotations`, headers: { authorization: `Bearer ${key}` }, secrets: [key] }
      : { url: `${base}/v1/span_annotations`, headers: {}, secrets: [] };
  }
  const logsUrl = url
    ? `${trimSlash(url)}/v1/logs`
    : present(env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT)
      ? env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT
      : `${trimSlash(present(env.OTEL_EXPORTER_OTLP_ENDPOINT) ? env.OTEL_EXPORTER_OTLP_ENDPOINT : 'http://localhost:4318')}/v1/logs`;
  const spec = present(env.OTEL_EXPORTER_OTLP_LOGS_HEADERS) ? env.OTEL_EXPORTER_OTLP_LOGS_HEADERS : (env.OTEL_EXPORTER_OTLP_HEADERS ?? '');
  const headers = otlpHeaders(spec);
  // A value such as `Bearer TOKEN` is secret whole and as its token (a server may echo either).
  const secrets = Object.values(headers)
    .filter(present)
    .flatMap((v) => [v, ...v.split(/\s+/u).slice(1).filter(present)]);
  return { url: logsUrl, headers, secrets };
}
