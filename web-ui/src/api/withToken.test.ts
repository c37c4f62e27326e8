import { describe, expect, it } from 'vitest';
import { withToken } from './withToken';

describe('withToken', () => {
  const recorder = () => {
    const seen: (HeadersInit | undefined)[] = [];
    const fetchFn: typeof fetch = (_input, init) => {
      seen.push(init?.headers);
      return Promise.resolve(new Response('{}'));
    };
    return { seen, fetchFn };
  };

  it('adds the bearer token to plain header records and keeps the rest', async () => {
    const { seen, fetchFn } = recorder();
    await withToken(fetchFn, 'tok')('/fabric', { headers: { Accept: 'application/json' } });
    await withToken(fetchFn, 'tok')('/fabric');
    expect(seen).toEqual([
      { Accept: 'application/json', Authorization: 'Bearer tok' },
      { Authorization: 'Bearer tok' },
    ]);
  });

  it('sets it on a Headers object too, and sends nothing without a token', async () => {
    const { seen, fetchFn } = recorder();
    await withToken(fetchFn, 'tok')('/x', { headers: new Headers({ Accept: 'text/plain' }) });
    expect(new Headers(seen[0]).get('authorization')).toBe('Bearer tok');
    expect(new Headers(seen[0]).get('accept')).toBe('text/plain');
    expect(withToken(fetchFn, null)).toBe(fetchFn);
  });
});
