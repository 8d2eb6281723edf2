/**
 * The rules of OpenAI's and Anthropic's strict tool use, written from their documentation
 * and independent of the code that builds the strict schemas:
 * - the root is an object schema (no union at the root);
 * - every object lists every property in `required` and has `additionalProperties: false`;
 * - only keywords both accept: type (one name), properties, required, additionalProperties,
 *   items, enum, const, anyOf, description — no lengths, bounds, patterns, formats, defaults,
 *   propertyNames, oneOf/allOf/not, $schema;
 * - every node says what it is (a type, a union, an enum or a const): no open `{}`;
 * - at most 10 levels of nesting, 5000 properties and 1000 enum values (OpenAI's limits).
 */
const ALLOWED = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description']);
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

export function strictViolations(schema: unknown): string[] {
  const problems: string[] = [];
  let properties = 0;
  let enumValues = 0;
  const root = schema as Record<string, unknown>;
  if (root?.type !== 'object') problems.push('$: the root must be an object schema');

  const visit = (node: unknown, path: string, depth: number) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return void problems.push(`${path}: not a schema object`);
    const n = node as Record<string, unknown>;
    if (depth > 10) problems.push(`${path}: nested deeper than 10 levels`);
    for (const key of Object.keys(n)) if (!ALLOWED.has(key)) problems.push(`${path}: keyword ${key} is refused in strict mode`);
    if (n.type === undefined && n.anyOf === undefined && n.enum === undefined && n.const === undefined) problems.push(`${path}: says nothing about its type`);
    if (n.type !== undefined && !(typeof n.type === 'string' && TYPES.has(n.type))) problems.push(`${path}: type must be one type name`);
    if (Array.isArray(n.enum)) enumValues += n.enum.length;
    if (n.type === 'object') {
      const props = (n.properties ?? {}) as Record<string, unknown>;
      if (n.properties === undefined) problems.push(`${path}: an object needs properties`);
      if (n.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const required = Array.isArray(n.required) ? (n.required as string[]) : [];
      for (const name of Object.keys(props)) {
        properties++;
        if (!required.includes(name)) problems.push(`${path}.${name}: not in required`);
        visit(props[name], `${path}.${name}`, depth + 1);
      }
      for (const name of required) if (!(name in props)) problems.push(`${path}: required names a missing property ${name}`);
    } else if (n.properties !== undefined || n.required !== undefined || n.additionalProperties !== undefined) {
      problems.push(`${path}: object keywords on a non-object`);
    }
    if (n.type === 'array') {
      if (n.items === undefined) problems.push(`${path}: an array needs items`);
      else visit(n.items, `${path}[]`, depth + 1);
    }
    if (n.anyOf !== undefined) {
      if (path === '$') problems.push('$: no union at the root');
      if (!Array.isArray(n.anyOf) || n.anyOf.length === 0) problems.push(`${path}: anyOf must be a non-empty list`);
      else n.anyOf.forEach((branch, i) => visit(branch, `${path}|${i}`, depth));
    }
  };
  visit(schema, '$', 1);
  if (properties > 5000) problems.push(`$: ${properties} properties, over 5000`);
  if (enumValues > 1000) problems.push(`$: ${enumValues} enum values, over 1000`);
  return problems;
}
