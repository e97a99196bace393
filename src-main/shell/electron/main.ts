// The desktop shell: one sandboxed window over the core. Binds transports only; all
// behaviour lives in the core (src-main/app).
import { IMAGE_ROUTE } from '../../app/image-cache'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  net,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron'
import { CHANNELS } from '@shared/ipc/contract'
import { EVENT_CHANNEL } from '@shared/ipc/bridge'
import type { ActivityNotice } from '@shared/ipc/sync-schemas'
import { walletName } from '@shared/domain/wallet-address'
import { createCore, type Core } from '../../app/core'
import { serveFolder } from '../holder/holder-server'
import { migrationNotice } from '../../app/migration-notice'
import { APP_ENTRY_URL, APP_HOST, APP_ORIGIN, APP_SCHEME, originOf } from './app-origin'
import { devServerUrlToLoad } from './dev-server'
import { decideNavigation, isExternalWebUrl } from './navigation-policy'
import { applyPermissionPolicy } from './permission-policy'
import { rendererFilePath } from './renderer-files'
import { MigrationWindow } from './migration-window'
import { isTrustedSender } from './sender-check'
import { SafeStorageSecretStore } from './safe-storage-secret-store'
import { APP_ICON_FILE, buildWindowOptions } from './window-options'
import { readWindowBounds, writeWindowBounds } from './window-state'

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

const devServerUrl = devServerUrlToLoad(process.env, app.isPackaged)
const appOrigins = [APP_ORIGIN, ...(devServerUrl ? [originOf(devServerUrl) ?? ''] : [])]
const rendererDir = join(import.meta.dirname, '../renderer')

function dataDirFromArgs(argv: string[]): string | undefined {
  const index = argv.indexOf('--data-dir')
  return index >= 0 ? argv[index + 1] : argv.find((a) => a.startsWith('--data-dir='))?.slice(11)
}

function serveRenderer(core: () => Core | null): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url)
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 })
    if (url.pathname.startsWith(IMAGE_ROUTE)) {
      // NFT and token images from the data folder (image-cache.ts), never from their hosts.
      const key = url.pathname.slice(IMAGE_ROUTE.length)
      const image = await core()
        ?.readImage(key)
        .catch(() => null)
      return image
        ? new Response(new Uint8Array(image.body), { headers: { 'content-type': image.mime } })
        : new Response('No such image', { status: 404 })
    }
    const path = rendererFilePath(rendererDir, url.pathname)
    if (path === null) return new Response('Bad path', { status: 400 })
    return net.fetch(pathToFileURL(path).toString())
  })
}

function bindContract(core: Core): void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!isTrustedSender(event.senderFrame?.url, appOrigins)) {
        return {
          ok: false,
          error: {
            name: 'AppError',
            message: 'Refused: the request did not come from Heliograph.',
          },
        }
      }
      return core.dispatch(channel, input)
    })
  }
}

/** The save dialog behind `export:choose-path`: the core grants the chosen path to one export. */
async function chooseSavePath({ fileName }: { fileName: string }): Promise<string | null> {
  const window = BrowserWindow.getFocusedWindow()
  const options = {
    title: 'Save export',
    defaultPath: join(app.getPath('documents'), fileName),
    filters: [{ name: 'CSV', extensions: ['csv'] }],
  }
  const choice = window
    ? await dialog.showSaveDialog(window, options)
    : await dialog.showSaveDialog(options)
  return choice.canceled || !choice.filePath ? null : choice.filePath
}

function createWindow(core: Core): BrowserWindow {
  const dataDir = core.info.dataDir
  const window = new BrowserWindow(
    buildWindowOptions(
      join(import.meta.dirname, '../preload/index.cjs'),
      readWindowBounds(dataDir),
      join(app.getAppPath(), APP_ICON_FILE),
    ),
  )
  window.once('ready-to-show', () => window.show())
  window.on('close', () => writeWindowBounds(dataDir, window.getBounds()))
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    const decision = decideNavigation(url, appOrigins)
    if (decision === 'allow') return
    event.preventDefault()
    if (decision === 'open-externally') void shell.openExternal(url)
  })
  const unsubscribe = core.events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, name, payload)
  })
  window.on('closed', unsubscribe)
  void window.loadURL(devServerUrl ?? APP_ENTRY_URL)
  return window
}

/** Brings a window to the front, restored if it was minimised. */
function bringToFront(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}

async function main(): Promise<void> {
  // A second launch of the app hands over to the first, which comes to the front. (The data
  // folder's writer lock, taken by the core, also keeps out the CLI and other builds.)
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  await app.whenReady()
  applyPermissionPolicy(session.defaultSession, appOrigins)
  let started: Core | null = null
  serveRenderer(() => started)
  const dataDir = dataDirFromArgs(process.argv) ?? app.getPath('userData')
  // A mirror on a database server, as the CLI takes it from the environment.
  const databaseUrl = process.env.HELIOGRAPH_DATABASE_URL
  let core: Core
  const migrating = new MigrationWindow()
  try {
    core = await createCore({
      dataDir,
      shell: 'electron',
      version: app.getVersion(),
      secretStore: new SafeStorageSecretStore(dataDir, safeStorage),
      channelSecretStore: new SafeStorageSecretStore(dataDir, safeStorage, 'notify-channels.enc'),
      // An alert's desktop delivery; where the system shows none, the app's Alerts page has it.
      desktopNotifier: (alert) => {
        if (Notification.isSupported())
          new Notification({ title: alert.title, body: alert.body }).show()
      },
      isWatching: true,
      choosePath: chooseSavePath,
      // The CLI's commands run through the app while it holds the folder.
      serveOthers: (opening) => serveFolder({ dataDir, name: 'the Heliograph app' }, opening),
      ...(databaseUrl ? { databaseUrl } : {}),
      onMigration: async (progress) => {
        const notice = migrationNotice(progress)
        if (notice !== null) await migrating.show(notice)
      },
    })
  } catch (error) {
    // Most often the folder is in use by `heliograph sync` or `serve`: the message says which.
    dialog.showErrorBox(
      'Heliograph could not start',
      error instanceof Error ? error.message : String(error),
    )
    app.exit(1)
    return
  } finally {
    migrating.close()
  }
  started = core
  // New activity becomes a desktop notification (the web shell shows a toast instead) until
  // the person writes alert rules: from then on the desktop hears what the rules say.
  core.events.subscribe((event, payload) => {
    if (event !== 'sync:activity' || !Notification.isSupported()) return
    const notice = payload as ActivityNotice
    void core.dispatch('alerts:rules', undefined).then((rules) => {
      if (rules.ok && Array.isArray(rules.result) && rules.result.length > 0) return
      new Notification({ title: walletName(notice), body: notice.summary }).show()
    })
  })
  bindContract(core)
  let mainWindow = createWindow(core)
  app.on('second-instance', () => {
    if (mainWindow.isDestroyed()) mainWindow = createWindow(core)
    bringToFront(mainWindow)
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(core)
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('will-quit', () => void core.close())
}

main().catch((error: unknown) => {
  console.error('Heliograph could not start:', error instanceof Error ? error.message : error)
  app.exit(1)
})
