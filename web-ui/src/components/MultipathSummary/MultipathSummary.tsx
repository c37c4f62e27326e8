import type { MultipathView } from '../../api/schedulerApi';
import { summarizeMultipath } from '../../domain/multipath';
import './MultipathSummary.css';

/** A multipath job's loads beside its bounds, and whether the granularity or the solver keeps it off the optimum. */
export function MultipathSummary({ view }: { view: MultipathView }) {
  const s = summarizeMultipath(view);
  return (
    <section className="multipath-summary" aria-label="Multipath">
      <dl>
        {s.figures.map((f) => (
          <div key={f.label}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className={`multipath-summary__verdict multipath-summary__verdict--${s.cause}`}>{s.verdict}</p>
      {view.respreadAt && <p className="multipath-summary__note">re-spread with the other jobs at {view.respreadAt}</p>}
    </section>
  );
}
