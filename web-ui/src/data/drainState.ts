// Pure state of one drain or undrain from the UI: naming the flows that will move, the operator's
// confirmation, the call, then watching the named flows leave the link as the jobs are re-read.
import type { DrainOutcome } from '../api/schedulerApi';
import { flowMoves, type FlowMove, type FlowOnLink } from '../domain/drain';

export type DrainAction = 'drain' | 'undrain';

interface Target {
  linkId: string;
  action: DrainAction;
}

export type DrainState =
  | { phase: 'idle' }
  | (Target & { phase: 'listing' })
  | (Target & { phase: 'confirming'; flows: FlowOnLink[] })
  | (Target & { phase: 'submitting'; flows: FlowOnLink[] })
  | (Target & { phase: 'watching'; flows: FlowOnLink[]; outcome: DrainOutcome; moves: FlowMove[] })
  | (Target & { phase: 'failed'; flows: FlowOnLink[]; error: string });

type JobsNow = Parameters<typeof flowMoves>[1];

export type DrainStep =
  | (Target & { type: 'ask' })
  | { type: 'listed'; linkId: string; flows: FlowOnLink[] }
  | { type: 'confirm' }
  | { type: 'done'; linkId: string; outcome: DrainOutcome }
  | { type: 'jobs'; linkId: string; jobs: JobsNow }
  | { type: 'failed'; linkId: string; error: string }
  | { type: 'close' };

export const idleDrain: DrainState = { phase: 'idle' };

/** Answers for another link than the one in hand (the operator moved on) are dropped. */
function current(state: DrainState, linkId: string): boolean {
  return state.phase !== 'idle' && state.linkId === linkId;
}

export function drainReducer(state: DrainState, step: DrainStep): DrainState {
  switch (step.type) {
    case 'ask':
      // One action at a time: a drain being sent or watched is not replaced by a new question.
      if (state.phase === 'submitting') return state;
      return { phase: 'listing', linkId: step.linkId, action: step.action };
    case 'listed':
      if (state.phase !== 'listing' || !current(state, step.linkId)) return state;
      return { ...state, phase: 'confirming', flows: step.flows };
    case 'confirm':
      if (state.phase !== 'confirming') return state;
      return { ...state, phase: 'submitting' };
    case 'done':
      if (state.phase !== 'submitting' || !current(state, step.linkId)) return state;
      return {
        ...state,
        phase: 'watching',
        outcome: step.outcome,
        moves: state.flows.map((flow) => ({ flow, status: 'waiting' })),
      };
    case 'jobs':
      if (state.phase !== 'watching' || !current(state, step.linkId)) return state;
      return { ...state, moves: flowMoves(state.flows, step.jobs, state.linkId) };
    case 'failed':
      if (state.phase === 'idle' || state.phase === 'watching' || !current(state, step.linkId)) return state;
      return { ...state, phase: 'failed', flows: 'flows' in state ? state.flows : [], error: step.error };
    case 'close':
      return state.phase === 'submitting' ? state : idleDrain;
  }
}
