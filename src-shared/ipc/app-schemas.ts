import { z } from 'zod'

/** Which shell hosts the renderer: the desktop app, or the loopback web shell. */
export const ShellKind = z.enum(['electron', 'web'])

/** Facts about the running app that the status bar and Settings show. */
export const AppInfo = z.object({
  version: z.string(),
  shell: ShellKind,
  /** `demo` when no API key is set and the in-process simulator serves the data. */
  dataSource: z.enum(['demo', 'service']),
  dataDir: z.string(),
})
export type AppInfo = z.infer<typeof AppInfo>
