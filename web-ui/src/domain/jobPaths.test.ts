import { describe, expect, it } from 'vitest';
import { jobLinkIds } from './jobPaths';

describe('jobLinkIds', () => {
  it('collects every flow’s links once, dropping a direction suffix', () => {
    const ids = jobLinkIds([
      { links: ['nic1-leaf1', 'leaf1-spine2', 'leaf2-spine2'] },
      { links: ['leaf1-spine2>spine2', 'nic3-leaf2'] },
      {},
    ]);
    expect([...ids].sort()).toEqual(['leaf1-spine2', 'leaf2-spine2', 'nic1-leaf1', 'nic3-leaf2']);
  });
  it('is empty for a job without flows', () => {
    expect(jobLinkIds(undefined).size).toBe(0);
  });
});
