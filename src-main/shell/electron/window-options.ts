/** The subset of Electron's BrowserWindow options this app sets (kept Electron-free to test). */
export interface AppWindowOptions {
  width: number
  height: number
  minWidth: number
  minHeight: number
  title: string
  /** The window and taskbar icon (Linux and Windows; macOS takes the bundle's). */
  icon?: string
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

/** The app icon inside the app folder (the project root, or the packaged app's root). */
export const APP_ICON_FILE = 'resources/icon.png'

/**
 * The main window's options: the renderer is untrusted content with no Node access; it
 * reaches main only through the preload's typed bridge.
 */
export function buildWindowOptions(
  preloadPath: string,
  bounds?: WindowBounds,
  iconPath?: string,
): AppWindowOptions {
  return {
    ...(iconPath ? { icon: iconPath } : {}),
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
