// Typed calls to scheduler-api (contracts/openapi/scheduler-api.yaml). The types come from the
// generated file (npm run gen:api); this file only names the ones the dashboard reads.
import type { components } from './generated/scheduler-api';

type Schemas = components['schemas'];
export type JobSummary = Schemas['JobSummary'];
export type JobPage = Schemas['PageJobSummary'];
export type JobView = Schemas['JobView'];
export type FlowView = Schemas['FlowView'];
export type MultipathView = Schemas['MultipathView'];
export type FabricState = Schemas['FabricState'];
export type Reservation = Schemas['Reservation'];
export type DrainOutcome = Schemas['DrainOutcome'];

/** The server refused the token (missing, unknown, or without the scope): ask the operator again. */
export class UnauthorizedError extends Error {
  constructor(readonly status: number) {
    super(status === 401 ? 'the operator token was refused' : 'the operator token lacks the scope for this');
    this.name = 'UnauthorizedError';
  }
}

/** Any other failure, with the problem+json title/detail and the 'field' it names when it names one. */
export class ApiError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ApiError';
  }
}

export type Fetch = typeof fetch;

async function callJson<T>(
  method: 'GET' | 'POST',
  path: string,
  token: string,
  fetchFn: Fetch,
  signal?: AbortSignal,
): Promise<T> {
  const res = await fetchFn(path, {
    method,
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    signal,
  });
  if (res.status === 401 || res.status === 403) throw new UnauthorizedError(res.status);
  if (!res.ok) {
    let detail = `HTTP ${res.status}`;
    let field: string | undefined;
    try {
      const problem = (await res.json()) as { detail?: unknown; title?: unknown; field?: unknown };
      if (typeof problem.detail === 'string') detail = `HTTP ${res.status}: ${problem.detail}`;
      else if (typeof problem.title === 'string') detail = `HTTP ${res.status}: ${problem.title}`;
      if (typeof problem.field === 'string') field = problem.field;
    } catch {
      // not problem+json (a proxy's error page): the status alone says what failed
    }
    throw new ApiError(path, res.status, detail, field);
  }
  return (await res.json()) as T;
}

export interface SchedulerApi {
  listJobs(signal?: AbortSignal): Promise<JobPage>;
  getJob(id: string, signal?: AbortSignal): Promise<JobView>;
  fabricState(signal?: AbortSignal): Promise<FabricState>;
  /** Operator scope: flows leave the link and nothing new uses it; answers what moved. */
  drain(linkId: string): Promise<DrainOutcome>;
  undrain(linkId: string): Promise<DrainOutcome>;
}

/** A client bound to one operator token; paths are relative so the dev proxy (or the serving host) routes them. */
export function schedulerApi(token: string, fetchFn: Fetch = (...a) => fetch(...a)): SchedulerApi {
  return {
    listJobs: (signal) => callJson<JobPage>('GET', '/v1/jobs?size=500', token, fetchFn, signal),
    getJob: (id, signal) => callJson<JobView>('GET', `/v1/jobs/${encodeURIComponent(id)}`, token, fetchFn, signal),
    fabricState: (signal) => callJson<FabricState>('GET', '/v1/fabric', token, fetchFn, signal),
    drain: (linkId) =>
      callJson<DrainOutcome>('POST', `/v1/fabric/links/${encodeURIComponent(linkId)}/drain`, token, fetchFn),
    undrain: (linkId) =>
      callJson<DrainOutcome>('POST', `/v1/fabric/links/${encodeURIComponent(linkId)}/undrain`, token, fetchFn),
  };
}
