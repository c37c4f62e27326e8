// uSID carriers: the fabric's 32-bit block followed by up to six 16-bit uSIDs in one IPv6
// address; longer lists are split in order into chunks of six, one carrier each. Same rules as
// every Weft component, checked against contracts/vectors/usid-carriers.json.
import { formatIPv6, parseIPv6 } from './ipv6';

export const USIDS_PER_CARRIER = 6;
export const MAX_USID = 0xffff;

/** The error codes of the shared vectors, checked in this order (uSIDs left to right). */
export type UsidErrorCode = 'block-not-32' | 'empty' | 'usid-zero' | 'usid-out-of-range';

export class UsidError extends Error {
  override name = 'UsidError';
  constructor(
    readonly code: UsidErrorCode,
    message: string,
  ) {
    super(`${message} (${code})`);
  }
}

/** The two high groups of a /32 block such as fcbb:bb00::/32 (no surrounding space, as in Java and Go). */
export function parseBlock(block: string): [number, number] {
  const slash = block.indexOf('/');
  const groups = slash < 0 ? undefined : parseIPv6(block.slice(0, slash));
  if (slash < 0 || groups === undefined) {
    throw new UsidError('block-not-32', `block "${block}" is not an IPv6 prefix`);
  }
  const length = block.slice(slash + 1);
  if (length !== '32')
    throw new UsidError('block-not-32', `block "${block}" has length /${length}, uSID blocks are /32`);
  if (groups.slice(2).some((g) => g !== 0)) {
    throw new UsidError('block-not-32', `block "${block}" has bits set after the first 32`);
  }
  return [groups[0] ?? 0, groups[1] ?? 0];
}

/** The carriers for a path's uSID list, carriers[0] first (the destination address). */
export function encodeCarriers(block: string, usids: readonly number[]): string[] {
  const [g0, g1] = parseBlock(block);
  if (usids.length === 0) throw new UsidError('empty', 'a path needs at least one uSID');
  usids.forEach((u, i) => {
    if (u === 0) throw new UsidError('usid-zero', `usids[${i}]: 0 is not a valid uSID`);
    if (!Number.isInteger(u) || u < 0 || u > MAX_USID) {
      throw new UsidError('usid-out-of-range', `usids[${i}]: ${u} is outside 1..${MAX_USID}`);
    }
  });
  const carriers: string[] = [];
  for (let start = 0; start < usids.length; start += USIDS_PER_CARRIER) {
    const chunk = usids.slice(start, start + USIDS_PER_CARRIER);
    const groups = [g0, g1, ...chunk, ...new Array<number>(USIDS_PER_CARRIER - chunk.length).fill(0)];
    carriers.push(formatIPv6(groups));
  }
  return carriers;
}

/** uSIDs written the way operators read them in carriers: lowercase hex, e.g. e000. */
export function formatUsid(usid: number): string {
  return usid.toString(16);
}
