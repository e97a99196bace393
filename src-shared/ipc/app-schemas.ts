import { z } from 'zod'
import { DataSource, KeyNotice } from './settings-schemas'

/** Which shell hosts the renderer: the desktop app, or the loopback web shell. */
const ShellKind = z.enum(['electron', 'web'])

/** Facts about the running app that the status bar and Settings show. */
export const AppInfo = z.object({
  version: z.string(),
  shell: ShellKind,
  /**
   * `demo`: the in-process simulator serves the data, kept in a mirror of its own;
   * `service`: the person's own mirror, synced from the data service with their key.
   */
  dataSource: DataSource,
  /** The data folder; null for a team account that is not an admin (a server's layout is theirs). */
  dataDir: z.string().nullable(),
  /** Why the key must be entered again, shown as a banner from the start; null when all is well. */
  keyNotice: KeyNotice.nullable(),
  /**
   * What the sync engine last found of the data service: a page opened while it is
   * unreachable starts offline instead of waiting for the next change (`app:network`).
   */
  network: z.enum(['online', 'offline']),
})
export type AppInfo = z.infer<typeof AppInfo>

/**
 * What the core keeps about itself; `app:info` adds the key notice and the network state,
 * worked out at each call.
 */
export type AppFacts = Omit<AppInfo, 'keyNotice' | 'dataDir' | 'network'> & { dataDir: string }
