// Entropy values: 16 bits carried as the RoCEv2 UDP source port, EV1 = high byte (read by the
// first-hop switch), EV2 = low byte (second hop). A table of n members picks EVbyte mod n. Same
// rules as every Weft component, checked against contracts/vectors/ev.json.

export const MAX_TABLE_SIZE = 256;
/** RoCEv2 source ports live in 0xC000-0xFFFF by convention: EV1 is taken there when it can be. */
const ROCE_HIGH_BYTE = 0xc0;

/** The error codes of the shared vectors, checked in this order. */
export type EvErrorCode = 'table-size' | 'index-out-of-range' | 'not-encodable';

export class EvError extends Error {
  override name = 'EvError';
  constructor(
    readonly code: EvErrorCode,
    message: string,
  ) {
    super(`${message} (${code})`);
  }
}

export interface EntropyValue {
  ev: number;
  ev1: number;
  ev2: number;
}

function checkSize(field: string, n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_TABLE_SIZE) {
    throw new EvError('table-size', `${field}: table size ${n} is outside 1..${MAX_TABLE_SIZE}`);
  }
}

/** The smallest byte in [lo, hi] that is congruent to index modulo size, if any. */
function smallestIn(lo: number, hi: number, size: number, index: number): number | undefined {
  const b = lo + ((((index - lo) % size) + size) % size);
  return b <= hi ? b : undefined;
}

/** The EV selecting member i1 of n1 at the first hop and i2 of n2 at the second (never 0). */
export function encodeEv(n1: number, i1: number, n2 = 1, i2 = 0): EntropyValue {
  checkSize('n1', n1);
  checkSize('n2', n2);
  for (const [field, i, n] of [
    ['i1', i1, n1],
    ['i2', i2, n2],
  ] as const) {
    if (!Number.isInteger(i) || i < 0 || i >= n) {
      throw new EvError('index-out-of-range', `${field}: index ${i} is outside 0..${n - 1}`);
    }
  }
  const ev1 = smallestIn(ROCE_HIGH_BYTE, 0xff, n1, i1) ?? smallestIn(0x01, ROCE_HIGH_BYTE - 1, n1, i1) ?? 0;
  let ev2 = i2;
  if (ev1 === 0 && ev2 === 0) {
    // Port 0 is not a valid UDP port; n2 mod n2 selects the same member.
    if (n2 === MAX_TABLE_SIZE) {
      throw new EvError('not-encodable', `n1=${n1} i1=${i1} n2=${n2} i2=${i2} only encodes as port 0`);
    }
    ev2 = n2;
  }
  return { ev: ev1 * 256 + ev2, ev1, ev2 };
}

/** The members an EV selects in tables of n1 and n2 members: what the switches do. */
export function decodeEv(ev: number, n1: number, n2 = 1): { i1: number; i2: number } {
  if (!Number.isInteger(ev) || ev < 0 || ev > 0xffff) throw new RangeError(`ev ${ev} is not a 16-bit value`);
  checkSize('n1', n1);
  checkSize('n2', n2);
  return { i1: (ev >> 8) % n1, i2: (ev & 0xff) % n2 };
}
