/**
 * A block's SVG icon as a component in Sim's `apps/sim/components/icons.tsx` style
 * (`export function XIcon(props: SVGProps<SVGSVGElement>)`, JSX with single-quoted attributes),
 * for the files `flowblocks sim-blocks` writes. The SVG is read by a strict tokenizer that knows
 * only the elements and attributes of a line icon: anything else (a script, an event handler,
 * text, a comment) stops the generation instead of reaching a fork's source. A value is
 * written as `name='value'` when it holds no quote or backslash (JSX strings have no escapes),
 * else as `name={'…'}` through `jsString`, so none can leave its literal.
 */
import { jsString, SIM_LINE_WIDTH } from './native-source.js';

/** SVG attributes a line icon uses, in React's spelling. */
const ATTRIBUTES: ReadonlyMap<string, string> = new Map([
  ...['viewBox', 'fill', 'stroke', 'd', 'x', 'y', 'cx', 'cy', 'r', 'rx', 'ry', 'width', 'height', 'x1', 'y1', 'x2', 'y2', 'points', 'transform', 'opacity'].map(
    (name) => [name, name] as const,
  ),
  ['xmlns', 'xmlns'],
  ['stroke-width', 'strokeWidth'],
  ['stroke-linecap', 'strokeLinecap'],
  ['stroke-linejoin', 'strokeLinejoin'],
  ['fill-rule', 'fillRule'],
  ['clip-rule', 'clipRule'],
  ['fill-opacity', 'fillOpacity'],
  ['stroke-opacity', 'strokeOpacity'],
]);
const ELEMENTS: ReadonlySet<string> = new Set(['svg', 'g', 'path', 'circle', 'rect', 'ellipse', 'line', 'polyline', 'polygon']);

interface SvgNode {
  name: string;
  attributes: [string, string][];
  children: SvgNode[];
}

/** One tag: `<name a="v" …>`, `<name … />` or `</name>`, with nothing else around it but white space. */
const TAG = /\s*<(\/?)([a-z]+)((?:\s+[A-Za-z:-]+="[^"<>]*")*)\s*(\/?)>/y;
const ATTRIBUTE = /\s+([A-Za-z:-]+)="([^"<>]*)"/gy;

function parseSvg(svg: string, where: string): SvgNode {
  const stack: SvgNode[] = [];
  let root: SvgNode | undefined;
  TAG.lastIndex = 0;
  while (TAG.lastIndex < svg.trimEnd().length) {
    const at = TAG.lastIndex;
    const tag = TAG.exec(svg);
    if (!tag) throw new Error(`${where}: its icon is not a plain SVG line icon (at character ${at})`);
    const [, closing, name = '', attributeText = '', selfClosing] = tag;
    if (!ELEMENTS.has(name)) throw new Error(`${where}: its icon has a <${name}> element, which a Sim icon file does not take`);
    if (closing) {
      if (stack.pop()?.name !== name) throw new Error(`${where}: its icon closes <${name}> out of order`);
      continue;
    }
    const attributes: [string, string][] = [];
    for (const [, attribute = '', value = ''] of attributeText.matchAll(ATTRIBUTE)) {
      const react = ATTRIBUTES.get(attribute);
      if (!react) throw new Error(`${where}: its icon has the attribute ${attribute}, which a Sim icon file does not take`);
      attributes.push([react, value]);
    }
    const node: SvgNode = { name, attributes, children: [] };
    const parent = stack.at(-1);
    if (parent) parent.children.push(node);
    else if (root) throw new Error(`${where}: its icon has more than one root element`);
    else root = node;
    if (!selfClosing) stack.push(node);
  }
  if (!root || root.name !== 'svg' || stack.length > 0) throw new Error(`${where}: its icon is not one complete <svg> element`);
  return root;
}

/** An element's attributes as JSX; `xmlns` last and `{...props}` first on the root, as Sim's icons have them. */
function attributesOf(node: SvgNode, root: boolean): string[] {
  const attributes = node.attributes
    .filter(([name]) => name !== 'xmlns')
    .map(([name, value]) => (value.includes("'") || value.includes('\\') ? `${name}={${jsString(value)}}` : `${name}='${value}'`));
  return root ? ['{...props}', ...attributes, "xmlns='http://www.w3.org/2000/svg'"] : attributes;
}

/** The element as biome prints JSX: on one line when it fits (or has one attribute), else one attribute a line. */
function render(node: SvgNode, indent: string, root: boolean): string[] {
  const attributes = attributesOf(node, root);
  const open = `<${node.name}${attributes.map((a) => ` ${a}`).join('')}`;
  const fits = (line: string) => indent.length + line.length <= SIM_LINE_WIDTH || attributes.length <= 1;
  const head = (end: string): string[] =>
    fits(`${open}${end}`) ? [`${indent}${open}${end}`] : [`${indent}<${node.name}`, ...attributes.map((a) => `${indent}  ${a}`), `${indent}${end.trim()}`];
  if (node.children.length === 0) return head(' />');
  return [...head('>'), ...node.children.flatMap((child) => render(child, `${indent}  `, false)), `${indent}</${node.name}>`];
}

/** `export function <name>(props: SVGProps<SVGSVGElement>) { return (<svg …>) }`, as Sim writes its icons. */
export function simIconComponent(name: string, svg: string, where: string): string {
  const lines = render(parseSvg(svg, where), '    ', true);
  return [`export function ${name}(props: SVGProps<SVGSVGElement>) {`, '  return (', ...lines, '  )', '}'].join('\n');
}
