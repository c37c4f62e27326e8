import { describe, expect, it } from 'vitest';
import type { FlowOnLink } from '../domain/drain';
import { drainReducer, idleDrain, type DrainState, type DrainStep } from './drainState';

const flow: FlowOnLink = {
  jobId: 'j1',
  jobName: 'ring',
  flowId: 'j1/0',
  src: 'nic1',
  dst: 'nic3',
  nodes: ['leaf1', 'spine4'],
};
const run = (steps: DrainStep[], from: DrainState = idleDrain) => steps.reduce(drainReducer, from);
const outcome = { linkId: 'l1', state: 'drained', moved: 1, unplaced: 0 };

describe('drainReducer', () => {
  it('lists, confirms, sends, then watches the named flows leave', () => {
    const watching = run([
      { type: 'ask', linkId: 'l1', action: 'drain' },
      { type: 'listed', linkId: 'l1', flows: [flow] },
      { type: 'confirm' },
      { type: 'done', linkId: 'l1', outcome },
    ]);
    expect(watching).toMatchObject({ phase: 'watching', outcome, moves: [{ status: 'waiting' }] });
    const moved = drainReducer(watching, {
      type: 'jobs',
      linkId: 'l1',
      jobs: [{ id: 'j1', flows: [{ id: 'j1/0', links: ['l2'], nodes: ['leaf1', 'spine3'] }] }],
    });
    expect(moved).toMatchObject({ phase: 'watching', moves: [{ status: 'moved', nodes: ['leaf1', 'spine3'] }] });
  });

  it('drops answers about another link than the one in hand', () => {
    const asked = run([
      { type: 'ask', linkId: 'l1', action: 'drain' },
      { type: 'ask', linkId: 'l2', action: 'drain' },
      { type: 'listed', linkId: 'l1', flows: [flow] },
    ]);
    expect(asked).toEqual({ phase: 'listing', linkId: 'l2', action: 'drain' });
  });

  it('does not confirm before the flows are named, nor close or re-ask while sending', () => {
    const listing = run([{ type: 'ask', linkId: 'l1', action: 'drain' }, { type: 'confirm' }]);
    expect(listing.phase).toBe('listing');
    const sending = run([{ type: 'listed', linkId: 'l1', flows: [] }, { type: 'confirm' }], listing);
    expect(sending.phase).toBe('submitting');
    expect(run([{ type: 'close' }, { type: 'ask', linkId: 'l2', action: 'undrain' }], sending)).toBe(sending);
  });

  it('keeps the named flows and the error when the call fails; closing goes back to idle', () => {
    const failed = run([
      { type: 'ask', linkId: 'l1', action: 'drain' },
      { type: 'listed', linkId: 'l1', flows: [flow] },
      { type: 'confirm' },
      { type: 'failed', linkId: 'l1', error: 'drain l1: HTTP 500' },
    ]);
    expect(failed).toMatchObject({ phase: 'failed', flows: [flow], error: 'drain l1: HTTP 500' });
    expect(drainReducer(failed, { type: 'close' })).toBe(idleDrain);
  });
});
