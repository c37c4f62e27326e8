// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../api/schedulerApi';
import { respreadInSixteenths } from '../../testing/multipathViews';
import { JobsPanel } from '../JobsPanel/JobsPanel';

afterEach(cleanup);

// A job as GET /v1/jobs/{id} returns it after a re-spread.
const job: JobView = {
  id: 'j1',
  name: 'spread',
  state: 'ACTIVE',
  multipath: { ...respreadInSixteenths, respreadAt: '2026-11-27T16:00:00Z' },
  flows: [],
};

function show(selected: JobView) {
  render(
    <JobsPanel
      jobs={[{ id: 'j1', name: 'spread', state: 'ACTIVE', flows: 2 }]}
      selectedId="j1"
      onSelect={() => undefined}
      selected={selected}
    />,
  );
}

describe('the selected job in the jobs panel', () => {
  it("shows its multipath loads beside the granular bound and says the gap is the granularity's", () => {
    show(job);
    const mp = screen.getByRole('region', { name: 'Multipath' });
    const figure = (label: string) => within(mp).getByText(label).nextElementSibling?.textContent;
    expect(figure('max load')).toBe('1.375');
    expect(figure('splittable optimum')).toBe('1.333');
    expect(figure('best in 1/16 units')).toBe('≥ 1.375');
    expect(mp.textContent).toContain('3.1 % above the splittable optimum: no routing in 1/16 units does better');
    expect(mp.textContent).toContain('re-spread with the other jobs at 2026-11-27T16:00:00Z');
  });

  it('tells a solver that stopped short from the granularity', () => {
    show({ ...job, multipath: { ...respreadInSixteenths, maxLoad: 1.4375 } });
    expect(screen.getByRole('region', { name: 'Multipath' }).textContent).toContain('the solver stopped short');
  });

  it('shows nothing of multipath for a job that did not ask for it', () => {
    show({ ...job, multipath: undefined });
    expect(screen.queryByRole('region', { name: 'Multipath' })).toBeNull();
  });
});
