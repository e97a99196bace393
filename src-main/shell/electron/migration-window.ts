import { BrowserWindow } from 'electron'
import { MIGRATION_WINDOW_SIZE, migrationPage } from './migration-page'

// While the person's mirror is updated for a new version (before the app's window can
// open: the core needs the mirror), a small window says why the start waits. A step can
// hold up this thread for minutes on a large mirror, so each step's text is shown (the page
// loaded) before the step starts.

/** How long a step waits for its text to be shown, at most. */
const SHOWN_WITHIN_MS = 1_500

/** The window, opened at the first step's text and closed once the core has started. */
export class MigrationWindow {
  #window: BrowserWindow | null = null

  /** Shows `text` (opening the window the first time); resolves once it is on screen. */
  async show(text: string): Promise<void> {
    if (this.#window === null || this.#window.isDestroyed()) {
      this.#window = new BrowserWindow({
        ...MIGRATION_WINDOW_SIZE,
        resizable: false,
        minimizable: false,
        maximizable: false,
        fullscreenable: false,
        title: 'Heliograph',
        webPreferences: { sandbox: true, contextIsolation: true, javascript: false },
      })
    }
    const loaded = this.#window.loadURL(migrationPage(text)).catch(() => undefined)
    await Promise.race([loaded, new Promise((done) => setTimeout(done, SHOWN_WITHIN_MS))])
  }

  close(): void {
    if (this.#window !== null && !this.#window.isDestroyed()) this.#window.destroy()
    this.#window = null
  }
}
