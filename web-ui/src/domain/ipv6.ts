// IPv6 text <-> eight 16-bit groups, enough for uSID carriers (no embedded IPv4, no zones).

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Parses an IPv6 address into 8 groups; undefined when the text is not a plain IPv6 address. */
export function parseIPv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':');
    if (!groups.every((g) => HEX_GROUP.test(g))) return undefined;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parse(halves[0] ?? '');
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined; // "::" stands for at least one zero group
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * RFC 5952 text: lowercase hex without leading zeros; the longest run of two or more zero
 * groups (the first one on a tie) becomes "::".
 */
export function formatIPv6(groups: readonly number[]): string {
  if (groups.length !== 8) throw new Error(`an IPv6 address has 8 groups, got ${groups.length}`);
  let bestStart = -1;
  let bestLength = 1; // a single zero group is never compressed
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
