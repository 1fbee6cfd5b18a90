// An error in the player's words, from its stable code (docs/protocol.md "error"; the HTTP API's
// `error` field is the same vocabulary): the catalog's `error.<code>` text. A code this client
// does not know yet (a newer server's) shows the server's own message rather than nothing.

import { hasWords, t, type Key } from './i18n.ts';

/** What an error from the server or the connection carries (net/api.ts, net/socket.ts). */
export interface CodedError {
  code: string;
  message: string;
  /** An HTTP error's status (0: no answer). */
  status?: number;
  /** Seconds to wait, from a 429's Retry-After. */
  retryAfter?: number;
}

/** The codes the client makes itself: no connection, no answer in time, an HTTP status alone. */
export const CLIENT_CODES = ['network', 'http_error', 'disconnected', 'timeout'] as const;

/** The catalog key of a code's words, if the client knows the code. */
export function errorKey(code: string): Key | undefined {
  const key = `error.${code}`;
  return hasWords(key) ? key : undefined;
}

export function errorWords(e: CodedError): string {
  if (e.code === 'rate_limited' && e.retryAfter !== undefined)
    return t('error.rateLimitedWait', { count: e.retryAfter });
  if (e.code === 'http_error') return t('error.http_error', { status: e.status ?? 0 });
  const key = errorKey(e.code);
  return key ? t(key) : e.message || t('error.unknown');
}
