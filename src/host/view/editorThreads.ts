/**
 * How many threads the trace editor runs its list and its what-ifs on: set once by the editor (traceEditorProvider.ts)
 * and by the bench that measures its pipeline (bench/editorTraceBench.ts), so both measure and run the same.
 */
import { availableParallelism } from 'node:os';
import { guidedEngine } from '../../io/guided/guidedEnginePool.ts';
import { listWorkers } from './listWorkers.ts';

export function configureEditorThreads(cores = availableParallelism()): void {
  // The list's what-ifs on two grammar threads at least (the record in view first, guidedEnginePool.ts): one thread
  // starved while this one analysed a batch.
  guidedEngine().setWorkers(Math.min(4, Math.max(2, cores - 1)));
  // A big trace's list is analysed on threads of its own (about 20 s of CPU for 200 MB), this thread answering
  // the user meanwhile: one per core but one (the host's thread, the grammar engines and the page share that one);
  // on a loaded 2-core machine two list workers took more CPU and longer than one thread (CHANGELOG).
  listWorkers().setWorkers(Math.min(4, Math.max(1, cores - 1)));
}
