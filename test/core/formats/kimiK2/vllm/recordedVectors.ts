/**
 * The recorded vLLM Kimi K2 vectors beside the repo (`../shared/data/vllm-kimi`) and their replay through a
 * profile. Absent outside the steering checkout: callers skip then.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { planDeltas, pseudoTokenize, type DeltaGrouping, type VllmDelta } from '../../../../../src/core/formats/kimiK2/vllm/vllmDeltas.ts';
import type {
  VllmDeltaMessage,
  VllmExtraction,
  VllmGeneration,
  VllmProfile,
} from '../../../../../src/core/formats/kimiK2/vllm/vllmProfile.ts';

export const VLLM_KIMI_DIR = fileURLToPath(new URL('../../../../../../shared/data/vllm-kimi/', import.meta.url));

export const VECTOR_SETS = ['basic', 'vllm-tests', 'vllm-tests-genA-era'] as const;
export type VectorSet = (typeof VECTOR_SETS)[number];

export interface Vector {
  name: string;
  text?: string;
  chunk_tokens?: number;
  deltas?: Array<string | [string, number[]]>;
}

export interface RecordedOutput {
  name: string;
  nonstream?: VllmExtraction;
  deltas: string[];
  stream: Array<VllmDeltaMessage | { __finish__: VllmDeltaMessage | null } | null>;
}

export const sharedPresent = (): boolean => existsSync(VLLM_KIMI_DIR);

const readJson = <T>(name: string): T => JSON.parse(readFileSync(VLLM_KIMI_DIR + name, 'utf8')) as T;

export const readVectors = (set: VectorSet): Vector[] => readJson<Vector[]>(`vectors-${set}.json`);
export const readOutputs = (set: VectorSet, gen: VllmGeneration): RecordedOutput[] =>
  readJson<RecordedOutput[]>(`outputs-${set}.gen${gen}.json`);

/** How the recording cut a text vector into deltas: at special tokens, or N pseudo-tokens per delta. */
export function groupingOf(vector: Vector): DeltaGrouping {
  return vector.chunk_tokens === undefined ? { kind: 'specials' } : { kind: 'tokens', perDelta: vector.chunk_tokens };
}

/**
 * The deltas fed to a generation. Explicit ids are used as given, except for C, which was fed a re-tokenised
 * text (as recorded); everything else is split into pseudo-tokens along the recorded delta texts.
 */
export function deltasFor(vector: Vector, recorded: readonly string[], gen: VllmGeneration) {
  const explicit = vector.deltas?.every((d) => Array.isArray(d)) ? (vector.deltas as Array<[string, number[]]>) : null;
  const plan = planDeltas(pseudoTokenize(recorded.join('')), { kind: 'recorded', texts: recorded });
  if (explicit && gen !== 'C') {
    const deltas: VllmDelta[] = explicit.map(([text, ids]) => ({ text, ids }));
    return { deltas, decodeToken: plan.decodeToken };
  }
  return plan;
}

export interface Replay {
  stream: Array<VllmDeltaMessage | null>;
  finish: VllmDeltaMessage | null;
  nonstream: VllmExtraction;
}

export function replay(profile: VllmProfile, vector: Vector, recorded: RecordedOutput): Replay {
  const { deltas, decodeToken } = deltasFor(vector, recorded.deltas, profile.generation);
  const parser = profile.createStreamParser({ decodeToken });
  const stream = deltas.map((d) => parser.push(d.text, d.ids));
  const finish = parser.finish();
  return { stream, finish, nonstream: profile.extract(recorded.deltas.join('')) };
}

/** The recorded per-delta messages and final flush in the same shape as a replay. */
export function expected(
  recorded: RecordedOutput,
  profile: VllmProfile,
): { stream: Array<VllmDeltaMessage | null>; finish: VllmDeltaMessage | null } {
  const stream = [...recorded.stream];
  let finish: VllmDeltaMessage | null = null;
  if (profile.hasFinish) {
    const last = stream.pop();
    if (!last || !('__finish__' in last)) throw new Error(`${recorded.name}: no recorded finish`);
    finish = last.__finish__;
  }
  return { stream: stream as Array<VllmDeltaMessage | null>, finish };
}
