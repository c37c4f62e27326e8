import { describe, expect, it } from 'vitest';
import { readContract, type EvDecodeVector, type EvEncodeVector } from '../testing/contracts';
import { decodeEv, encodeEv, EvError, MAX_TABLE_SIZE } from './ev';

const vectors = readContract<{ version: number; encode: EvEncodeVector[]; decode: EvDecodeVector[] }>(
  'vectors/ev.json',
);

function errorCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof EvError) return e.code;
    throw e;
  }
  return undefined;
}

describe('shared vectors: ev.json', () => {
  it('is version 1 with encode and decode cases', () => {
    expect(vectors.version).toBe(1);
    expect(vectors.encode.length).toBeGreaterThan(0);
    expect(vectors.decode.length).toBeGreaterThan(0);
  });

  for (const c of vectors.encode) {
    it(`encode: ${c.name}`, () => {
      if (c.error !== undefined) {
        expect(errorCode(() => encodeEv(c.n1, c.i1, c.n2, c.i2))).toBe(c.error);
      } else {
        expect(encodeEv(c.n1, c.i1, c.n2, c.i2)).toEqual({ ev: c.ev, ev1: c.ev1, ev2: c.ev2 });
      }
    });
  }

  vectors.decode.forEach((c, i) => {
    it(`decode ${c.name ?? i}: ev ${c.ev} in tables of ${c.n1} and ${c.n2}`, () => {
      expect(decodeEv(c.ev, c.n1, c.n2)).toEqual({ i1: c.i1, i2: c.i2 });
    });
  });
});

describe('encodeEv', () => {
  it('selects every member of every table size, never as port 0', () => {
    const wrong: string[] = [];
    for (let n1 = 1; n1 <= MAX_TABLE_SIZE; n1++) {
      for (let i1 = 0; i1 < n1; i1++) {
        const { ev } = encodeEv(n1, i1, 3, 0);
        const back = decodeEv(ev, n1, 3);
        if (ev === 0 || back.i1 !== i1 || back.i2 !== 0) wrong.push(`n1=${n1} i1=${i1} -> ${ev}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('prefers EV1 in the RoCEv2 range 0xC0-0xFF', () => {
    expect(encodeEv(200, 10).ev1).toBe(0xd2);
    expect(encodeEv(200, 100).ev1).toBe(100);
  });

  it('checks table sizes before indices', () => {
    expect(errorCode(() => encodeEv(4, 9, 300, 0))).toBe('table-size');
    expect(errorCode(() => encodeEv(4, 0.5))).toBe('index-out-of-range');
  });

  it('names the field in its message', () => {
    expect(() => encodeEv(8, 0, 16, 16)).toThrow('i2: index 16 is outside 0..15');
  });
});
