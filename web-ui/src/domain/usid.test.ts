import { describe, expect, it } from 'vitest';
import { readContract, type UsidVector } from '../testing/contracts';
import { formatIPv6, parseIPv6 } from './ipv6';
import { encodeCarriers, UsidError } from './usid';

const vectors = readContract<{ version: number; cases: UsidVector[] }>('vectors/usid-carriers.json');

describe('shared vectors: usid-carriers.json', () => {
  it('is version 1 and has cases', () => {
    expect(vectors.version).toBe(1);
    expect(vectors.cases.length).toBeGreaterThan(0);
  });

  for (const c of vectors.cases) {
    it(c.name, () => {
      if (c.error !== undefined) {
        let thrown: unknown;
        try {
          encodeCarriers(c.block, c.usids);
        } catch (e) {
          thrown = e;
        }
        expect(thrown).toBeInstanceOf(UsidError);
        expect((thrown as UsidError).code).toBe(c.error);
      } else {
        expect(encodeCarriers(c.block, c.usids)).toEqual(c.carriers);
      }
    });
  }
});

describe('encodeCarriers', () => {
  it('rejects a block with bits after the first 32', () => {
    expect(() => encodeCarriers('fcbb:bb00:1::/32', [1])).toThrow(/bits set after the first 32/);
  });

  it.each([' fcbb:bb00::/32', 'fcbb:bb00::/32 ', 'fcbb:bb00::/032'])('rejects the block %j', (block) => {
    expect(() => encodeCarriers(block, [1])).toThrow(/block-not-32/);
  });

  it('rejects fractional uSIDs as out of range', () => {
    expect(() => encodeCarriers('fcbb:bb00::/32', [1.5])).toThrow(/usid-out-of-range/);
  });

  it('names the offending uSID by index', () => {
    expect(() => encodeCarriers('fcbb:bb00::/32', [1, 2, 0])).toThrow('usids[2]: 0 is not a valid uSID');
  });
});

describe('IPv6 text', () => {
  it.each([
    ['2001:db8::1', [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]],
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['1::', [1, 0, 0, 0, 0, 0, 0, 0]],
    ['FCBB:0BB0::', [0xfcbb, 0xbb0, 0, 0, 0, 0, 0, 0]],
  ])('parses %s', (text, groups) => {
    expect(parseIPv6(text)).toEqual(groups);
  });

  it.each(['1:2:3:4:5:6:7', '1::2::3', '1:2:3:4:5:6:7:8::', '12345::', 'g::', '1.2.3.4', '::ffff:1.2.3.4'])(
    'rejects %s',
    (text) => {
      expect(parseIPv6(text)).toBeUndefined();
    },
  );

  it.each([
    [[0x2001, 0xdb8, 0, 0, 1, 0, 0, 1], '2001:db8::1:0:0:1'],
    [[1, 0, 2, 0, 3, 0, 4, 0], '1:0:2:0:3:0:4:0'],
    [[0, 0, 0, 0, 0, 0, 0, 0], '::'],
    [[0xabcd, 0, 0, 0, 0, 0, 0, 0xef], 'abcd::ef'],
  ])('formats %j as %s (RFC 5952)', (groups, text) => {
    expect(formatIPv6(groups)).toBe(text);
  });
});
