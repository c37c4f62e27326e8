// The operator token lives in sessionStorage only: asked once per browser session, never in the
// bundle, forgotten when a server refuses it.
const KEY = 'weft.operatorToken';

export function readOperatorToken(storage: Storage = sessionStorage): string | null {
  const t = storage.getItem(KEY);
  return t && t.trim() !== '' ? t : null;
}

export function saveOperatorToken(token: string, storage: Storage = sessionStorage): void {
  storage.setItem(KEY, token.trim());
}

export function forgetOperatorToken(storage: Storage = sessionStorage): void {
  storage.removeItem(KEY);
}
