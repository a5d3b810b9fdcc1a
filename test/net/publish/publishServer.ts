/**
 * A loopback server standing in for Langfuse, Phoenix or an OTLP collector: it validates every request body against
 * the request schema written from the vendor's API description (test/fixtures/publish/), keeps every request, and
 * answers from a script (each entry one answer, then 200 with `ok` for the rest). A request that fails its schema
 * is answered 400 and recorded as invalid, so a test sees both.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/publish/${name}`, import.meta.url), 'utf8')) as object;

/** Request schemas by path. */
export const VALIDATORS = {
  '/api/public/scores': ajv.compile(schema('langfuse-create-score.json')),
  '/v1/span_annotations': ajv.compile(schema('phoenix-annotate-spans.json')),
  '/v1/logs': ajv.compile(schema('otlp-export-logs.json')),
} as const;

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** Schema errors, null when the body is valid. */
  invalid: string | null;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface PublishServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** `answer` is asked for each request (its index and the request) and may return null for the default: 200 `ok`. */
export async function startPublishServer(
  ok: (req: SeenRequest) => string,
  answer: (n: number, req: SeenRequest) => Answer | null = () => null,
): Promise<PublishServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      let body: unknown = null;
      let invalid: string | null = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const validate = VALIDATORS[path as keyof typeof VALIDATORS];
        if (!validate) invalid = `no such endpoint ${path}`;
        else if (!validate(body)) invalid = ajv.errorsText(validate.errors);
      } catch (err) {
        invalid = `not JSON: ${(err as Error).message}`;
      }
      const seen: SeenRequest = { method: req.method ?? '', path, headers: req.headers, body, invalid };
      requests.push(seen);
      if (invalid) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(invalid);
        return;
      }
      const a = answer(requests.length - 1, seen);
      res.writeHead(a?.status ?? 200, { 'content-type': 'application/json', ...(a?.headers ?? {}) });
      res.end(a?.body ?? ok(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What each target's server answers a good request with, as its API description says. */
export const OK_ANSWERS = {
  langfuse: (req: SeenRequest) => JSON.stringify({ id: (req.body as { id: string }).id }),
  phoenix: (req: SeenRequest) =>
    JSON.stringify({ data: (req.body as { data: unknown[] }).data.map((_, i) => ({ id: `annotation-${i}` })) }),
  otlp: () => JSON.stringify({}),
};
