// The jobs panel's filter: by state, tenant and pattern (each optional), and the choices present.
import type { JobSummary } from '../api/schedulerApi';

export interface JobFilter {
  state?: string;
  tenant?: string;
  pattern?: string;
}

export function filterJobs(jobs: readonly JobSummary[], f: JobFilter): JobSummary[] {
  return jobs.filter(
    (j) =>
      (!f.state || j.state === f.state) &&
      (!f.tenant || j.tenant === f.tenant) &&
      (!f.pattern || j.pattern === f.pattern),
  );
}

/** The distinct values of each filterable field, sorted, for the filter's choices. */
export function jobFilterChoices(jobs: readonly JobSummary[]): Required<Record<keyof JobFilter, string[]>> {
  const distinct = (pick: (j: JobSummary) => string | undefined) =>
    [...new Set(jobs.map(pick).filter((v): v is string => typeof v === 'string' && v !== ''))].sort();
  return { state: distinct((j) => j.state), tenant: distinct((j) => j.tenant), pattern: distinct((j) => j.pattern) };
}
