// The incidents timeline: the collector's hotspot and link events and scheduler-api's re-placements
// and drains, merged into one list, newest first. A re-placement names its cause as scheduler-api
// writes it ('hotspot:<event id>', 'link-down:<link>', 'drain:<link>', ...); a hotspot cause is
// resolved to the link its event was on.
import type { FabricEvent } from '../data/eventsState';

export interface HotspotLike {
  eventId?: string;
  kind: string;
  linkId: string;
  direction: string;
  detectedAt: string;
  utilisation?: number | null;
  dropRate?: number | null;
}

export type IncidentKind =
  'hotspot-start' | 'hotspot-end' | 'link-down' | 'link-up' | 'flows-replaced' | 'link-drained' | 'link-undrained';

export interface Incident {
  key: string;
  at: string;
  kind: IncidentKind;
  linkId?: string;
  text: string;
}

const pct = (u: number | null | undefined) => (typeof u === 'number' ? ` at ${Math.round(u * 100)}%` : '');

/** A re-placement's cause in words, and the link it points at when it names one. */
export function describeCause(
  cause: string,
  hotspots: ReadonlyMap<string, HotspotLike>,
): { text: string; linkId?: string } {
  const colon = cause.indexOf(':');
  const kind = colon < 0 ? cause : cause.slice(0, colon);
  const arg = colon < 0 ? '' : (cause.slice(colon + 1).split(' ')[0] ?? '');
  switch (kind) {
    case 'hotspot': {
      const h = hotspots.get(arg);
      return h
        ? { text: `hotspot on ${h.linkId} → ${h.direction}`, linkId: h.linkId }
        : { text: `hotspot ${arg.slice(0, 8)}` };
    }
    case 'link-down':
      return { text: `${arg} down`, linkId: arg };
    case 'drain':
      return { text: `drain of ${arg}`, linkId: arg };
    case 'undrain':
      return { text: `undrain of ${arg}`, linkId: arg };
    default:
      return { text: cause.split(' ')[0] ?? cause };
  }
}

function payloadOf(e: FabricEvent): Record<string, unknown> {
  return typeof e.payload === 'object' && e.payload !== null ? (e.payload as Record<string, unknown>) : {};
}

function fromEvent(e: FabricEvent, hotspots: ReadonlyMap<string, HotspotLike>): Incident | null {
  const p = payloadOf(e);
  const key = `event-${e.id}`;
  if (e.type === 'flows-replaced') {
    const cause = typeof p.reason === 'string' ? p.reason : e.subject;
    const { text, linkId } = describeCause(cause, hotspots);
    const n = typeof p.flows === 'number' ? p.flows : 0;
    const moves = Array.isArray(p.moves)
      ? p.moves.map((m) => (m as Record<string, unknown>).flowId).filter((f): f is string => typeof f === 'string')
      : [];
    const which = moves.length > 0 ? `: ${moves.slice(0, 3).join(', ')}${moves.length > 3 ? ', …' : ''}` : '';
    return {
      key,
      at: e.at,
      kind: 'flows-replaced',
      linkId,
      text: `${n} flow${n === 1 ? '' : 's'} replaced (${text})${which}`,
    };
  }
  if (e.type === 'link-drained' || e.type === 'link-undrained') {
    const linkId = typeof p.linkId === 'string' ? p.linkId : e.subject;
    const moved = typeof p.moved === 'number' ? `, ${p.moved} moved` : '';
    const by = typeof p.by === 'string' ? ` by ${p.by}` : '';
    return {
      key,
      at: e.at,
      kind: e.type,
      linkId,
      text: `${linkId} ${e.type === 'link-drained' ? 'drained' : 'undrained'}${by}${moved}`,
    };
  }
  return null;
}

function fromHotspot(h: HotspotLike): Incident | null {
  const key = `hotspot-${h.eventId ?? `${h.kind}/${h.linkId}/${h.direction}/${h.detectedAt}`}`;
  const dir = `${h.linkId} → ${h.direction}`;
  switch (h.kind) {
    case 'hotspot-start':
      return {
        key,
        at: h.detectedAt,
        kind: 'hotspot-start',
        linkId: h.linkId,
        text: `hot: ${dir}${pct(h.utilisation)}`,
      };
    case 'hotspot-end':
      return {
        key,
        at: h.detectedAt,
        kind: 'hotspot-end',
        linkId: h.linkId,
        text: `cooled: ${dir}${pct(h.utilisation)}`,
      };
    case 'link-down':
      return { key, at: h.detectedAt, kind: 'link-down', linkId: h.linkId, text: `down: ${dir}` };
    case 'link-up':
      return { key, at: h.detectedAt, kind: 'link-up', linkId: h.linkId, text: `up: ${dir}` };
    default:
      return null;
  }
}

/** Every incident, newest first, each once (hotspots by event id), at most `limit`. */
export function incidents(hotspots: readonly HotspotLike[], events: readonly FabricEvent[], limit = 200): Incident[] {
  const byId = new Map<string, HotspotLike>();
  for (const h of hotspots) if (h.eventId) byId.set(h.eventId, h);
  const out = new Map<string, Incident>();
  for (const h of hotspots) {
    const i = fromHotspot(h);
    if (i) out.set(i.key, i);
  }
  for (const e of events) {
    const i = fromEvent(e, byId);
    if (i) out.set(i.key, i);
  }
  return [...out.values()]
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || b.key.localeCompare(a.key))
    .slice(0, limit);
}
