// Which flows a drain moves, and which of them have moved: read from the jobs' paths, the same
// data the scheduler places from, so the confirmation names exactly the flows that use the link.

interface FlowLike {
  id?: string;
  src?: string;
  dst?: string;
  links?: string[];
  nodes?: string[];
}

interface JobLike {
  id?: string;
  name?: string;
  state?: string;
  flows?: FlowLike[];
}

/** One flow that uses a link, with where it runs now. */
export interface FlowOnLink {
  jobId: string;
  jobName: string;
  flowId: string;
  src: string;
  dst: string;
  /** The nodes of its path when it was listed (the path it leaves). */
  nodes: string[];
}

/** Flow links may be named per direction ('<link>><to node>'); this is the link they belong to. */
export function baseLinkId(flowLink: string): string {
  return flowLink.split('>')[0] ?? flowLink;
}

function usesLink(flow: FlowLike, linkId: string): boolean {
  return (flow.links ?? []).some((l) => baseLinkId(l) === linkId);
}

/**
 * The flows of the given jobs whose path crosses the link, in job then flow order. Released jobs
 * hold no path and are skipped.
 */
export function flowsOnLink(jobs: readonly JobLike[], linkId: string): FlowOnLink[] {
  const out: FlowOnLink[] = [];
  for (const job of jobs) {
    if (job.state === 'RELEASED') continue;
    for (const f of job.flows ?? []) {
      if (!usesLink(f, linkId)) continue;
      out.push({
        jobId: job.id ?? '',
        jobName: job.name ?? job.id ?? '',
        flowId: f.id ?? '',
        src: f.src ?? '',
        dst: f.dst ?? '',
        nodes: [...(f.nodes ?? [])],
      });
    }
  }
  return out;
}

/** Where a listed flow stands after the drain: still on the link, moved (with its new path), or gone. */
export type FlowMove =
  | { flow: FlowOnLink; status: 'waiting' }
  | { flow: FlowOnLink; status: 'moved'; nodes: string[] }
  | { flow: FlowOnLink; status: 'gone' };

/** Compares the listed flows with the jobs as read now. */
export function flowMoves(listed: readonly FlowOnLink[], jobsNow: readonly JobLike[], linkId: string): FlowMove[] {
  const byId = new Map<string, FlowLike>();
  for (const job of jobsNow) {
    if (job.state === 'RELEASED') continue;
    for (const f of job.flows ?? []) if (f.id) byId.set(f.id, f);
  }
  return listed.map((flow) => {
    const now = byId.get(flow.flowId);
    if (!now) return { flow, status: 'gone' };
    if (usesLink(now, linkId)) return { flow, status: 'waiting' };
    return { flow, status: 'moved', nodes: [...(now.nodes ?? [])] };
  });
}

/** True when no listed flow is still waiting to leave the link. */
export function allMoved(moves: readonly FlowMove[]): boolean {
  return moves.every((m) => m.status !== 'waiting');
}
