/** The token types live in the protocol layer (src/shared/token.ts), which the webview shares; named here for the domain. */
export * from '../../shared/token.ts';
