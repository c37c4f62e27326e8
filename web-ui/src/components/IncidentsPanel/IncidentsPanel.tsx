import type { Incident } from '../../domain/incidents';
import './IncidentsPanel.css';

interface Props {
  incidents: readonly Incident[];
  /** Choosing an incident that names a link opens that link's history. */
  onSelectLink: (linkId: string) => void;
}

const time = (at: string) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleTimeString();
};

/** Hotspots, link failures, drains and re-placements with their causes, newest first. */
export function IncidentsPanel({ incidents, onSelectLink }: Props) {
  return (
    <section className="incidents" aria-labelledby="incidents-title">
      <h2 id="incidents-title">Incidents</h2>
      {incidents.length === 0 && <p>None in the last hour.</p>}
      {/* always present (empty too), so a reader or a test finds the list before the first incident */}
      <ul aria-label="Incidents">
        {incidents.map((i) => (
          <li key={i.key} className={`incidents__item incidents__item--${i.kind}`}>
            <time dateTime={i.at}>{time(i.at)}</time>{' '}
            {i.linkId !== undefined ? (
              <button
                type="button"
                className="incidents__link"
                onClick={() => {
                  if (i.linkId !== undefined) onSelectLink(i.linkId);
                }}
              >
                {i.text}
              </button>
            ) : (
              <span>{i.text}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
