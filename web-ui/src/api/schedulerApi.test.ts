import { describe, expect, it, vi } from 'vitest';
import { ApiError, schedulerApi, UnauthorizedError } from './schedulerApi';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('schedulerApi', () => {
  it('sends the operator token and reads the job page', async () => {
    const fetchFn = vi.fn<typeof fetch>(async () => json(200, { items: [{ id: 'j1' }], page: 0, size: 500, total: 1 }));
    const page = await schedulerApi('tok', fetchFn).listJobs();
    expect(page.items?.[0]?.id).toBe('j1');
    const [url, init] = fetchFn.mock.calls[0]!;
    expect(url).toBe('/v1/jobs?size=500');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('turns 401 and 403 into UnauthorizedError (the prompt asks again)', async () => {
    for (const status of [401, 403]) {
      await expect(schedulerApi('t', async () => json(status, {})).fabricState()).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
    }
  });

  it('names the path, the problem detail and its field on other failures', async () => {
    const err = await schedulerApi('t', async () => json(404, { title: 'Not Found', detail: 'no job x', field: 'id' }))
      .getJob('x/y')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('/v1/jobs/x%2Fy: HTTP 404: no job x');
    expect((err as ApiError).field).toBe('id');
  });

  it('drains and undrains with POST and reads the outcome', async () => {
    const fetchFn = vi.fn<typeof fetch>(async () => json(200, { linkId: 'leaf1-spine4', state: 'drained', moved: 2 }));
    const api = schedulerApi('op', fetchFn);
    expect(await api.drain('leaf1-spine4')).toMatchObject({ state: 'drained', moved: 2 });
    await api.undrain('leaf1-spine4');
    expect(fetchFn.mock.calls.map(([url, init]) => `${init?.method ?? ''} ${url as string}`)).toEqual([
      'POST /v1/fabric/links/leaf1-spine4/drain',
      'POST /v1/fabric/links/leaf1-spine4/undrain',
    ]);
  });
});
