/**
 * What the built-in commands (`list`, `blocks`, `schema`, `manifest`, `run`) load on first use:
 * the consumer API and the block manifest file. One module, so the bundle splits no shared chunk
 * for `manifest` alone and a tool entry still loads the files it did.
 */
export * from '../../index.js';
export { blockManifestFile } from '../../blocks/manifest-file.js';
