/** The `toolscope.vllmProfile` setting: the vLLM generation whose answer the trace editor and Analyze Trace add. */
import * as vscode from 'vscode';
import { vllmProfileFromSetting } from '../core/formats/kimiK2/vllm/vllmProfiles.ts';
import type { VllmGeneration } from '../core/formats/kimiK2/vllm/vllmProfile.ts';

export const VLLM_PROFILE_SETTING = 'toolscope.vllmProfile';

const warned = new Set<string>();

/** The profile for traces at `uri` (undefined: off); an unknown value is reported once and read as `off`. */
export function vllmProfileSettingFor(uri: vscode.Uri): VllmGeneration | undefined {
  const { profile, invalid } = vllmProfileFromSetting(vscode.workspace.getConfiguration('toolscope', uri).get<unknown>('vllmProfile'));
  if (invalid !== null && !warned.has(invalid)) {
    warned.add(invalid);
    void vscode.window.showWarningMessage(`Toolscope: the setting ${VLLM_PROFILE_SETTING} is "${invalid}", which is not a vLLM profile (off, A, B or C). No vLLM profile is shown.`);
  }
  return profile;
}
