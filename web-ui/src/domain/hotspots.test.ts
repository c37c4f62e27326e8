import { describe, expect, it } from 'vitest';
import { hotDirections, hotLinks, mergeHotspots, type HotspotEvent, type HotspotKind } from './hotspots';

const at = (s: number) => `2026-11-25T12:00:${String(s).padStart(2, '0')}Z`;
const e = (kind: HotspotKind, linkId: string, direction: string, s: number): HotspotEvent => ({
  kind,
  linkId,
  direction,
  detectedAt: at(s),
});

describe('hotDirections', () => {
  it('replays start and end per direction, in time order whatever order they arrive in', () => {
    const hot = hotDirections([
      e('hotspot-end', 'l1', 'spine4', 3),
      e('hotspot-start', 'l1', 'spine4', 1),
      e('hotspot-start', 'l1', 'leaf1', 2),
      e('hotspot-start', 'l2', 'spine1', 4),
    ]);
    expect([...hot].sort()).toEqual(['l1>leaf1', 'l2>spine1']);
    expect([...hotLinks(hot)].sort()).toEqual(['l1', 'l2']);
  });

  it('link-down ends both directions’ hotspots; a later start counts again', () => {
    const hot = hotDirections([
      e('hotspot-start', 'l1', 'a', 1),
      e('hotspot-start', 'l1', 'b', 2),
      e('hotspot-start', 'l10', 'a', 2),
      e('link-down', 'l1', 'a', 3),
      e('link-up', 'l1', 'a', 4),
    ]);
    expect([...hot]).toEqual(['l10>a']); // l10 is another link, not a prefix match
    expect([...hotDirections([e('link-down', 'l1', 'a', 1), e('hotspot-start', 'l1', 'b', 2)])]).toEqual(['l1>b']);
  });
});

describe('mergeHotspots', () => {
  it('keeps each event once whether it was read from the history, streamed, or both', () => {
    const a = { ...e('hotspot-start', 'l1', 'b', 1), eventId: 'x' };
    const b = { ...e('hotspot-end', 'l1', 'b', 2), eventId: 'y' };
    const noId = e('link-down', 'l2', 'c', 3);
    expect(mergeHotspots([a, noId], [b, { ...a }, { ...noId }]).map((h) => h.kind)).toEqual([
      'hotspot-start',
      'link-down',
      'hotspot-end',
    ]);
  });
});
