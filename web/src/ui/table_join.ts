// Opening a table from the table screen: take the invited seat when the address has an invite,
// else (or when the seat is already ours) open the table as its player or as a spectator, and the
// words shown when neither works.

import { t } from '../logic/i18n.ts';
import { errorText } from './app.ts';
import type { MessageOf } from '../net/protocol.ts';
import { ProtocolError, type UrSocket } from '../net/socket.ts';

/**
 * Takes the invited seat when there is an invite (already seated is fine), then opens the table
 * when the join did not answer with it. `inviteUsed` runs once the server has answered the join
 * (a dropped connection keeps the invite for the retry after reconnecting). A failed join is
 * returned so the page can say why; when opening fails too, the join's error is thrown, as it
 * says more than "private table".
 */
export async function joinOrOpen(
  socket: UrSocket,
  table: string,
  invite: string | null,
  inviteUsed: () => void,
): Promise<{ answer: MessageOf<'joined'>; joinError: ProtocolError | null }> {
  let joinError: ProtocolError | null = null;
  if (invite) {
    try {
      const answer = await socket.request('join_table', { table, invite });
      inviteUsed();
      return { answer, joinError };
    } catch (e) {
      if (!(e instanceof ProtocolError) || e.code === 'disconnected') throw e; // kept for a retry
      inviteUsed();
      if (e.code !== 'already_seated') joinError = e;
    }
  }
  try {
    return { answer: await socket.request('open_table', { table }), joinError };
  } catch (e) {
    throw joinError ?? e;
  }
}

/** Why the table could not be opened, in the player's words. */
export function openErrorText(e: unknown): string {
  const code = e instanceof ProtocolError ? e.code : '';
  if (code === 'no_table') return t('table.error.noTable');
  if (code === 'private_table') return t('table.error.private');
  if (code === 'table_closed') return t('table.error.closed');
  if (code === 'bad_invite') return t('table.error.badInvite');
  if (code === 'table_full') return t('table.error.full');
  return errorText(e);
}
