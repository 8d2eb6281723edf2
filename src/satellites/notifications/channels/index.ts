import { createHash } from 'node:crypto';
import type { DispatcherLike } from '../../../harness/types.js';
import type { Target } from '../queue.js';
import type { Channel } from '../settings.js';
import { chatTarget } from './chat.js';
import { emailTarget } from './email.js';
import { webhookTarget } from './webhook.js';

/** A stable, secret-free key per destination, so a restart finds a pending delivery's target again. */
function keyOf(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

/** Where the channels deliver: one target per webhook and chat channel, one per e-mail recipient. */
export function buildTargets(
  channels: readonly Channel[],
  deps: { dispatcher: DispatcherLike | undefined; now: () => number; endpoints?: Record<string, string> },
): Target[] {
  return channels.flatMap((channel): Target[] => {
    switch (channel.type) {
      case 'webhook':
        return [webhookTarget(keyOf('webhook', channel.url), channel, deps.dispatcher, deps.now)];
      case 'chat':
        return [chatTarget(keyOf('chat', channel.url), channel.url, deps.dispatcher)];
      case 'email':
        return channel.recipients.map((recipient) =>
          emailTarget(
            keyOf('email', channel.transactionalId, recipient),
            { recipient, transactionalId: channel.transactionalId, apiKey: channel.apiKey, endpoint: channel.endpoint },
            deps.dispatcher,
            deps.endpoints,
          ),
        );
    }
  });
}
