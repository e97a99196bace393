import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../src-main/app/core'
import { SafeStorageSecretStore } from '../../src-main/shell/electron/safe-storage-secret-store'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import { launchChromium, screenshot } from '../helpers/chromium'
import { keyringStandIn } from '../helpers/keyring-stand-in'
import { makeTempDir } from '../helpers/temp-dir'
import { BUILT_RENDERER_DIR } from '../helpers/web-shell-fixture'

// Given a key stored with a keyring that can no longer decrypt it, when the app starts,
// then a banner says so on every page from the start, Settings says so beside the key
// form, and entering the key again replaces it and takes the banner away.

const KEY = 'test-key-0000-5150'

describe('e2e: a key the keyring cannot read is reported and can be entered again', () => {
  const temp = makeTempDir()
  let core: Core
  let shell: RunningWebShell
  let browser: Browser
  let page: Page
  const banner = () => page.getByRole('alert', { name: 'API key' })

  beforeAll(async () => {
    new SafeStorageSecretStore(temp.dir, keyringStandIn('before-reset')).write(KEY)
    const secretStore = new SafeStorageSecretStore(temp.dir, keyringStandIn('after-reset'))
    core = await createCore({ dataDir: temp.dir, shell: 'web', version: 'test', secretStore })
    shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await shell?.close()
    await core?.close()
    temp.remove()
  })

  it('the banner says the key could not be read, from the first page', async () => {
    await page.goto(shell.url)
    await expect.poll(() => banner().textContent()).toMatch(/could not be read/)
  })

  it('Settings says so too, and the key entered again replaces it', async () => {
    await banner().getByRole('link', { name: 'Settings' }).click()
    const key = page.getByRole('region', { name: 'API key' })
    await expect.poll(() => key.textContent()).toMatch(/could not be read/)
    await screenshot(page, 'key-unreadable')
    const form = page.getByRole('form', { name: 'Set API key' })
    await form.getByLabel('API key').fill(KEY)
    await form.getByRole('button', { name: 'Save key' }).click()
    await expect.poll(() => key.textContent(), { timeout: 10_000 }).toMatch(/ends with …5150/)
    await expect.poll(() => banner().count()).toBe(0)
  })
})
