import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  chromium,
  type Browser,
  type BrowserServer,
  type Download,
  type Page,
} from 'playwright-core'

/** Debian's Chromium, installed by `.ci/run` (apt-get install chromium). */
export const CHROMIUM_PATH = process.env.HELIOGRAPH_CHROMIUM ?? '/usr/bin/chromium'

/** Where e2e screenshots go (git-ignored), to be looked at after a run. */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-results')

/** Headless Chromium with the flags this closed network needs. */
const LAUNCH_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
}

/** Starts the e2e run's one Chromium (test/setup/chromium-server.ts). */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH_OPTIONS)
}

/**
 * A browser for one test file: a connection to the run's Chromium when there is one (the
 * e2e tier), else a Chromium of its own. Closing it closes what the file opened.
 */
export async function launchChromium(): Promise<Browser> {
  // Outside a vitest run (a benchmark) there is no run's Chromium.
  const endpoint = process.env.VITEST
    ? (await import('vitest')).inject('chromiumEndpoint')
    : undefined
  return endpoint ? chromium.connect(endpoint) : chromium.launch(LAUNCH_OPTIONS)
}

/**
 * Opens the app's page afresh at a route (`#/wallet/…/history`): the address is changed in
 * place, then the page reloads. A `goto` to a route of the page already shown is a
 * same-document navigation, and one to the address already shown is none at all; this
 * way there is always exactly one navigation to wait for, the reload's.
 *
 * @example
 * await reloadAt(page, `#/wallet/${address}/history`)
 */
export async function reloadAt(page: Page, hash: `#/${string}`): Promise<void> {
  await page.evaluate((route) => history.replaceState(history.state, '', route), hash)
  await page.reload()
}

/** Saves a full-page screenshot under test-results/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = resolve(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/**
 * A local copy of a finished download. The run's Chromium is a browser connected to over
 * its endpoint, where Playwright keeps no path of its own: the file is saved here.
 */
export async function downloadedFile(download: Download): Promise<string> {
  const path = join(
    mkdtempSync(join(tmpdir(), 'heliograph-download-')),
    download.suggestedFilename(),
  )
  await download.saveAs(path)
  return path
}
