/**
 * Pieces of an n8n workflow as `n8n import:workflow` takes them, for the tests and the bench
 * that run workflows in a real n8n (scripts/n8n-host.ts).
 */

/** A node at the origin (n8n does not need a layout to run); `extra` adds `credentials`, `onError`. */
export const workflowNode = (name: string, type: string, typeVersion: number, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: name.replaceAll(' ', '-'),
  name,
  type,
  typeVersion,
  position: [0, 0],
  parameters,
  ...extra,
});

/** A node's `credentials` entry naming an imported credential (its id and name the same). */
export const credentialRef = (type: string, id: string) => ({ [type]: { id, name: id } });
