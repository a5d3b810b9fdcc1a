/**
 * The one workspace-trust check of the commands that send requests to a server (replay, evaluation, the recording
 * proxy): refused in an untrusted workspace, with the reason and a way to trust it.
 */
import * as vscode from 'vscode';

/** True when the workspace is trusted; otherwise says "`what` is disabled …, because `why`" and returns false. */
export function trustedFor(what: string, why: string, verb: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window
    .showWarningMessage(
      `Toolscope: ${what} is disabled in untrusted workspaces, because ${why}. Trust the workspace to ${verb}.`,
      'Manage Workspace Trust',
    )
    .then((c) => {
      if (c) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  return false;
}
