import { describe, expect, it } from 'vitest';
import type { Fabric } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { heatColour, linkLoads, type DirectionLoad, type LinkLoads } from '../../domain/heat';
import { readContract } from '../../testing/contracts';
import { drawHeat, type HeatContext } from './drawHeat';
import { LINK_STATE_COLOURS } from '../../domain/linkStyle';
import { buildHeatScene, edgeHeat, FADED_ALPHA, HOT_COLOUR, linkAt, linkLines, type HeatScene } from './heatScene';

const fabric = readContract<Fabric>('examples/leaf-spine-2x2.json');
// leaf1-spine1 is drawn leaf1 (source) -> spine1 (target)
const loads = linkLoads([
  {
    link: 'leaf1-spine1',
    from: 'leaf1',
    to: 'spine1',
    reservedGbps: 100,
    capacityGbps: 400,
    utilisation: 0.25,
    elephants: 1,
  },
  {
    link: 'leaf1-spine1',
    from: 'spine1',
    to: 'leaf1',
    reservedGbps: 400,
    capacityGbps: 400,
    utilisation: 1,
    elephants: 4,
  },
  {
    link: 'leaf2-spine2',
    from: 'leaf2',
    to: 'spine2',
    reservedGbps: 0,
    capacityGbps: 400,
    utilisation: 0,
    elephants: 0,
  },
]);
const graph = toGraphElements(fabric, { 'leaf2-spine2': 'drained' });
const edge = (id: string) => graph.edges.find((e) => e.id === id)!;
const measured = (entries: [string, DirectionLoad][]): LinkLoads =>
  new Map(entries.map(([link, d]) => [link, new Map([[d.from, d]])]));
const strokesOf = (scene: HeatScene, colour: string) => scene.strokes.filter((s) => s.colour === colour);

describe('edgeHeat', () => {
  it('colours the source half by source -> target and the other half by the reverse', () => {
    expect(edgeHeat(edge('leaf1-spine1'), { loads })).toMatchObject({
      forward: heatColour(0.25),
      reverse: heatColour(1),
      hot: true, // 100 % reserved
      label: '',
    });
    // no load and not hot: drawn in its state's colour
    expect(edgeHeat(edge('leaf1-spine2'), { loads })).toBeNull();
  });

  it('marks a link hot from a collector hotspot on either direction, even with no load known', () => {
    const heat = edgeHeat(edge('leaf1-spine2'), { hotDirections: new Set(['leaf1-spine2>leaf1']) });
    expect(heat).toMatchObject({ hot: true, forward: null, reverse: null });
    expect(edgeHeat(edge('leaf2-spine2'), { loads })?.hot).toBe(false);
  });

  it('shows drops over ECN, measured down and elephant counts only when switched on', () => {
    const m = measured([
      [
        'leaf1-spine1',
        {
          from: 'leaf1',
          to: 'spine1',
          utilisation: 0.5,
          reservedGbps: 0,
          capacityGbps: 400,
          elephants: 2,
          dropRate: 0.01,
          ecnFraction: 0.2,
        },
      ],
      [
        'leaf1-spine2',
        {
          from: 'leaf1',
          to: 'spine2',
          utilisation: 0.1,
          reservedGbps: 0,
          capacityGbps: 400,
          elephants: 0,
          ecnFraction: 0.01,
          operDown: true,
        },
      ],
    ]);
    expect(edgeHeat(edge('leaf1-spine1'), { loads: m })).toMatchObject({ mark: null, label: '' });
    const show = { drops: true, ecn: true, elephants: true };
    expect(edgeHeat(edge('leaf1-spine1'), { loads: m, show })).toMatchObject({ mark: 'drops', label: '2' });
    expect(edgeHeat(edge('leaf1-spine2'), { loads: m, show })).toMatchObject({ mark: 'ecn', operDown: true });
  });
});

describe('buildHeatScene', () => {
  it('draws each loaded link as two halves between the node rims, grouped by colour', () => {
    const scene = buildHeatScene(linkLines(graph), { loads });
    const [quarter] = strokesOf(scene, heatColour(0.25));
    expect(quarter?.segments).toHaveLength(4);
    const [x1, y1, x2, y2] = quarter!.segments as [number, number, number, number];
    const leaf1 = graph.nodes.find((n) => n.id === 'leaf1')!.position;
    const spine1 = graph.nodes.find((n) => n.id === 'spine1')!.position;
    // starts 9 px (a switch's radius) from leaf1's centre, ends half way to spine1's rim
    expect(Math.hypot(x1 - leaf1.x, y1 - leaf1.y)).toBeCloseTo(9, 6);
    const length = Math.hypot(spine1.x - leaf1.x, spine1.y - leaf1.y);
    expect(Math.hypot(x2 - leaf1.x, y2 - leaf1.y)).toBeCloseTo(length / 2, 6);
    // the hot underlay under the whole link, before (below) the heat
    const hot = strokesOf(scene, HOT_COLOUR);
    expect(hot).toHaveLength(1);
    expect(scene.strokes.indexOf(hot[0]!)).toBeLessThan(scene.strokes.indexOf(quarter!));
    expect(scene.drawn.hot).toEqual(['leaf1-spine1']);
  });

  it('keeps drained links dashed and draws no heat on a down link', () => {
    const idle = strokesOf(buildHeatScene(linkLines(graph), { loads }), heatColour(0));
    expect(idle.map((s) => s.dash)).toEqual([[6, 3]]); // leaf2-spine2 is drained
    const down = buildHeatScene(linkLines(toGraphElements(fabric, { 'leaf1-spine1': 'down' })), { loads });
    expect(strokesOf(down, heatColour(0.25))).toHaveLength(0);
    expect(down.drawn.hot).toEqual(['leaf1-spine1']); // still marked hot
  });

  it('fades links off the selected job’s paths and draws the path above them', () => {
    const scene = buildHeatScene(linkLines(graph), { loads, highlighted: new Set(['leaf2-spine2']) });
    const faded = scene.strokes.filter((s) => s.alpha < 1 && s.colour !== HOT_COLOUR);
    expect(scene.drawn.onPath).toEqual(['leaf2-spine2']);
    expect(faded.every((s) => s.alpha === FADED_ALPHA)).toBe(true);
    const onPath = strokesOf(scene, heatColour(0))[0]!;
    expect(onPath.alpha).toBe(1);
    expect(scene.strokes.indexOf(onPath)).toBe(scene.strokes.length - 1);
  });

  it('puts elephant counts at the middle of the link when shown', () => {
    const scene = buildHeatScene(linkLines(graph), { loads, show: { elephants: true } });
    expect(scene.labels.map((l) => l.text)).toEqual(['5']);
  });

  it('strokes every link with the same load and width in one group', () => {
    const plain = toGraphElements(fabric);
    const all = linkLoads(
      plain.edges.flatMap((e) => [
        { link: e.id, from: e.source, to: e.target, reservedGbps: 1, capacityGbps: 400, utilisation: 0.5 },
        { link: e.id, from: e.target, to: e.source, reservedGbps: 1, capacityGbps: 400, utilisation: 0.5 },
      ]),
    );
    expect(buildHeatScene(linkLines(plain), { loads: all }).strokes).toHaveLength(1);
  });
});

