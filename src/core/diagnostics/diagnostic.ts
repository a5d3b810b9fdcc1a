/** The finding types live in the protocol layer (src/shared/diagnostic.ts), which the webview shares; named here for the checks. */
export * from '../../shared/diagnostic.ts';
