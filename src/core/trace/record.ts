/** The native record types live in the protocol layer (src/shared/record.ts), which the webview shares; named here for the domain. */
export * from '../../shared/record.ts';
