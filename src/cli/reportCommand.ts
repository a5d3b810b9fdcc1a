/** `toolscope report <trace> -o report.html`: the trace editor as one self-contained HTML file. */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AnalysisOptions } from '../core/analysis.ts';
import type { RecordSummary } from '../shared/protocol.ts';
import { embeddedTraces } from '../host/view/embeddedTrace.ts';
import { reportPageParts, type PageData } from '../host/view/pageHtml.ts';
import { expandInputs, InputError } from './analyzeCommand.ts';
import { STDIN_NAME, spoolInput, type SpooledInput } from './stdinTrace.ts';
import { nodeServices } from '../io/nodeServices.ts';
import { discardPrestartedGuidedWorker } from '../io/guided/guidedWorkerStart.ts';
import { traceThreads } from './traceJobs.ts';
import { embeddedTracesInParallel } from './parallelReport.ts';
import { writeOutput } from './writeOutput.ts';

/** dist/ holds cli.js next to webview.js and webview.css. */
function bundleDir(): string {
  return __dirname;
}

export async function writeReport(
  inputs: string[],
  out: string,
  { jobs, ...options }: AnalysisOptions & { jobs?: number } = {},
  input: NodeJS.ReadableStream = process.stdin,
): Promise<{ records: number; bytes: number; summaries: RecordSummary[] }> {
  const files = await expandInputs(inputs);
  if (files.filter((f) => f === STDIN_NAME).length > 1) throw new InputError('standard input (-) can be read only once');
  // Many files: built on worker threads (each with its own grammar engine), gathered in order. One file stays on this
  // thread unless --jobs says otherwise: over ranges of its records on two threads it took as long (0.94x, the bench's
  // 32 MB) for half as much CPU again; the page's views are the work, and they are no cheaper for being split.
  const threads = jobs === undefined && files.length === 1 ? 1 : await traceThreads(files, jobs);
  if (options.guided !== false && threads === 1) nodeServices().grammarEngine.warmUp();
  else void discardPrestartedGuidedWorker();
  let script: string;
  let style: string;
  try {
    script = await readFile(join(bundleDir(), 'webview.js'), 'utf8');
    style = await readFile(join(bundleDir(), 'webview.css'), 'utf8');
  } catch {
    throw new InputError(`the webview bundle is missing next to the CLI (${bundleDir()}); run npm run build`);
  }
  const title = inputs.length === 1 ? basename(inputs[0] as string) : `${files.length} traces`;
  let data: PageData;
  let spooled: SpooledInput | null = null;
  try {
    if (files.includes(STDIN_NAME)) spooled = await spoolInput(input);
    const sources = files.map((path) => ({ path: path === STDIN_NAME && spooled ? spooled.path : path, label: path }));
    const fullTitle = files.length === 1 ? title : `${title} (${files.length} files)`;
    data =
      threads > 1
        ? await embeddedTracesInParallel(files, fullTitle, options, threads)
        : await embeddedTraces(sources, fullTitle, 'report', options);
  } catch (err) {
    throw new InputError(`cannot read the traces: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await spooled?.dispose();
  }
  // To a temporary file renamed over `out` once complete: a failed write leaves the old report (writeOutput.ts).
  const bytes = await writeOutput(out, reportPageParts({ script, style, data, title: `Toolscope — ${title}` }));
  return { records: data.summaries.length, bytes, summaries: data.summaries };
}

/** Opens a file in the desktop's browser when there is a desktop; silently does nothing otherwise. */
export function openInBrowser(path: string): boolean {
  const { platform, env } = process;
  const opener =
    platform === 'darwin' ? 'open' : platform === 'win32' ? 'explorer' : env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : null;
  if (!opener) return false;
  try {
    const child = spawn(opener, [path], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
