/** `toolscope report <trace> -o report.html`: the trace editor as one self-contained HTML file. */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AnalysisOptions } from '../core/analysis.ts';
import { embeddedTrace } from '../core/view/embeddedTrace.ts';
import { reportPageHtml } from '../core/view/pageHtml.ts';
import { InputError } from './analyzeCommand.ts';

/** dist/ holds cli.js next to webview.js and webview.css. */
function bundleDir(): string {
  return __dirname;
}

export async function writeReport(trace: string, out: string, options: AnalysisOptions = {}): Promise<{ records: number; bytes: number }> {
  let script: string;
  let style: string;
  try {
    script = await readFile(join(bundleDir(), 'webview.js'), 'utf8');
    style = await readFile(join(bundleDir(), 'webview.css'), 'utf8');
  } catch {
    throw new InputError(`the webview bundle is missing next to the CLI (${bundleDir()}); run npm run build`);
  }
  let data;
  try {
    data = await embeddedTrace(trace, basename(trace), 'report', options);
  } catch (err) {
    throw new InputError(`cannot read ${trace}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const html = reportPageHtml({ script, style, data, title: `Toolscope — ${basename(trace)}` });
  await writeFile(out, html, 'utf8');
  return { records: data.summaries.length, bytes: Buffer.byteLength(html) };
}
