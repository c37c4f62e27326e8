import { describe, expect, it } from 'vitest';
import type { FabricEvent } from '../data/eventsState';
import { describeCause, incidents, type HotspotLike } from './incidents';

const at = (s: number) => `2026-11-25T12:00:${String(s).padStart(2, '0')}Z`;
const hot: HotspotLike = {
  eventId: 'abcd1234-0000',
  kind: 'hotspot-start',
  linkId: 'leaf1-spine4',
  direction: 'spine4',
  detectedAt: at(1),
  utilisation: 0.951,
};
const ev = (id: number, type: string, s: number, payload: unknown, subject = ''): FabricEvent => ({
  id,
  type,
  subject,
  at: at(s),
  payload,
});

describe('incidents', () => {
  it('merges hotspots and re-placements newest first, naming each re-placement’s cause', () => {
    const list = incidents(
      [
        hot,
        { ...hot, eventId: 'e2', kind: 'hotspot-end', detectedAt: at(9), utilisation: 0.4 },
        { ...hot, eventId: 'e3', kind: 'link-down', linkId: 'leaf1-spine1', direction: 'spine1', detectedAt: at(5) },
      ],
      [
        ev(1, 'job-created', 0, {}),
        ev(2, 'flows-replaced', 2, { reason: 'hotspot:abcd1234-0000', flows: 1, moves: [{ flowId: 'job-1/0' }] }),
        ev(3, 'flows-replaced', 6, { reason: 'link-down:leaf1-spine1', flows: 2 }),
        ev(4, 'link-drained', 7, { linkId: 'leaf2-spine2', moved: 3, by: 'ops' }, 'leaf2-spine2'),
        ev(5, 'flows-replaced', 8, { reason: 'drain:leaf2-spine2', flows: 3 }),
      ],
    );
    expect(list.map((i) => [i.kind, i.linkId, i.text])).toEqual([
      ['hotspot-end', 'leaf1-spine4', 'cooled: leaf1-spine4 → spine4 at 40%'],
      ['flows-replaced', 'leaf2-spine2', '3 flows replaced (drain of leaf2-spine2)'],
      ['link-drained', 'leaf2-spine2', 'leaf2-spine2 drained by ops, 3 moved'],
      ['flows-replaced', 'leaf1-spine1', '2 flows replaced (leaf1-spine1 down)'],
      ['link-down', 'leaf1-spine1', 'down: leaf1-spine1 → spine1'],
      ['flows-replaced', 'leaf1-spine4', '1 flow replaced (hotspot on leaf1-spine4 → spine4): job-1/0'],
      ['hotspot-start', 'leaf1-spine4', 'hot: leaf1-spine4 → spine4 at 95%'],
    ]);
  });

  it('shows a hotspot polled and streamed once, and caps the list', () => {
    expect(incidents([hot, { ...hot }], [])).toHaveLength(1);
    const many = Array.from({ length: 10 }, (_, i) => ({ ...hot, eventId: `e${i}` }));
    expect(incidents(many, [], 4)).toHaveLength(4);
  });

  it('describes causes it cannot resolve without inventing a link', () => {
    expect(describeCause('hotspot:unknown-id sample-to-event-ms=3', new Map())).toEqual({ text: 'hotspot unknown-' });
    expect(describeCause('restart', new Map())).toEqual({ text: 'restart' });
  });
});
