/** `toolscope eval verify <results.jsonl>`: checks the file's hash chain; exit 1 naming each edited, added or removed line. */
import { readFile } from 'node:fs/promises';
import { verifyChain } from '../host/eval/resultsChain.ts';
import { InputError } from './analyzeCommand.ts';
import { escapedJson, terminalText } from '../host/report/terminalText.ts';

/** Simulated answers are named apart from a model's: a checked chain vouches for the lines, not for a model. */
function simulationNote(simulated: number, verified: number): string {
  if (simulated === 0) return '';
  if (simulated === verified) return ", all simulated answers (Toolscope's embedded endpoint, not a model)";
  return `, ${simulated} of them simulated answers (Toolscope's embedded endpoint), ${verified - simulated} a model's`;
}

export async function evalVerifyCommand(path: string, options: { json?: boolean }, out: NodeJS.WritableStream): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${(err as Error).message}`);
  }
  const report = verifyChain(text);
  const ok = report.problems.length === 0 && report.verified > 0;
  if (options.json) {
    out.write(escapedJson({ file: path, ok, ...report }) + '\n');
    return ok ? 0 : 1;
  }
  if (report.verified === 0 && report.problems.length === 0) {
    out.write(`${path}: no lines\n`);
    return 1;
  }
  // A problem can quote the file (a duplicated key): escaped (terminalText.ts).
  for (const p of report.problems) out.write(`${terminalText(path)}:${p.line}: ${terminalText(p.message)}\n`);
  out.write(
    ok
      ? `${path}: ${report.verified} line(s), chain intact${simulationNote(report.simulated, report.verified)}; last hash ${report.last?.hash ?? ''} (keep it: a cut after the last line only shows against it)\n`
      : `${path}: ${report.problems.length} problem(s), ${report.verified} line(s) check out\n`,
  );
  return ok ? 0 : 1;
}
