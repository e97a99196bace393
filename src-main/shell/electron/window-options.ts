/** The subset of Electron's BrowserWindow options this app sets (kept Electron-free to test). */
export interface AppWindowOptions {
  width: number
  height: number
  minWidth: number
  minHeight: number
  title: string
  show: boolean
  backgroundColor: string
  webPreferences: {
    preload: string
    sandbox: true
    contextIsolation: true
    nodeIntegration: false
    nodeIntegrationInWorker: false
    nodeIntegrationInSubFrames: false
    webSecurity: true
    allowRunningInsecureContent: false
    webviewTag: false
    spellcheck: boolean
  }
}

/** Remembered window size, when there is one. */
export interface WindowBounds {
  width: number
  height: number
}

/**
 * The main window's options: the renderer is untrusted content with no Node access; it
 * reaches main only through the preload's typed bridge.
 */
export function buildWindowOptions(preloadPath: string, bounds?: WindowBounds): AppWindowOptions {
  return {
    width: Math.max(bounds?.width ?? 1280, 960),
    height: Math.max(bounds?.height ?? 820, 600),
    minWidth: 960,
    minHeight: 600,
    title: 'Heliograph',
    // Shown on ready-to-show, so the user never sees an empty white frame.
    show: false,
    backgroundColor: '#101418',
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  }
}
