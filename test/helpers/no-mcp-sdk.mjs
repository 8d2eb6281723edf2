// Loaded with `node --import`: makes @modelcontextprotocol/sdk unresolvable, as after
// `npx -y flowblocks`, which does not install optional peers.
import { register } from 'node:module';

const hook = `
export async function resolve(specifier, context, next) {
  if (specifier === '@modelcontextprotocol/sdk' || specifier.startsWith('@modelcontextprotocol/sdk/')) {
    const error = new Error("Cannot find package '@modelcontextprotocol/sdk' imported from flowblocks");
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
