import { describe, expect, it } from 'vitest';
import { allMoved, flowMoves, flowsOnLink } from './drain';

const jobs = [
  {
    id: 'j1',
    name: 'ring-a',
    state: 'ACTIVE',
    flows: [
      {
        id: 'j1/0',
        src: 'nic1',
        dst: 'nic3',
        links: ['nic1-leaf1>leaf1', 'leaf1-spine4>spine4'],
        nodes: ['nic1', 'leaf1', 'spine4'],
      },
      { id: 'j1/1', src: 'nic3', dst: 'nic1', links: ['leaf2-spine1>spine1'], nodes: ['nic3', 'leaf2', 'spine1'] },
    ],
  },
  { id: 'j2', name: 'old', state: 'RELEASED', flows: [{ id: 'j2/0', links: ['leaf1-spine4'] }] },
  { id: 'j3', state: 'ACTIVE', flows: [{ id: 'j3/0', src: 'nic2', dst: 'nic4', links: ['leaf1-spine4'] }] },
];

describe('flowsOnLink', () => {
  it('names the flows of active jobs whose path crosses the link, either direction', () => {
    const flows = flowsOnLink(jobs, 'leaf1-spine4');
    expect(flows.map((f) => f.flowId)).toEqual(['j1/0', 'j3/0']);
    expect(flows[0]).toEqual({
      jobId: 'j1',
      jobName: 'ring-a',
      flowId: 'j1/0',
      src: 'nic1',
      dst: 'nic3',
      nodes: ['nic1', 'leaf1', 'spine4'],
    });
    expect(flows[1]?.jobName).toBe('j3'); // no name: the id stands in
  });

  it('does not match a link whose id only starts the same', () => {
    expect(flowsOnLink(jobs, 'leaf1-spine')).toEqual([]);
  });
});

describe('flowMoves', () => {
  const listed = flowsOnLink(jobs, 'leaf1-spine4');

  it('tells waiting, moved (with the new path) and gone flows apart', () => {
    const now = [
      {
        id: 'j1',
        state: 'ACTIVE',
        flows: [{ id: 'j1/0', links: ['leaf1-spine3>spine3'], nodes: ['nic1', 'leaf1', 'spine3'] }],
      },
      { id: 'j3', state: 'ACTIVE', flows: [{ id: 'j3/0', links: ['leaf1-spine4>leaf1'] }] },
    ];
    const moves = flowMoves(listed, now, 'leaf1-spine4');
    expect(moves.map((m) => m.status)).toEqual(['moved', 'waiting']);
    expect(moves[0]).toMatchObject({ status: 'moved', nodes: ['nic1', 'leaf1', 'spine3'] });
    expect(allMoved(moves)).toBe(false);

    const released = flowMoves(
      listed,
      [
        { ...now[0], flows: [] },
        { ...now[1], state: 'RELEASED' },
      ],
      'leaf1-spine4',
    );
    expect(released.map((m) => m.status)).toEqual(['gone', 'gone']);
    expect(allMoved(released)).toBe(true);
  });
});
