/**
 * The moments of opening a trace in the editor (the extension's bundle loading, activation, the document opened, the
 * webview created, its page written, its first message, the first record sent, the list's last findings sent), for
 * the workbench e2e test, which prints the open → first paint path split into them (the webview marks its own side:
 * test/workbench/e2e.test.ts). Written only when TOOLSCOPE_OPEN_MARKS names a file (one JSON line per mark: its name,
 * the file it is about, the epoch time in ms and the process's CPU time in ms); otherwise nothing happens.
 */
import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';

const target = process.env.TOOLSCOPE_OPEN_MARKS;

export function openMark(name: string, file?: string, detail?: Record<string, number | boolean>): void {
  if (!target) return;
  try {
    // `cpu`: the extension host process's CPU time so far, ms (a busy machine stretches the times, not this).
    const { user, system } = process.cpuUsage();
    const cpu = Math.round((user + system) / 1000);
    appendFileSync(
      target,
      JSON.stringify({ mark: name, file: file === undefined ? null : basename(file), at: Date.now(), cpu, ...detail }) + '\n',
    );
  } catch {
    // A mark is never worth a failure.
  }
}
