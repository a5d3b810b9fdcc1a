/**
 * A list worker's entry as listWorkers.ts starts it (dist/listWorker.js): it loads the list worker itself
 * (listWorker.ts, bundled as dist/listWorker-main.js) through V8's code cache, as the extension's entry loads the
 * extension (src/extension/extensionEntry.ts). Each editor's first big trace starts a list worker, which compiled its
 * 2.3 MB bundle (144–284 ms of the thread before its first row) and then each function the list runs. The cache is
 * written a while after the worker starts, so the functions its first ranges ran are in it; a missing or bad cache
 * only means a normal load (and a new cache).
 */
import { join } from 'node:path';
import { compileWithCodeCache } from '../../io/cache/codeCache.ts';

/** How long after the worker starts the cache is written: its first ranges have compiled what the list needs by then. */
const SAVE_AFTER_MS = 5_000;

compileWithCodeCache(join(__dirname, 'listWorker-main.js'), '', (save) => setTimeout(save, SAVE_AFTER_MS).unref())();
