import { describe, expect, it } from 'vitest';
import { filterJobs, jobFilterChoices } from './jobFilter';

const jobs = [
  { id: 'a', state: 'ACTIVE', tenant: 'ml', pattern: 'ring' },
  { id: 'b', state: 'RELEASED', tenant: 'ml', pattern: 'all-to-all' },
  { id: 'c', state: 'ACTIVE', tenant: 'hpc', pattern: 'ring' },
];

describe('filterJobs', () => {
  it('applies every given field and ignores the empty ones', () => {
    expect(filterJobs(jobs, {}).map((j) => j.id)).toEqual(['a', 'b', 'c']);
    expect(filterJobs(jobs, { state: 'ACTIVE', pattern: 'ring' }).map((j) => j.id)).toEqual(['a', 'c']);
    expect(filterJobs(jobs, { tenant: 'ml', state: '' }).map((j) => j.id)).toEqual(['a', 'b']);
    expect(filterJobs(jobs, { tenant: 'nobody' })).toEqual([]);
  });

  it('offers the values present, sorted', () => {
    expect(jobFilterChoices(jobs)).toEqual({
      state: ['ACTIVE', 'RELEASED'],
      tenant: ['hpc', 'ml'],
      pattern: ['all-to-all', 'ring'],
    });
  });
});
