/**
 * The known name closest to a mistyped one, for "did you mean" hints (an unknown param, tool
 * id or command). Plain Levenshtein distance over a handful of names: a few lines, so no
 * dependency (the package's runtime dependencies stay zod and undici; docs/decisions.md, "The runtime
 * dependencies are zod and undici").
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // Close enough to be the same word mistyped: up to half the longer name, at least 2 edits.
    const limit = Math.max(2, Math.floor(Math.max(name.length, candidate.length) / 2));
    // The distance is at least the difference in length: a name far longer than any known one
    // (a hostile key of megabytes) is passed over without its quadratic comparison.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: an early out; the distance check below gives the same answer
    if (Math.abs(name.length - candidate.length) > limit) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean 'x'?)` when a known name is close, else the empty string. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const closest = closestName(name, known);
  return closest === undefined ? '' : ` (did you mean '${closest}'?)`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}
