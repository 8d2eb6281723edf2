/**
 * A block icon: line drawing on a 24×24 grid in `currentColor`, so an editor can put it on
 * the block's colour. `shapes` is the SVG markup inside the `<svg>` element.
 */
export function lineIcon(...shapes: string[]): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">' +
    shapes.join('') +
    '</svg>'
  );
}
