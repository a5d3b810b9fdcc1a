/** The delta types live in the protocol layer (src/shared/parserDelta.ts), which the webview shares; named here for the domain. */
export * from '../../shared/parserDelta.ts';
