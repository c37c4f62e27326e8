import { useMemo, useState } from 'react';
import type { JobSummary, JobView } from '../../api/schedulerApi';
import { filterJobs, jobFilterChoices, type JobFilter } from '../../domain/jobFilter';
import { MultipathSummary } from '../MultipathSummary/MultipathSummary';
import './JobsPanel.css';

const FIELDS = [
  ['state', 'State'],
  ['tenant', 'Tenant'],
  ['pattern', 'Pattern'],
] as const;

interface Props {
  jobs: JobSummary[] | null;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  selected: JobView | null;
  error?: string;
}

/** The job list (state, tenant, size), filterable; choosing one highlights its flows' paths on the graph. */
export function JobsPanel({ jobs, selectedId, onSelect, selected, error }: Props) {
  const [filter, setFilter] = useState<JobFilter>({});
  const choices = useMemo(() => jobFilterChoices(jobs ?? []), [jobs]);
  const shown = useMemo(() => filterJobs(jobs ?? [], filter), [jobs, filter]);
  return (
    <section className="jobs-panel" aria-label="Jobs">
      <h2>Jobs</h2>
      {error && <p className="jobs-panel__error">{error}</p>}
      <div className="jobs-panel__filter" role="group" aria-label="Filter jobs">
        {FIELDS.map(([key, label]) => (
          <label key={key}>
            {label}{' '}
            <select
              value={filter[key] ?? ''}
              onChange={(e) => {
                setFilter({ ...filter, [key]: e.target.value || undefined });
              }}
            >
              <option value="">all</option>
              {choices[key].map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {jobs === null ? (
        <p>Loading…</p>
      ) : jobs.length === 0 ? (
        <p>No jobs.</p>
      ) : (
        <ul aria-label={`${shown.length} of ${jobs.length} jobs`}>
          {shown.map((j) => {
            const id = j.id ?? '';
            const active = id === selectedId;
            return (
              <li key={id}>
                <button
                  type="button"
                  aria-pressed={active}
                  className={active ? 'jobs-panel__job jobs-panel__job--selected' : 'jobs-panel__job'}
                  onClick={() => {
                    onSelect(active ? null : id);
                  }}
                >
                  <span className="jobs-panel__name">{j.name ?? id}</span>
                  <span className="jobs-panel__meta">
                    {j.state ?? '?'} · {j.tenant ?? 'no tenant'} · {j.pattern ?? '?'} · {j.flows ?? 0} flows
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {selected?.id === selectedId && selected.multipath && <MultipathSummary view={selected.multipath} />}
      {selected?.id === selectedId && selected.flows && (
        <table className="jobs-panel__flows" aria-label={`Flows of ${selected.name ?? selectedId}`}>
          <thead>
            <tr>
              <th>flow</th>
              <th>path</th>
              <th>EV</th>
            </tr>
          </thead>
          <tbody>
            {selected.flows.map((f) => (
              <tr key={f.id}>
                <td>
                  {f.src} → {f.dst}
                </td>
                <td>{(f.nodes ?? []).join(' › ')}</td>
                <td>{f.ev ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
