import type { Fetch } from './schedulerApi';

/**
 * A fetch that sends the operator token as a bearer token on every call, when there is one: a
 * deployment closes the controller's and the collector's reads (deploy/), the demo leaves them
 * open on loopback. Plain header records stay plain records (callers and tests read them so).
 */
export function withToken(fetchFn: Fetch, token: string | null): Fetch {
  if (!token) return fetchFn;
  return (input, init = {}) => {
    const given = init.headers;
    const plain = given === undefined || (!(given instanceof Headers) && !Array.isArray(given));
    const headers: HeadersInit = plain
      ? { ...given, Authorization: `Bearer ${token}` }
      : (() => {
          const h = new Headers(given);
          h.set('Authorization', `Bearer ${token}`);
          return h;
        })();
    return fetchFn(input, { ...init, headers });
  };
}
