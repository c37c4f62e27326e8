// Link states as the dashboard draws them: the controller's snapshot, with scheduler-api's view
// (which adds the operator's drains) on top.
import type { LinkState } from '../api/types';

const KNOWN: ReadonlySet<string> = new Set(['up', 'down', 'drained']);

/** The controller's states overlaid with scheduler-api's; unknown state names are ignored. */
export function mergeLinkStates(
  controller: Readonly<Record<string, LinkState>> | undefined,
  scheduler: Readonly<Record<string, string>> | undefined,
): Record<string, LinkState> {
  const out: Record<string, LinkState> = { ...controller };
  for (const [id, s] of Object.entries(scheduler ?? {})) if (KNOWN.has(s)) out[id] = s as LinkState;
  return out;
}

/** Same states for every link (a link absent on one side counts as up). */
export function sameLinkStates(
  a: Readonly<Record<string, LinkState>>,
  b: Readonly<Record<string, LinkState>>,
): boolean {
  const ids = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const id of ids) if ((a[id] ?? 'up') !== (b[id] ?? 'up')) return false;
  return true;
}