describe('links without load, the chosen link, picking', () => {
  it('draws unloaded links in their state colour, drained dashed and down dotted, and reads them back', () => {
    const g = toGraphElements(fabric, { 'leaf1-spine1': 'down', 'leaf2-spine2': 'drained' });
    const scene = buildHeatScene(linkLines(g), { selectedLink: 'leaf1-spine2' });
    expect(strokesOf(scene, LINK_STATE_COLOURS.down).map((s) => s.dash)).toEqual([[1, 1]]);
    expect(strokesOf(scene, LINK_STATE_COLOURS.drained).map((s) => s.dash)).toEqual([[6, 3]]);
    const up = strokesOf(scene, LINK_STATE_COLOURS.up);
    expect(up.reduce((n, s) => n + s.segments.length / 4, 0)).toBe(g.edges.length - 2);
    expect(scene.drawn).toMatchObject({ down: ['leaf1-spine1'], drained: ['leaf2-spine2'], chosen: ['leaf1-spine2'] });
    // the chosen link's dark underlay lies under the lines
    const chosen = scene.strokes.findIndex((s) => s.colour === '#111111');
    expect(chosen).toBeGreaterThanOrEqual(0);
    expect(chosen).toBeLessThan(scene.strokes.indexOf(up[0]!));
  });

  it('picks the link under the pointer, within its width and a slack, and nothing in between', () => {
    const lines = linkLines(graph);
    const l = lines.find((x) => x.edge.id === 'leaf1-spine1')!;
    const mx = (l.x1 + l.x2) / 2;
    const my = (l.y1 + l.y2) / 2;
    expect(linkAt(lines, mx, my, 0)?.id).toBe('leaf1-spine1');
    // perpendicular offset: half the 3 px width plus 2 px slack still hits, 10 px does not
    const len = Math.hypot(l.x2 - l.x1, l.y2 - l.y1);
    const nx = -(l.y2 - l.y1) / len;
    const ny = (l.x2 - l.x1) / len;
    expect(linkAt(lines, mx + nx * 3.4, my + ny * 3.4, 2)?.id).toBe('leaf1-spine1');
    expect(linkAt(lines, mx + nx * 10, my + ny * 10, 2)?.id).not.toBe('leaf1-spine1');
    expect(linkAt(lines, -1e6, -1e6, 4)).toBeNull();
  });
});

describe('drawHeat', () => {
  it('draws in model coordinates under the viewport’s pan and zoom, one stroke per group', () => {
    const calls: string[] = [];
    const ctx = new Proxy<Record<string, unknown>>(
      {},
      {
        get: (target, key: string) =>
          key in target
            ? target[key]
            : (...args: unknown[]) => {
                calls.push(`${key}(${args.join(',')})`);
                return key === 'measureText' ? { width: 6 } : undefined;
              },
        set: (target, key: string, value) => {
          target[key] = value;
          return true;
        },
      },
    ) as unknown as HeatContext;
    const scene = buildHeatScene(linkLines(graph), { loads, show: { elephants: true } });
    drawHeat(ctx, scene, { zoom: 2, pan: { x: 10, y: 20 }, pixelRatio: 1, width: 800, height: 600 });
    expect(calls).toContain('setTransform(2,0,0,2,10,20)');
    expect(calls.filter((c) => c === 'stroke()')).toHaveLength(scene.strokes.length);
    expect(calls.filter((c) => c.startsWith('moveTo('))).toHaveLength(
      scene.strokes.reduce((n, s) => n + s.segments.length / 4, 0),
    );
    expect(calls).toContain(`fillText(5,${scene.labels[0]!.x},${scene.labels[0]!.y})`);
    // zoomed far out: labels too small to read are left out
    calls.length = 0;
    drawHeat(ctx, scene, { zoom: 0.5, pan: { x: 0, y: 0 }, pixelRatio: 1, width: 800, height: 600 });
    expect(calls.some((c) => c.startsWith('fillText'))).toBe(false);
  });
});
