import { parseSnapshot, SnapshotFormatError } from './parseSnapshot';
import type { FabricSnapshot } from './types';

/** Why a snapshot could not be loaded, worded for the operator. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'http' | 'format',
  ) {
    super(message);
  }
}

export const FABRIC_PATH = '/fabric';

/**
 * GET /fabric: the controller's current fabric snapshot. `baseUrl` is empty in the browser (the
 * dev server proxies /fabric to the controller).
 */
export async function fetchSnapshot(
  options: { baseUrl?: string; signal?: AbortSignal; fetchImpl?: typeof fetch } = {},
): Promise<FabricSnapshot> {
  const url = `${options.baseUrl ?? ''}${FABRIC_PATH}`;
  const doFetch = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { headers: { Accept: 'application/json' }, signal: options.signal ?? null });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(`No controller answered at ${url}`, 'unreachable');
  }
  if (!response.ok) {
    // The dev proxy answers 502/504 when nothing listens behind it: that is "unreachable" too.
    const unreachable = response.status === 502 || response.status === 503 || response.status === 504;
    throw new ApiError(
      unreachable
        ? `No controller answered at ${url} (HTTP ${response.status} from the proxy)`
        : `The controller answered HTTP ${response.status} for ${url}`,
      unreachable ? 'unreachable' : 'http',
    );
  }
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
