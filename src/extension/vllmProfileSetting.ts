/** The `toolscope.vllmProfile` setting: the vLLM generation whose answer the trace editor and Analyze Trace add. */
import * as vscode from 'vscode';
import { vllmProfileFromSetting } from '../core/formats/engineGenerations.ts';
import type { VllmGeneration } from '../core/formats/engineRun.ts';

export const VLLM_PROFILE_SETTING = 'toolscope.vllmProfile';
export const VLLM_REASONING_PARSER_SETTING = 'toolscope.vllmReasoningParser';

const warned = new Set<string>();

/** The profile for traces at `uri` (undefined: off); an unknown value is reported once and read as `off`. */
export function vllmProfileSettingFor(uri: vscode.Uri): VllmGeneration | undefined {
  const { profile, invalid } = vllmProfileFromSetting(vscode.workspace.getConfiguration('toolscope', uri).get<unknown>('vllmProfile'));
  if (invalid !== null && !warned.has(invalid)) {
    warned.add(invalid);
    void vscode.window.showWarningMessage(
      `Toolscope: the setting ${VLLM_PROFILE_SETTING} is "${invalid}", which is not a vLLM profile (off, A, B or C). No vLLM profile is shown.`,
    );
  }
  return profile;
}

/** `toolscope.vllmReasoningParser`: false models a server started without `--reasoning-parser` (undefined: on). */
export function vllmReasoningParserSettingFor(uri: vscode.Uri): boolean | undefined {
  const value = vscode.workspace.getConfiguration('toolscope', uri).get<unknown>('vllmReasoningParser');
  return typeof value === 'boolean' ? value : undefined;
}
