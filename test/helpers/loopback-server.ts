import type { Server } from 'node:net';

/**
 * Starts `server` on a free port of 127.0.0.1 (never another interface: a test server is no
 * one else's) and says where it listens.
 */
export async function listenOnLoopback(server: Server): Promise<{ port: number; origin: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server listens on no TCP port');
  return { port: address.port, origin: `http://127.0.0.1:${address.port}` };
}
