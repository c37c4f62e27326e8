import { describe, expect, it } from 'vitest';
import type { FabricState } from '../api/schedulerApi';
import { dashboardReducer, initialDashboardState } from './dashboardState';

const fabric = (version: number): FabricState => ({ fabricId: 'f', version, reservations: [] });

describe('dashboardReducer', () => {
  it('never goes back to an older fabric version (a slow answer overtaken by a newer one)', () => {
    const s = dashboardReducer(initialDashboardState, { type: 'fabric', fabric: fabric(5) });
    expect(dashboardReducer(s, { type: 'fabric', fabric: fabric(4) })).toBe(s);
    expect(dashboardReducer(s, { type: 'fabric', fabric: fabric(6) }).fabric?.version).toBe(6);
    // the same version again is taken: reservations change without a new fabric version
    const same = fabric(5);
    expect(dashboardReducer(s, { type: 'fabric', fabric: same }).fabric).toBe(same);
  });

  it('keeps the last good data through a failure and clears the error on the next success', () => {
    const jobs = [{ id: 'j1', state: 'ACTIVE' }];
    let s = dashboardReducer(initialDashboardState, { type: 'jobs', jobs });
    s = dashboardReducer(s, { type: 'failed', source: 'jobs', error: '/v1/jobs: HTTP 502' });
    expect(s.jobs).toBe(jobs);
    expect(s.errors).toEqual({ jobs: '/v1/jobs: HTTP 502' });
    s = dashboardReducer(s, { type: 'failed', source: 'hotspots', error: 'down' });
    s = dashboardReducer(s, { type: 'jobs', jobs: [] });
    expect(s.errors).toEqual({ hotspots: 'down' });
  });
});
