/** `flowblocks preview`: a local page that renders every block from its manifest and runs it. */
export { startPreviewServer, type PreviewServer, type PreviewServerOptions } from './server.js';
export { sandboxConnection, endpointConnection, type PreviewConnection } from './connection.js';
export type { BlocksResponse, PreviewBlock } from './api.js';
