// A job's flows -> the links to highlight on the graph.

interface FlowLike {
  links?: string[];
  state?: string;
}

/**
 * The link ids the job's flows use now. Flow links may be named per direction
 * ('<link>><to node>'): the graph draws links, so the direction suffix is dropped.
 */
export function jobLinkIds(flows: readonly FlowLike[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const f of flows ?? []) {
    for (const l of f.links ?? []) out.add(l.split('>')[0] ?? l);
  }
  return out;
}
