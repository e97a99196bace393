import type { KeyNotice } from '@shared/ipc/settings-schemas'

/** What each key notice tells the person; the banner and Settings show the same words. */
export const KEY_NOTICE_WORDS: Record<KeyNotice, string> = {
  unreadable:
    'Your stored API key could not be read (the system keyring is locked, missing or was reset). Enter it again to use your own data.',
  'cleared-for-new-origin':
    'A service URL now points to a new host, so your API key was removed rather than sent there. Enter the key again if you trust that host.',
  missing:
    'Your own data is shown, and nothing syncs until you enter your API key. Wallets you add are kept meanwhile.',
}

/** What a team account that may not set the key is told of each notice: ask an admin. */
export const KEY_NOTICE_WORDS_FOR_TEAM: Record<KeyNotice, string> = {
  unreadable: 'The server’s stored API key could not be read: ask an admin to enter it again.',
  'cleared-for-new-origin':
    'A service URL now points to a new host, so the API key was removed rather than sent there: ask an admin to enter it again.',
  missing: 'Nothing syncs until an admin enters the API key: ask an admin.',
}
