import type { Service } from '../harness/define/service.js';
import { defineBlock, type Block } from './define-block.js';

/**
 * A service's block: its name, description, colour, icon and docs, and one operation per
 * tool in the service's order. An operation's id is the tool id without `<service>_` and its
 * label the tool's name, unless the service's `block.operations` says otherwise.
 */
export function serviceBlock(service: Service): Block {
  const prefix = `${service.id}_`;
  return defineBlock({
    type: service.id,
    name: service.name,
    description: service.description,
    color: service.color,
    icon: service.icon,
    docsUrl: service.docsUrl,
    catalog: service.block?.catalog,
    operations: service.tools.map((tool) => {
      const own = service.block?.operations?.[tool.id];
      const id = own?.id ?? (tool.id.startsWith(prefix) ? tool.id.slice(prefix.length) : tool.id);
      return { id, label: own?.label ?? tool.name, tool };
    }),
  });
}
