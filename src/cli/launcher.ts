/**
 * `toolscope`'s entry point (dist/cli.js), kept tiny so the first milliseconds go to what the command needs:
 * for `analyze` (unless --no-guided) the grammar-engine worker is started before anything else, so its thread and
 * xgrammar's WASM module start while this thread loads the CLI bundle (dist/cli-main.js, through V8's code cache:
 * codeCache.ts) and reads the traces. Everything else is main.ts.
 */
import { join } from 'node:path';
import { prestartGuidedWorker } from '../core/guided/guidedWorkerStart.ts';
import { requireWithCodeCache } from './codeCache.ts';
import { startupMark } from '../core/util/startupMarks.ts';

startupMark('launcher');

const args = process.argv.slice(2);
if ((args[0] === 'analyze' || args[0] === 'report') && !args.includes('--no-guided') && !args.includes('--help') && !args.includes('-h')) {
  prestartGuidedWorker(join(__dirname, 'guidedWorker.js'));
}
const cli = requireWithCodeCache(join(__dirname, 'cli-main.js')) as { runCli(): void };
startupMark('bundle-loaded');
cli.runCli();
