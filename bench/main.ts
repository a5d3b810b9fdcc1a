/** `npm run bench`: performance figures as sizes and ratios (DESIGN §9). Budgets are reported, not asserted. */
import { benchParser } from './parserBench.ts';
import { benchTraceIndex } from './traceIndexBench.ts';
import { benchReplay } from './replayBench.ts';
import { benchProxy } from './proxyBench.ts';
import { benchGuided, benchGuidedWorker } from './guidedBench.ts';
import { benchVllmProfiles } from './vllmProfilesBench.ts';
import { benchTokenizers } from './tokenizerBench.ts';
import { benchFaults } from './faultsBench.ts';

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(line + '\n');
  log(`toolscope bench — node ${process.version}, ${new Date().toISOString()}`);
  log('');
  benchParser(log);
  log('');
  await benchTraceIndex(log);
  log('');
  await benchReplay(log);
  log('');
  await benchProxy(log);
  log('');
  await benchGuided(log);
  await benchGuidedWorker(log);
  log('');
  benchVllmProfiles(log);
  log('');
  benchTokenizers(log);
  log('');
  await benchFaults(log);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
