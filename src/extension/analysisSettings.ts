/**
 * The analysis options the editor's settings give for a trace: one set for the trace editor and Analyze Trace, as
 * the CLI's analyze and report share one (withAnalysisOptions in src/cli/main.ts). Each setting reads and validates
 * itself in its own module; a new analysis setting is added here once.
 */
import type * as vscode from 'vscode';
import type { AnalysisOptions } from '../core/analysis.ts';
import { formatSettingFor } from './formatSetting.ts';
import { ignoreSettingFor } from './ignoreSetting.ts';
import { maxCompletionMBFor } from './sizeLimitSetting.ts';
import { templateSettingFor } from './templateSetting.ts';
import { tokenizerSettingFor } from './tokenizerSetting.ts';
import { vllmProfileSettingFor, vllmReasoningParserSettingFor } from './vllmProfileSetting.ts';

export async function analysisSettingsFor(uri: vscode.Uri): Promise<AnalysisOptions> {
  return {
    format: formatSettingFor(uri),
    template: await templateSettingFor(uri),
    vllmProfile: vllmProfileSettingFor(uri),
    tokenizers: tokenizerSettingFor(uri),
    vllmReasoningParser: vllmReasoningParserSettingFor(uri),
    ignore: ignoreSettingFor(uri),
    maxCompletionMB: maxCompletionMBFor(uri),
  };
}
