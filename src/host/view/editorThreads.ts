/**
 * How many threads the trace editor runs its list and its what-ifs on: set once by the editor (traceEditorProvider.ts)
 * and by the bench that measures its pipeline (bench/editorTraceBench.ts), so both measure and run the same.
 */
import { availableParallelism } from 'node:os';
import { guidedEngine } from '../../io/guided/guidedEnginePool.ts';
import { listWorkers } from './listWorkers.ts';

export function configureEditorThreads(cores = availableParallelism()): void {
  // A big trace's list is analysed on threads of its own (about 20 s of CPU for 200 MB), each running its rows'
  // what-ifs on a grammar worker of its own (listWorker.ts) rather than through this thread (five hops a record,
  // 175 MB crossing threads for 200 MB; bench --editor-trace). One per core but one: the page scrolling the list
  // needs the last (one per core, on this 2-core machine at load 16-22, the e2e's scroll frames went from p95 83-117
  // ms to 217-467 ms). Measured again on a quiet machine (load 2-3): two list workers filled the 200 MB trace's what-ifs
  // in 23.1 s against 23.3 s with one (the workbench and Chromium take the other core) and scrolled worse (9 long
  // tasks, worst frame 200 ms, against 1 and 67 ms).
  listWorkers().setWorkers(Math.min(4, Math.max(1, cores - 1)));
  // This thread's grammar engine: the record shown, and the lists of traces this thread lists itself (small ones,
  // a big one's first rows). One worker holding a few what-ifs at once (not one: it waited for this thread's turn
  // between two), few enough that the record shown does not wait long behind the list's.
  guidedEngine().setWorkers(Math.min(4, Math.max(1, cores - 1)));
  guidedEngine().setLaneDepth(4);
}
