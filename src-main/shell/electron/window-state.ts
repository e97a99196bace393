import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { WindowBounds } from './window-options'

const FILE = 'window-state.json'

/** The window size remembered from the last run, or undefined (first run, or unreadable). */
export function readWindowBounds(dataDir: string): WindowBounds | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<WindowBounds>
    const { width, height } = parsed
    return Number.isInteger(width) && Number.isInteger(height)
      ? { width: width as number, height: height as number }
      : undefined
  } catch {
    return undefined
  }
}

/** Remembers the window size for the next run; a failure only costs the memory. */
export function writeWindowBounds(dataDir: string, bounds: WindowBounds): void {
  try {
    writeFileSync(
      join(dataDir, FILE),
      JSON.stringify({ width: bounds.width, height: bounds.height }),
    )
  } catch {
    // Not worth interrupting a quit for.
  }
}
