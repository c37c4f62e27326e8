import { HOT_UTILISATION, heatLegendStops } from '../../domain/heat';
import './HeatLegend.css';

/** The utilisation scale of the link colours, and what the other link marks mean. */
export function HeatLegend({ source = 'reserved' }: { source?: 'measured' | 'reserved' }) {
  const stops = heatLegendStops();
  const gradient = `linear-gradient(to right, ${stops.map((s) => s.colour).join(', ')})`;
  return (
    <figure className="heat-legend" aria-label="Link legend">
      <figcaption>
        {source === 'measured' ? 'Measured utilisation' : 'Reserved / capacity'} per direction (each half of a link is
        the direction leaving that end)
      </figcaption>
      <div className="heat-legend__bar" style={{ background: gradient }} />
      <div className="heat-legend__ticks">
        {stops.map((s) => (
          <span key={s.utilisation}>{Math.round(s.utilisation * 100)}%</span>
        ))}
      </div>
      <ul className="heat-legend__marks">
        <li>
          <span className="heat-legend__swatch heat-legend__swatch--hot" /> hot: a collector hotspot, or ≥{' '}
          {Math.round(HOT_UTILISATION * 100)}% {source === 'measured' ? 'measured' : 'reserved'}
        </li>
        <li>red outline: drops · orange outline: ECN marks · number: elephant flows (both directions)</li>
        <li>a selected job: its paths stay, the other links fade</li>
        <li>dashed: drained · dotted red: down · dotted: measured oper-status down</li>
      </ul>
    </figure>
  );
}
