import { describe, expect, it } from 'vitest';
import { respreadInSixteenths as respread } from '../testing/multipathViews';
import { summarizeMultipath } from './multipath';

describe('summarizeMultipath', () => {
  it('puts a max load at the granular bound down to the granularity', () => {
    const s = summarizeMultipath(respread);
    expect(s.cause).toBe('granularity');
    expect(s.verdict).toBe('3.1 % above the splittable optimum: no routing in 1/16 units does better');
    expect(s.figures).toEqual([
      { label: 'max load', value: '1.375' },
      { label: 'one path per flow', value: '1.500' },
      { label: 'splittable optimum', value: '1.333' },
      { label: 'best in 1/16 units', value: '≥ 1.375' },
      { label: 'paths per flow', value: '2 of 2' },
    ]);
  });

  it('puts a max load above the granular bound down to the solver, by how much', () => {
    const s = summarizeMultipath({ ...respread, maxLoad: 1.4375 });
    expect(s.cause).toBe('solver');
    expect(s.verdict).toBe(
      '7.8 % above the splittable optimum: the solver stopped short, up to 4.5 % above what 1/16 units allow',
    );
  });

  it('says "at most" when only a lower bound is proven', () => {
    const s = summarizeMultipath({ ...respread, splittableOptimum: undefined, lowerBound: 1.3 });
    expect(s.cause).toBe('granularity');
    expect(s.verdict).toMatch(/^at most 5\.8 % above the splittable optimum: no routing/);
    expect(s.figures[2]).toEqual({ label: 'splittable optimum', value: '≥ 1.300' });
  });

  it('knows the optimum, a fallback and an answer without bounds', () => {
    expect(summarizeMultipath({ ...respread, maxLoad: 4 / 3 }).cause).toBe('optimal');
    const fallback = summarizeMultipath({
      maxPaths: 1,
      granularity: 8,
      fallback: 'maxPaths 1: one path per flow',
      maxPathsPerFlow: 1,
      singlePathMaxLoad: 2,
      maxLoad: 2,
    });
    expect(fallback).toMatchObject({ cause: 'one-path', verdict: 'maxPaths 1: one path per flow' });
    expect(fallback.figures[3]).toEqual({ label: 'best in 1/8 units', value: '–' });
    expect(summarizeMultipath({ ...respread, granularBound: undefined })).toMatchObject({
      cause: 'unproven',
      verdict: '3.1 % above the splittable optimum; no granular bound',
    });
  });
});
