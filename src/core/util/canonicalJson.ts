/** Canonical JSON lives in the protocol layer (src/shared/canonicalJson.ts), which the webview shares; named here for the domain. */
export * from '../../shared/canonicalJson.ts';
