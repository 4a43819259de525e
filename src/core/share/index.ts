// Share links, redaction and workspace bundles (see link.ts for the link format).
export * from './link.ts';
export * from './redact.ts';
export * from '../document/redactionMarkers.ts';
export * from './bundle.ts';
export { DICTIONARY_V1_TEXT } from './dictionary.ts';
