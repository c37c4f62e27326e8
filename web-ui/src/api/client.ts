import { parseSnapshot, SnapshotFormatError } from './parseSnapshot';
import type { FabricSnapshot } from './types';

/** Why a snapshot could not be loaded, worded for the operator. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'http' | 'format' | 'unauthorised',
  ) {
    super(message);
  }
}

export const FABRIC_PATH = '/fabric';

/**
 * GET /fabric: the controller's current fabric snapshot. `baseUrl` is empty in the browser (the
 * dev server proxies /fabric to the controller). The operator token, when given, goes along: a
 * deployment's controller closes its reads to callers without one.
 */
export async function fetchSnapshot(
  options: { baseUrl?: string; signal?: AbortSignal; fetchImpl?: typeof fetch; token?: string | null } = {},
): Promise<FabricSnapshot> {
  const url = `${options.baseUrl ?? ''}${FABRIC_PATH}`;
  const doFetch = options.fetchImpl ?? fetch;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await doFetch(url, { headers, signal: options.signal ?? null });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(`No controller answered at ${url}`, 'unreachable');
  }
  if (!response.ok) throw await httpError(url, response);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(`The controller's answer at ${url} is not JSON`, 'format');
  }
  try {
    return parseSnapshot(body);
  } catch (e) {
    if (e instanceof SnapshotFormatError) throw new ApiError(`Unexpected snapshot: ${e.message}`, 'format');
    throw e;
  }
}

/**
 * The controller's errors are JSON {"error": "..."} (e.g. 503 "no fabric planned yet"); a 5xx
 * without that body comes from the dev proxy finding nothing behind it.
 */
async function httpError(url: string, response: Response): Promise<ApiError> {
  if (response.status === 401 || response.status === 403)
    return new ApiError(
      `The controller refused to show the fabric (HTTP ${response.status}): sign in with an operator token`,
      'unauthorised',
    );
  let said: string | undefined;
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string') {
      said = (body as { error: string }).error;
    }
  } catch {
    // not JSON: not the controller talking
  }
  if (said !== undefined)
    return new ApiError(`The controller answered HTTP ${response.status} for ${url}: ${said}`, 'http');
  if (response.status >= 500)
    return new ApiError(`No controller answered at ${url} (HTTP ${response.status} from the proxy)`, 'unreachable');
  return new ApiError(`HTTP ${response.status} for ${url}`, 'http');
}
