/**
 * The recording proxy's command the extension's entry registers before the proxy's module is loaded (the status bar
 * item recordingProxyCommand.ts shows runs it).
 */
export const OPEN_RECORDING_COMMAND = 'toolscope.openRecordingTrace';
